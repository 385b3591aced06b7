"""The problems bar at the top of the window: each failure that needs the user (app.presentation.problems), one
line each with what to do and its buttons (Settings…, Retry, Dismiss). Inline, never modal; thin (a line too long
for the window ends in "…", the whole of it in its tooltip; a narrow window gets the buttons as symbols); it
hides itself when nothing is wrong."""

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from app.presentation.problems import Problem
from app.ui.plain_text import plain_label, plain_tooltip
from app.ui.remedies import settings_page, window_text

# A tint of the error red that reads on the light and the dark theme alike.
STYLE = """
QFrame#problemsBar { background: rgba(224, 68, 58, 0.10); border: 1px solid rgba(224, 68, 58, 0.45);
    border-radius: 6px; }
QFrame#problemsBar QLabel { background: transparent; border: none; }
"""
NARROW_BELOW = 640  # the bar's width under which its buttons show as symbols
SYMBOLS = {"Settings…": "⚙", "Retry": "↻", "Dismiss": "✕"}


class _OneLine(QLabel):
    """A line that ends in "…" where the window is too narrow for it."""

    def __init__(self, text: str) -> None:
        super().__init__()
        plain_label(self)
        self.whole = text
        self.setToolTip(plain_tooltip(text))
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.setText(self.fontMetrics().elidedText(self.whole, Qt.TextElideMode.ElideRight, self.width()))
        super().resizeEvent(event)


class ProblemsBar(QFrame):
    settings_requested = Signal(str)  # the settings page to open
    retry_requested = Signal(str)  # a Trouble's value
    dismiss_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("problemsBar")
        self.setStyleSheet(STYLE)
        self.setAccessibleName("Problems")
        self._rows = QVBoxLayout(self)
        self._rows.setContentsMargins(8, 2, 4, 2)
        self._rows.setSpacing(0)
        self.lines: list[str] = []  # what each row says, whole, in order
        self._buttons: list[QToolButton] = []
        self.hide()

    def show_problems(self, problems: list[Problem]) -> None:
        while (item := self._rows.takeAt(0)) is not None:
            if (widget := item.widget()) is not None:
                widget.deleteLater()
        self.lines, self._buttons = [], []
        for problem in problems:
            self._rows.addWidget(self._row(problem))
        self._name_buttons()
        self.setVisible(bool(problems))

    def _row(self, problem: Problem) -> QWidget:
        row = QWidget()
        row.setObjectName(f"problem-{problem.kind.value}")
        said = window_text(problem.message, problem.remedy)
        self.lines.append(said)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(_OneLine(said), 1)
        if (page := settings_page(problem.remedy)) is not None:
            layout.addWidget(self._button("Settings…", partial(self.settings_requested.emit, page)))
        if problem.retry:
            layout.addWidget(self._button("Retry", partial(self.retry_requested.emit, problem.kind.value)))
        layout.addWidget(self._button("Dismiss", partial(self.dismiss_requested.emit, problem.kind.value)))
        return row

    def _button(self, label: str, clicked: partial[None]) -> QToolButton:
        button = QToolButton()
        button.setAccessibleName(label)
        button.setToolTip(label)
        button.clicked.connect(clicked)
        self._buttons.append(button)
        return button

    def _name_buttons(self) -> None:
        narrow = self.width() < NARROW_BELOW
        for button in self._buttons:
            label = button.accessibleName()
            button.setText(SYMBOLS[label] if narrow else label)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._name_buttons()
        super().resizeEvent(event)
