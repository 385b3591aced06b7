"""What a pipeline run reports while it works, for the GUI's progress line and for tests.

One frozen dataclass per kind of event, handed to one plain callback: the pipeline stays free of
any GUI toolkit (a test does `events.append`, the GUI's bridge re-emits them as Qt signals), and
whoever reads an event gets typed fields instead of a dictionary to guess at.
A run always ends with exactly one `DoneEvent`, also when it failed (then an `ErrorEvent` comes first).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from app.domain.enums import UtteranceSource
from app.errors import BudgetExceededError, LlmError, MurmurError, SecretStoreError, SpeechError, StoreError


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


class ErrorCode(StrEnum):
    """Why a run failed, for a front end that reacts to the kind of failure rather than to its words."""

    USAGE = "usage"  # the input or the request cannot be carried out as asked
    STORE = "store"  # the database cannot be used
    LLM = "llm"  # the model server cannot be used (unreachable, refused the key, no key)
    BUDGET = "budget"  # the monthly budget is spent
    SPEECH = "speech"  # speech input failed
    INTERNAL = "internal"  # a bug


# Most specific first: a BudgetExceededError is also an LlmError.
_CODES: tuple[tuple[type[MurmurError], ErrorCode], ...] = (
    (BudgetExceededError, ErrorCode.BUDGET),
    (LlmError, ErrorCode.LLM),
    (SecretStoreError, ErrorCode.LLM),  # the model server's key cannot be read
    (StoreError, ErrorCode.STORE),
    (SpeechError, ErrorCode.SPEECH),
)


def error_code(error: BaseException) -> ErrorCode:
    """The code of `error`: from its MurmurError subclass; anything else is a bug."""
    if not isinstance(error, MurmurError):
        return ErrorCode.INTERNAL
    return next((code for kind, code in _CODES if isinstance(error, kind)), ErrorCode.USAGE)


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
