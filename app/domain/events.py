"""What a pipeline run reports while it works, for the GUI's progress line and for tests.

One frozen dataclass per kind of event, handed to one plain callback: the pipeline stays free of
any GUI toolkit (a test does `events.append`, the GUI's bridge re-emits them as Qt signals), and
whoever reads an event gets typed fields instead of a dictionary to guess at.
A run always ends with exactly one `DoneEvent`, also when it failed (then an `ErrorEvent` comes first).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from app.domain.enums import UtteranceSource
from app.errors import ErrorCode as ErrorCode  # an event's code; named here too, beside the event
from app.errors import error_code as error_code


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class TranscriptEvent:
    """The text was saved (it is in the inbox until the run succeeds) and is being read."""

    text: str
    source: UtteranceSource
    utterance_id: int
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ThinkingEvent:
    """A request to the model started (or the offline rules run)."""

    turn: int
    interpreter: str
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ToolCallEvent:
    """A complete tool call from the model, about to run."""

    id: str
    name: str
    arguments: str  # JSON, as the model wrote it
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ToolResultEvent:
    """What a tool call did, as the model is told ("Error: ..." when not ok)."""

    id: str
    name: str
    content: str
    ok: bool
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class MessageEvent:
    """The model's words to the user: an answer, or a question when `question`."""

    text: str
    question: bool
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ErrorEvent:
    """The run failed; what was said waits in the inbox."""

    message: str  # one line fit for the user
    code: ErrorCode
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class DoneEvent:
    """The run is over, whether it succeeded or not."""

    utterance_id: int
    summary: str  # "2 created, 1 completed", or why the run failed
    undo_id: int | None
    applied: int
    failures: int
    timestamp: datetime = field(default_factory=_now, kw_only=True)


PipelineEvent = (
    TranscriptEvent | ThinkingEvent | ToolCallEvent | ToolResultEvent | MessageEvent | ErrorEvent | DoneEvent
)
EventCallback = Callable[[PipelineEvent], None]


def ignore_events(_event: PipelineEvent) -> None:
    """The callback for callers that do not watch progress (the plain CLI)."""
