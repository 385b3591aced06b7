"""Every control a screen reader lands on has a name: its own accessible name, its visible text, or the
label of its form row; an icon-only button also has a tooltip for the sighted."""

from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSlider,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog

CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView, QSlider, QPlainTextEdit)


def labelled(widget: QWidget) -> bool:
    """A QLabel names it (its buddy), or a form row's label does."""
    window = widget.window()
    if any(label.buddy() is widget and label.text() for label in window.findChildren(QLabel)):
        return True
    for form in window.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            if field and label and field.widget() is widget and isinstance(label.widget(), QLabel):
                return bool(label.widget().text())  # type: ignore[union-attr]
    return False


def unnamed(root: QWidget) -> list[str]:
    missing = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or isinstance(widget, QHeaderView) or widget.objectName().startswith("qt_"):
            continue  # Qt's own parts: a spin box's text, the menu bar's overflow, a header (its columns name it)
        if (
            isinstance(widget.parent(), (QComboBox, QAbstractSpinBox, QLineEdit, QTabBar))
            or widget.window() is not root
        ):
            continue  # parts of a named control: a combo's popup, a line edit's clear button, a tab bar's arrows
        text = widget.text() if isinstance(widget, QAbstractButton) else ""
        if widget.accessibleName() or text.strip() or labelled(widget):
            if isinstance(widget, QAbstractButton) and not text.strip() and not widget.toolTip():
                missing.append(f"{type(widget).__name__} {widget.objectName()!r}: an icon with no tooltip")
            continue
        missing.append(f"{type(widget).__name__} {widget.objectName()!r} in {type(widget.parent()).__name__}")
    return missing


def test_every_control_of_the_window_has_a_name(murmur: Murmur) -> None:
    assert unnamed(murmur.window) == []


def test_every_control_of_settings_has_a_name(qtbot: QtBot, murmur: Murmur) -> None:
    dialog = SettingsDialog(murmur.settings)
    qtbot.addWidget(dialog)
    assert unnamed(dialog) == []
