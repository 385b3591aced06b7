"""Under the typed box: what the words would do if Enter were pressed now, a line per change, each cut to the width
(the whole in the tooltip), so the box and the list below never grow sideways with what is typed. A line is cut in
its middle: it begins with what would be done and ends with when, the two parts worth keeping."""

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from app.ui.plain_text import plain_label, plain_tooltip


class ReadingLine(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        plain_label(self)  # the lines quote what was typed
        self.setObjectName("reading")
        self.setAccessibleName("What Enter would do")
        self.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._lines: tuple[str, ...] = ()
        self.hide()

    def show_lines(self, lines: Sequence[str]) -> None:
        """Show `lines`; hidden when there are none."""
        self._lines = tuple(lines)
        self.setToolTip(plain_tooltip("\n".join(self._lines)) if self._lines else "")
        self._fit()
        self.setVisible(bool(self._lines))

    def whole_lines(self) -> tuple[str, ...]:
        """The lines as given, before any was cut to the width."""
        return self._lines

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()

    def _fit(self) -> None:
        metrics, width = self.fontMetrics(), self.contentsRect().width()
        self.setText("\n".join(metrics.elidedText(line, Qt.TextElideMode.ElideMiddle, width) for line in self._lines))
