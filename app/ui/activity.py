"""The conversation at the top of the window: ready state, level meter, the partial transcript as it
grows, the final transcript, then one line of what happened (or the question asked); the raw steps
(thinking, each tool call) wait behind a Details button. The state's line (`status`) is the window's to place: it
keeps it in view above the rest, which scrolls."""

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QProgressBar, QToolButton, QVBoxLayout, QWidget

from app.domain.events import (
    ErrorEvent,
    FallingBack,
    MessageEvent,
    PipelineEvent,
    RunEnd,
    SummingUp,
    ThinkingEvent,
    ToolCallEvent,
    ToolResultEvent,
    TranscriptEvent,
)
from app.ui.elided_label import ElidedLabel
from app.ui.plain_text import plain_label
from app.ui.remedies import window_text

SILENCE_DBFS = -60


def describe_event(event: PipelineEvent) -> str | None:
    """One line for the progress list, or None for events shown elsewhere."""
    match event:
        case SummingUp():
            return f"Summing up {event.talks} earlier talk{'s' if event.talks > 1 else ''}…"
        case ThinkingEvent():
            return f"Thinking… ({event.interpreter}, turn {event.turn})"
        case FallingBack():
            return f"The model failed ({event.reason}); the built-in rules read it"
        case ToolCallEvent():
            return f"→ {event.name}({_short(event.arguments)})"
        case ToolResultEvent():
            return f"  {'✓' if event.ok else '✗'} {_short(event.content)}"
        case MessageEvent():
            return ("Question: " if event.question else "") + event.text
        case ErrorEvent():
            return f"Error: {window_text(event.message, event.remedy)}"
        case RunEnd():
            return event.summary
        case _:
            return None  # what was said is shown above the list; the microphone and the voice show themselves


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ActivityPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status = ElidedLabel(lines=2)  # may carry a model's or a server's message, of any length
        self.status.setObjectName("status")
        self.level = QProgressBar()
        self.level.setObjectName("level")
        self.level.setTextVisible(False)
        self.level.setMaximumHeight(6)
        self.level.setRange(SILENCE_DBFS, 0)
        self.level.setValue(SILENCE_DBFS)
        self.level.setVisible(False)
        self.transcript = QLabel()
        self.transcript.setObjectName("transcript")
        self.transcript.setWordWrap(True)
        self.transcript.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.outcome = plain_label(QLabel())  # what happened, in the words of the toast
        self.outcome.setObjectName("outcome")
        self.outcome.setWordWrap(True)
        self.outcome.setVisible(False)
        self.details = QToolButton()
        self.details.setObjectName("details")
        self.details.setText("Details")
        self.details.setAccessibleName("Show the steps")
        self.details.setToolTip("What Murmur did, step by step")
        self.details.setCheckable(True)
        self.details.setAutoRaise(True)
        self.details.setVisible(False)
        self.details.toggled.connect(self._on_details_toggled)
        self.progress = QListWidget()
        self.progress.setObjectName("progress")
        self.progress.setAccessibleName("Steps")
        self.progress.setMaximumHeight(96)
        self.progress.setVisible(False)
        said = QHBoxLayout()
        said.addWidget(self.outcome, 1)
        said.addWidget(self.details, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.level)
        layout.addWidget(self.transcript)
        layout.addLayout(said)
        layout.addWidget(self.progress)

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setProperty("error", error)
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)

    def recording_started(self) -> None:
        self.transcript.setText("")
        self.level.setValue(SILENCE_DBFS)
        self.level.setVisible(True)

    def recording_stopped(self) -> None:
        self.level.setVisible(False)

    def show_level(self, dbfs: float) -> None:
        self.level.setValue(round(max(SILENCE_DBFS, min(0.0, dbfs))))

    def show_partial(self, text: str, tentative: str = "") -> None:
        """The words so far; their `tentative` end (which may still change) greyed."""
        settled = text[: len(text) - len(tentative)].strip()
        parts = [_escape(settled)] if settled else []
        if tentative:
            # with its alpha: the palette's placeholder is the text colour at half opacity, black without it
            grey = self.transcript.palette().color(QPalette.ColorRole.PlaceholderText).name(QColor.NameFormat.HexArgb)
            parts.append(f'<span style="color: {grey}">{_escape(tentative)}</span>')
        self.transcript.setText(f"<i>{' '.join(parts)}…</i>")

    def show_event(self, event: PipelineEvent) -> None:
        if isinstance(event, TranscriptEvent):
            self.transcript.setText(f"“{_escape(event.text)}”")
            self.progress.clear()
            self.outcome.setVisible(False)
            self.details.setVisible(True)
            return
        if isinstance(event, MessageEvent) and event.question:
            self.show_outcome(f"Murmur asks: {event.text}")
        line = describe_event(event)
        if line:
            self.progress.addItem(line)
            self.progress.scrollToBottom()

    def show_outcome(self, text: str, error: bool = False, steps: Sequence[str] | None = None) -> None:
        """One readable line of what the words did: "Created “Call the dentist”, Thu 15:00". `steps`: the lines of
        a change that was no run (an import, an edit, an undo), which Details then shows in place of the last run's
        steps; None for a run's own outcome."""
        self.outcome.setText(text)
        self.outcome.setProperty("error", error)
        self.outcome.style().unpolish(self.outcome)
        self.outcome.style().polish(self.outcome)
        self.outcome.setVisible(bool(text))
        if steps is not None:  # no words did this: the last utterance's quote would say they had
            self.transcript.setText("")
            self.progress.clear()
            self.progress.addItems(list(steps))
            self.details.setVisible(bool(steps))
            if not steps:
                self.details.setChecked(False)

    def add_note(self, note: str) -> None:
        """A calm line under the outcome, which stays ("Not spoken: ..." under the answer)."""
        shown = self.outcome.text()
        self.outcome.setText(f"{shown}\n{note}" if shown else note)
        self.outcome.setVisible(True)

    def _on_details_toggled(self, shown: bool) -> None:
        self.progress.setVisible(shown)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
