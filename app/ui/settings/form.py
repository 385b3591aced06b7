"""The fields the settings pages are made of, each showing one setting's value, and the form that lines them up."""

from dataclasses import fields

from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QLineEdit, QWidget

from app.api.settings import LlmSettings, SpeechSettings, UiSettings


def combo(items: dict[str, str], current: str) -> QComboBox:
    """A choice among `items` (value: label), `current` chosen (else the first)."""
    box = QComboBox()
    for value, label in items.items():
        box.addItem(label, value)
    box.setCurrentIndex(max(0, box.findData(current)))
    return box


def spin(
    section: LlmSettings | SpeechSettings | UiSettings, name: str, suffix: str, decimals: int = 0, percent: bool = False
) -> QDoubleSpinBox:
    """A spin box for the numeric setting `name` of `section`, within the range the settings file allows;
    `percent`: a fraction (1.0) shown as a percentage (100 %)."""
    box = QDoubleSpinBox()
    box.setDecimals(decimals)  # before the value, which it rounds
    scale = 100 if percent else 1
    low, high = next(f.metadata["range"] for f in fields(type(section)) if f.name == name)
    box.setRange(low * scale, high * scale)
    box.setValue(getattr(section, name) * scale)
    box.setSuffix(suffix)
    return box


def check(text: str, checked: bool) -> QCheckBox:
    box = QCheckBox(text)
    box.setChecked(checked)
    return box


def text_field(text: str, placeholder: str = "") -> QLineEdit:
    field = QLineEdit(text)
    field.setPlaceholderText(placeholder)
    return field


def side_by_side(*widgets: tuple[QWidget, int]) -> QWidget:
    """One row of widgets, each with its stretch, that fills a form's field column."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget, stretch in widgets:
        layout.addWidget(widget, stretch)
    return row


def lay_out(page: QWidget, *rows: tuple[str, QWidget]) -> None:
    """`page` as a form: each row a label (may be empty) and its field."""
    form = QFormLayout(page)
    for label, widget in rows:
        form.addRow(label, widget)
