"""An entry's checklist in the details panel: a checkbox per item with a button that takes it off the list, and a
line to add one.

It only asks: a click asks for the item to be ticked (or unticked, or removed) and the boxes show what the service
did once the list is read again, so a refused tick springs back."""

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLineEdit, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from app.domain.checklist import ChecklistItem
from app.domain.enums import Status

ADD_PROMPT = "Add item"
REMOVE_MARK = "×"


def remove_words(text: str) -> str:
    """What the remove button of an item says to a screen reader and in its tooltip."""
    return f"Remove “{text}” from the list"


class ChecklistEditor(QWidget):
    check_requested = Signal(str, bool)  # the item's text, ticked (True) or unticked
    add_requested = Signal(str)  # the new item's text
    remove_requested = Signal(str)  # the item's text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.boxes: list[QCheckBox] = []
        self.remove_buttons: list[QToolButton] = []
        self._rows: list[QWidget] = []
        self._texts: list[str] = []
        self.add_line = QLineEdit()
        self.add_line.setObjectName("addItem")
        self.add_line.setAccessibleName(ADD_PROMPT)
        self.add_line.setPlaceholderText(ADD_PROMPT)
        self.add_line.returnPressed.connect(self._on_add_line_return_pressed)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        self._layout.addWidget(self.add_line)

    def show_items(self, items: Sequence[ChecklistItem], status: Status) -> None:
        """The boxes for `items`; those of the same texts are kept (the keyboard's focus stays on its box).
        A completed entry's ticked items can be taken back (that opens it again); an archived one's stay."""
        texts = [item.text for item in items]
        if texts != self._texts:
            self._make_boxes(texts)
        open_entry = status in (Status.ACTIVE, Status.SNOOZED)
        for box, remove, item in zip(self.boxes, self.remove_buttons, items, strict=True):
            box.setChecked(item.done)
            box.setEnabled(open_entry or (status is Status.COMPLETED and item.done))
            remove.setEnabled(open_entry)
        self.add_line.setEnabled(open_entry)

    def _make_boxes(self, texts: list[str]) -> None:
        for row in self._rows:
            self._layout.removeWidget(row)
            row.deleteLater()
        self.boxes, self.remove_buttons, self._rows, self._texts = [], [], [], texts
        for position, text in enumerate(texts):
            box = QCheckBox(text.replace("&", "&&"))  # "&" is a shortcut mark on a button, not the item's
            box.setToolTip(text)
            box.setAccessibleName(text)
            # A long item is cut at the panel's edge instead of widening the panel.
            box.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            box.clicked.connect(lambda checked, text=text: self.check_requested.emit(text, checked))
            remove = QToolButton()
            remove.setText(REMOVE_MARK)
            remove.setAutoRaise(True)
            remove.setToolTip(remove_words(text))
            remove.setAccessibleName(remove_words(text))
            remove.clicked.connect(lambda _checked=False, text=text: self.remove_requested.emit(text))
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(2)
            line.addWidget(box, 1)
            line.addWidget(remove)
            self._layout.insertWidget(position, row)
            self.boxes.append(box)
            self.remove_buttons.append(remove)
            self._rows.append(row)

    def _on_add_line_return_pressed(self) -> None:
        text = self.add_line.text().strip()
        if text:
            self.add_line.clear()
            self.add_requested.emit(text)
