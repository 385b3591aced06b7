"""The problems bar at the top of the window: each failure that needs the user (app.presentation.problems), in a
line of its own with what to do and its buttons (Settings…, Retry, Dismiss). Inline, never modal; it hides itself
when nothing is wrong."""

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.presentation.problems import Problem
from app.ui.plain_text import plain_label
from app.ui.remedies import settings_page, window_text

# A tint of the error red that reads on the light and the dark theme alike.
STYLE = """
QFrame#problemsBar { background: rgba(224, 68, 58, 0.10); border: 1px solid rgba(224, 68, 58, 0.45);
    border-radius: 6px; }
QFrame#problemsBar QLabel { background: transparent; border: none; }
"""


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
        self._rows.setContentsMargins(8, 4, 8, 4)
        self.lines: list[QLabel] = []  # what each row says, in order
        self.hide()

    def show_problems(self, problems: list[Problem]) -> None:
        while (item := self._rows.takeAt(0)) is not None:
            if (widget := item.widget()) is not None:
                widget.deleteLater()
        self.lines = []
        for problem in problems:
            self._rows.addWidget(self._row(problem))
        self.setVisible(bool(problems))

    def _row(self, problem: Problem) -> QWidget:
        row = QWidget()
        row.setObjectName(f"problem-{problem.kind.value}")
        text = plain_label(QLabel(window_text(problem.message, problem.remedy)))
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.lines.append(text)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(text, 1)
        if (page := settings_page(problem.remedy)) is not None:
            layout.addWidget(self._button("Settings…", partial(self.settings_requested.emit, page)))
        if problem.retry:
            layout.addWidget(self._button("Retry", partial(self.retry_requested.emit, problem.kind.value)))
        layout.addWidget(self._button("Dismiss", partial(self.dismiss_requested.emit, problem.kind.value)))
        return row

    @staticmethod
    def _button(label: str, clicked: partial[None]) -> QPushButton:
        button = QPushButton(label)
        button.clicked.connect(clicked)
        return button
