"""The readings Murmur offers back when unsure what was meant, a button each (in the toast and the Inbox). Their
words wrap rather than end in "…": what tells two readings apart may be anywhere in them."""

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QLabel, QPushButton, QWidget

from app.presentation.choices import SHOWN_AT_MOST
from app.ui.plain_text import plain_label


class WrappingButton(QPushButton):
    """A push button as tall as its words need at its width: they are a wrapped label inside it, which lets
    clicks through to the button."""

    def __init__(self, words: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(words)
        self.words = plain_label(QLabel(words))  # an entry's name, as the user or a model wrote it
        self.words.setWordWrap(True)
        self.words.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 5, 10, 5)
        layout.addWidget(self.words)

    # QPushButton measures its own text (none here); the label's layout knows what the words need.

    def sizeHint(self) -> QSize:
        return QWidget.sizeHint(self)

    def minimumSizeHint(self) -> QSize:
        return QWidget.minimumSizeHint(self)


class ReadingButtons(QWidget):
    """A button for each of the first readings offered; a click says which (counted from 1, as `retry` takes it)."""

    reading_chosen = Signal(int)

    def __init__(self, direction: QBoxLayout.Direction, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QBoxLayout(direction, self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.buttons: list[WrappingButton] = []

    def show_readings(self, labels: Sequence[str]) -> None:
        for button in self.buttons:
            button.setParent(None)
            button.deleteLater()
        self.buttons = [WrappingButton(label) for label in labels[:SHOWN_AT_MOST]]
        for number, button in enumerate(self.buttons, start=1):
            button.clicked.connect(partial(self._on_button_clicked, number))
            self._layout.addWidget(button, 1)
        self.setVisible(bool(self.buttons))

    def _on_button_clicked(self, number: int) -> None:
        self.reading_chosen.emit(number)
