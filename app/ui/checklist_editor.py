"""An entry's checklist in the details panel: a checkbox per item and a line to add one.

It only asks: a click asks for the item to be ticked (or unticked) and the boxes show what the service did
once the list is read again, so a refused tick springs back."""

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QLineEdit, QSizePolicy, QVBoxLayout, QWidget

from app.domain.checklist import ChecklistItem
from app.domain.enums import Status

ADD_PROMPT = "Add item"


class ChecklistEditor(QWidget):
    check_requested = Signal(str, bool)  # the item's text, ticked (True) or unticked
    add_requested = Signal(str)  # the new item's text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.boxes: list[QCheckBox] = []
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
        for box, item in zip(self.boxes, items, strict=True):
            box.setChecked(item.done)
            box.setEnabled(open_entry or (status is Status.COMPLETED and item.done))
        self.add_line.setEnabled(open_entry)

    def _make_boxes(self, texts: list[str]) -> None:
        for box in self.boxes:
            self._layout.removeWidget(box)
            box.deleteLater()
        self.boxes, self._texts = [], texts
        for position, text in enumerate(texts):
            box = QCheckBox(text.replace("&", "&&"))  # "&" is a shortcut mark on a button, not the item's
            box.setToolTip(text)
            box.setAccessibleName(text)
            # A long item is cut at the panel's edge instead of widening the panel.
            box.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            box.clicked.connect(lambda checked, text=text: self.check_requested.emit(text, checked))
            self._layout.insertWidget(position, box)
            self.boxes.append(box)

    def _on_add_line_return_pressed(self) -> None:
        text = self.add_line.text().strip()
        if text:
            self.add_line.clear()
            self.add_requested.emit(text)
