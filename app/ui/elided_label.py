"""A label for words of any length: wrapped on a few lines, cut with "…" past them, the whole in its tooltip."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget

from app.ui.plain_text import plain_label, plain_tooltip

# Room a wrapped line may leave at its end (a word that did not fit goes to the next line), in average characters.
_LINE_END_SLACK = 8


class ElidedLabel(QLabel):
    def __init__(self, lines: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        plain_label(self)
        self._whole = ""
        self.set_lines(lines)

    def whole_text(self) -> str:
        return self._whole

    def set_lines(self, lines: int) -> None:
        """At most `lines` lines; one does not wrap, and takes the width it is given rather than ask for all of it
        (its height then never waits on its width)."""
        self._lines = lines
        self.setWordWrap(lines > 1)
        self.setMinimumWidth(1 if lines == 1 else 0)
        self._fit()

    def setText(self, text: str) -> None:
        self._whole = text
        self.setToolTip(plain_tooltip(text) if text else "")
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()

    def _fit(self) -> None:
        """Cut the words to what `lines` lines of this width hold, measured as one long line less the room
        each wrap may leave unused."""
        metrics, width = self.fontMetrics(), self.contentsRect().width()
        room = self._lines * width - (self._lines - 1) * _LINE_END_SLACK * metrics.averageCharWidth()
        flat = " ".join(self._whole.split())  # a new line said is a space here
        shown = metrics.elidedText(flat, Qt.TextElideMode.ElideRight, max(room, width))
        super().setText(self._whole if shown == flat else shown)
