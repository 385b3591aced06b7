"""The live part of the window: ready state, level meter, the partial transcript as it grows, the
final transcript, then the agent's progress (thinking, each tool call) and its final words."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QProgressBar, QVBoxLayout, QWidget

from app.domain.events import (
    DoneEvent,
    ErrorEvent,
    MessageEvent,
    PipelineEvent,
    ThinkingEvent,
    ToolCallEvent,
    ToolResultEvent,
    TranscriptEvent,
)
from app.ui.plain_text import plain_label

SILENCE_DBFS = -60


def describe_event(event: PipelineEvent) -> str | None:
    """One line for the progress list, or None for events shown elsewhere."""
    match event:
        case ThinkingEvent():
            return f"Thinking… ({event.interpreter}, turn {event.turn})"
        case ToolCallEvent():
            return f"→ {event.name}({_short(event.arguments)})"
        case ToolResultEvent():
            return f"  {'✓' if event.ok else '✗'} {_short(event.content)}"
        case MessageEvent():
            return ("Question: " if event.question else "") + event.text
        case ErrorEvent():
            return f"Error: {event.message}"
        case DoneEvent():
            return event.summary
        case TranscriptEvent():
            return None  # shown above the list, as what was said


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ActivityPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status = plain_label(QLabel())  # may carry a model's or a server's message
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
        self.progress = QListWidget()
        self.progress.setObjectName("progress")
        self.progress.setMaximumHeight(96)
        self.progress.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addWidget(self.level)
        layout.addWidget(self.transcript)
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

    def show_partial(self, text: str) -> None:
        self.transcript.setText(f"<i>{_escape(text)}…</i>")

    def show_event(self, event: PipelineEvent) -> None:
        if isinstance(event, TranscriptEvent):
            self.transcript.setText(f"“{_escape(event.text)}”")
            self.progress.clear()
            self.progress.setVisible(True)
            return
        line = describe_event(event)
        if line:
            self.progress.addItem(line)
            self.progress.scrollToBottom()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
