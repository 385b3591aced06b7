"""What a run reports while it works, from the key press to the spoken reply, for the GUI and for tests.

One frozen dataclass per kind of event, handed to one plain callback: the pipeline stays free of
any GUI toolkit (a test does `events.append`, the GUI's bridge re-emits them as one Qt signal), and
whoever reads an event gets typed fields instead of a dictionary to guess at.
A run is one utterance on its way: every event carries the run's ID (stamped by app.domain.run.Run) and the
stage it belongs to. A run opens with `RunStart` (the key press, typed Enter, `murmur add`) and closes with
exactly one `RunEnd`, also when it failed (then an `ErrorEvent` comes first). Speaking the reply comes after
the run's end, under the same ID: the outcome is settled by then, only its playing goes on.
"""

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from app.domain.enums import UtteranceSource
from app.errors import ErrorCode as ErrorCode  # an event's code; named here too, beside the event
from app.errors import Remedy
from app.errors import error_code as error_code


def _now() -> datetime:
    return datetime.now(UTC)


def new_run_id() -> str:
    """A short ID, unique enough to tell apart the runs of one day's log and of one window."""
    return uuid.uuid4().hex[:12]


class Stage(StrEnum):
    """Where in a run an event belongs."""

    LISTEN = "listen"  # the microphone is open
    TRANSCRIBE = "transcribe"  # speech becomes text
    SUM_UP = "sum_up"  # a new talk's first words: the model sums up the talks that ended, for it to recall
    INTERPRET = "interpret"  # the rules or the model read the text
    JUDGE = "judge"  # the model's reading is checked against the rules before it is kept
    APPLY = "apply"  # the changes are made
    FALLBACK = "fallback"  # the model failed: what it did is taken back and the rules read the text again
    REPLY = "reply"  # the answer, in words and aloud


# Every event carries, before its timestamp, the run's ID (set when a Run reports it) and its stage.


@dataclass(frozen=True)
class RunStart:
    """A run began: the talk key was pressed, or text was typed or given to `murmur add`."""

    source: UtteranceSource
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.INTERPRET, kw_only=True)  # typed text starts there; speech at LISTEN
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ListeningStarted:
    """The microphone records for the run: speak now."""

    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.LISTEN, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ListeningStopped:
    """The recording ended (the key let go, the pause after an answer); its text is being worked out."""

    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.LISTEN, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class PartialTranscript:
    """The growing transcript while recording."""

    text: str
    tentative: str = ""  # the end of `text` that may still change (the rest stays)
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.TRANSCRIBE, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class FinalTranscript:
    """The final transcript of the recording: what goes on to be saved and read."""

    text: str
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.TRANSCRIBE, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)
    audio: bytes = field(default=b"", kw_only=True, repr=False)  # what was heard, kept with the utterance


@dataclass(frozen=True)
class TranscriptEvent:
    """The text was saved (it is in the inbox until the run succeeds) and is being read."""

    text: str
    source: UtteranceSource
    utterance_id: int
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.INTERPRET, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class SummingUp:
    """Before the model reads a new talk's first words, it sums up `talks` that ended (they are recalled later)."""

    talks: int
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.SUM_UP, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class FallingBack:
    """The model failed (`reason`): what it changed is taken back and the offline rules read the words instead."""

    reason: str
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.FALLBACK, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ThinkingEvent:
    """A request to the model started (or the offline rules run)."""

    turn: int
    interpreter: str
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.INTERPRET, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ToolCallEvent:
    """A complete tool call from the model, about to run."""

    id: str
    name: str
    arguments: str  # JSON, as the model wrote it
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.APPLY, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ToolResultEvent:
    """What a tool call did, as the model is told ("Error: ..." when not ok)."""

    id: str
    name: str
    content: str
    ok: bool
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.APPLY, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class AppliedEvent:
    """The built-in rules' changes were made, all at once (a model's are its tool results, one call at a time)."""

    applied: int
    failures: int
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.APPLY, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class MessageEvent:
    """The model's words to the user: an answer, or a question when `question`."""

    text: str
    question: bool
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.REPLY, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ErrorEvent:
    """The run failed; what was said waits in the inbox."""

    message: str  # one line fit for the user
    code: ErrorCode
    remedy: Remedy | None = field(default=None, kw_only=True)  # what to do, for each front end to say its way
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(kw_only=True)  # where the run was when it failed
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class RunEnd:
    """The run is over, whether it succeeded or not."""

    utterance_id: int | None  # None: nothing was saved (nothing heard, the recording cancelled or failed)
    summary: str  # "2 created, 1 completed", or why the run failed
    undo_id: int | None
    applied: int
    failures: int
    touched: tuple[str, ...] = ()  # the entries the run changed, those it made first
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(kw_only=True)  # the stage the run ended in
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ReplyStarted:
    """The run's reply is being said aloud."""

    text: str
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.REPLY, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ReplyFinished:
    """The reply was heard to its end; `listen`: it asked something, so the microphone opens for the answer."""

    listen: bool
    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.REPLY, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


@dataclass(frozen=True)
class ReplyInterrupted:
    """The reply was cut off: the user talked over it, or a newer reply took its place."""

    run_id: str = field(default="", kw_only=True)
    stage: Stage = field(default=Stage.REPLY, kw_only=True)
    timestamp: datetime = field(default_factory=_now, kw_only=True)


PipelineEvent = (
    RunStart
    | ListeningStarted
    | ListeningStopped
    | PartialTranscript
    | FinalTranscript
    | TranscriptEvent
    | SummingUp
    | ThinkingEvent
    | ToolCallEvent
    | ToolResultEvent
    | AppliedEvent
    | FallingBack
    | MessageEvent
    | ErrorEvent
    | RunEnd
    | ReplyStarted
    | ReplyFinished
    | ReplyInterrupted
)
EventCallback = Callable[[PipelineEvent], None]


def ignore_events(_event: PipelineEvent) -> None:
    """The callback for callers that do not watch progress (the plain CLI)."""


# How a run times a step the service takes inside one of its stages (summing up, judging, falling back): the run's
# `timed`, or `untimed` for a caller that keeps no run.
StageTimer = Callable[[Stage], AbstractContextManager[None]]


def untimed(_stage: Stage) -> AbstractContextManager[None]:
    return nullcontext()
