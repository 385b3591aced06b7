"""The readings Murmur offers back when unsure what was meant, a button each (in the toast and the Inbox). Their
words wrap rather than end in "…": what tells two readings apart may be anywhere in them."""

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QMargins, QSize, Qt, Signal
from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from app.presentation.choices import SHOWN_AT_MOST
from app.ui.plain_text import plain_label

PADDING = QMargins(10, 6, 10, 6)  # around the words, inside the button's frame


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
        layout.setContentsMargins(PADDING)
        layout.addWidget(self.words)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)  # as tall as the words wrapped at the width given
        self.setSizePolicy(policy)

    # QPushButton measures its own text (none here). A wrapped label's hint guesses a narrow width and several
    # lines; the button would rather be one line, wide enough for all the words, and wrap only when it is not.

    def sizeHint(self) -> QSize:
        return self.words.fontMetrics().size(0, self.words.text()).grownBy(PADDING)

    def minimumSizeHint(self) -> QSize:
        return QWidget.minimumSizeHint(self)


class ReadingButtons(QWidget):
    """A button for each of the first readings offered; a click says which (counted from 1, as `retry` takes it)."""

    reading_chosen = Signal(int)

    def __init__(self, direction: QBoxLayout.Direction, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QBoxLayout(direction, self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addStretch(1)
        self.buttons: list[WrappingButton] = []

    def show_readings(self, labels: Sequence[str]) -> None:
        for button in self.buttons:
            button.setParent(None)
            button.deleteLater()
        self.buttons = [WrappingButton(label) for label in labels[:SHOWN_AT_MOST]]
        for number, button in enumerate(self.buttons, start=1):
            button.clicked.connect(partial(self._on_button_clicked, number))
            self._layout.insertWidget(number - 1, button)  # before the stretch: as wide as their words, where room
        self.setVisible(bool(self.buttons))

    def _on_button_clicked(self, number: int) -> None:
        self.reading_chosen.emit(number)
