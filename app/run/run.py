"""The run: one object that carries what was said from the key press (or Enter, `murmur add`, an assistant's
call) to the reply, and reports each step as an event under its ID.

It holds the run's input (typed words, or a waiting utterance run again), each stage's output (the transcript,
the pipeline's result, the reply to say), the time each stage took, the error that ended it and every event it
reported. Whoever holds the run hands this object on (the microphone's thread, the worker, the voice); nobody
builds it again from its ID. What drives the stages is app/run/conductor.py; events only report.
"""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Protocol

from app.changes.interpretation import RunOptions
from app.domain.enums import UtteranceSource
from app.domain.events import (
    ErrorCode,
    ErrorEvent,
    EventCallback,
    PipelineEvent,
    RunEnd,
    RunStart,
    Stage,
    TranscriptEvent,
    ignore_events,
    new_run_id,
)
from app.errors import MurmurError, Remedy, error_code
from app.service import PipelineResult
from app.speech_out.reply import ReplyMode, SpokenReply

# The stages a run is driven through, in their order. Interpreting and applying are one step of the service (one
# transaction), so a run is driven through INTERPRET and reports APPLY's events from inside it; the service's side
# steps (SUM_UP, JUDGE, FALLBACK) are timed by the run from inside INTERPRET too (RunOptions.timed).
ORDER = (Stage.LISTEN, Stage.TRANSCRIBE, Stage.INTERPRET, Stage.REPLY)
EVERY_STAGE = list(Stage)  # in the order a run passes them


class HeardWords(Protocol):
    """What the transcribe stage makes of a recording (a speech_in Transcript; the window's tests give less)."""

    @property
    def text(self) -> str: ...
    @property
    def audio(self) -> bytes: ...
    @property
    def faint(self) -> bool: ...  # read past the voice detector (a whisper): the words wait for the user's yes


@dataclass(frozen=True)
class Again:
    """A waiting utterance run again: as it was, with the user's corrected words, with the reading the user
    chose (in the run's options), or heard again from its recording (`rehear`, by `engine`; "": the best)."""

    utterance_id: int
    text: str | None = None
    rehear: bool = False
    engine: str = ""


@dataclass(frozen=True)
class RunFailure:
    """What ended a run before its last stage, as the user reads it."""

    message: str
    code: ErrorCode
    stage: Stage
    remedy: Remedy | None = None
    utterance_id: int | None = None  # what was said waits in the inbox under it (None: nothing was saved)
    kind: str = ""  # the error's class (LlmError, ModelFault): what went wrong, without its words


@dataclass(eq=False)
class Run:
    """One run; `first` and `last`: the stages it goes through (typed words start at INTERPRET, `murmur
    transcribe` stops after TRANSCRIBE)."""

    source: UtteranceSource
    on_event: EventCallback = ignore_events
    first: Stage = Stage.INTERPRET
    last: Stage = Stage.REPLY
    text: str = ""  # the words: typed, or heard once TRANSCRIBE is done
    audio: bytes = field(default=b"", repr=False)  # what the microphone heard, kept with the utterance
    again: Again | None = None
    options: RunOptions = field(default_factory=RunOptions)
    reply_mode: ReplyMode = ReplyMode.OFF  # what of the outcome is said aloud
    id: str = field(default_factory=new_run_id)
    # What the stages made
    transcript: HeardWords | None = None
    result: PipelineResult | None = None
    reply: SpokenReply | None = None
    failure: RunFailure | None = None
    utterance_id: int | None = None  # what was said, once saved (it waits in the inbox while the run fails)
    stage: Stage = field(init=False)  # where its latest event belongs
    driven: Stage | None = None  # the stage being driven (it may not have reported anything yet)
    seconds: dict[Stage, float] = field(default_factory=dict)  # how long each stage took
    events: list[PipelineEvent] = field(default_factory=list, repr=False)
    started: bool = False
    ended: bool = False
    made_at: float = field(default_factory=time.monotonic)  # the key press, for a run that listens
    keep: Callable[["Run"], None] | None = field(default=None, repr=False)  # where it is kept once it ends
    _inner: list[float] = field(default_factory=list, init=False)  # per stage timed now: inner stages' time

    def __post_init__(self) -> None:
        self.stage = self.first

    # -- reporting ---------------------------------------------------------------------------------

    def report(self, event: PipelineEvent) -> None:
        """Tell `on_event` (and keep) one step of this run, stamped with its ID."""
        stamped = replace(event, run_id=self.id)
        self.stage = stamped.stage
        if isinstance(stamped, TranscriptEvent):
            self.utterance_id = stamped.utterance_id
        self.events.append(stamped)
        self.on_event(stamped)

    def begin(self, source: UtteranceSource | None = None) -> None:
        """Report the run's start, once; `source`: what it turned out to be (a retry learns it from the inbox)."""
        if self.started:
            return
        self.started = True
        self.source = source or self.source
        self.report(RunStart(self.source, stage=self.first))

    def fail(
        self, message: str, code: ErrorCode, stage: Stage | None = None, remedy: Remedy | None = None, kind: str = ""
    ) -> None:
        """The run failed in `stage` (by default the one it is in)."""
        self.failure = RunFailure(message, code, stage or self._where(), remedy, self._saved_as(), kind)
        self.report(ErrorEvent(message, code, remedy=remedy, stage=self.failure.stage))

    def fail_with(self, error: BaseException) -> None:
        """The run failed with `error`; a MurmurError carries the utterance that waits in the inbox."""
        if isinstance(error, MurmurError):
            self.utterance_id = error.utterance_id or self.utterance_id
            self.fail(str(error), error_code(error), remedy=error.remedy, kind=type(error).__name__)
        elif isinstance(error, Exception):  # Ctrl+C ends the run without an error of its own
            self.fail(f"internal error: {error!r}", error_code(error), kind=type(error).__name__)

    def end(self, summary: str = "") -> None:
        """Report the run's end, once: what it changed, or `summary` (why it ended with nothing done)."""
        if self.ended:
            return
        self.ended = True
        result = self.result
        if result is not None and self.failure is None:
            counts = len(result.applied), len(result.failures)
            self.report(
                RunEnd(result.utterance_id, result.summary, result.undo_id, *counts, result.touched, stage=self.stage)
            )
        else:
            said = self.failure.message if self.failure else summary
            self.report(RunEnd(self._saved_as(), said, None, 0, 0, stage=self.stage))
        if self.keep is not None:  # wherever it ended: the driver, or the microphone when nothing was heard
            self.keep(self)

    def _where(self) -> Stage:
        """The stage the run is in: the one being driven, or the later one its events have reached."""
        if self.driven is None:
            return self.stage
        return max(self.stage, self.driven, key=EVERY_STAGE.index)

    def _saved_as(self) -> int | None:
        return self.result.utterance_id if self.result is not None else self.utterance_id

    # -- the stages ----------------------------------------------------------------------------------

    def stages(self, until: Stage | None = None) -> list[Stage]:
        """The stages still to go, from where the run is to `until` (by default its last)."""
        last = ORDER.index(until or self.last)
        done = [stage for stage in ORDER if stage in self.seconds]
        begin = ORDER.index(done[-1]) + 1 if done else ORDER.index(self.first)
        return list(ORDER[begin : last + 1])

    @contextmanager
    def timed(self, stage: Stage) -> Iterator[None]:
        """Time one stage; the run is in it meanwhile. Listening begins with the run (the key press), whoever drives
        it on once the key is let go. A stage timed inside another (the service summing up, judging or falling back
        while it interprets) counts for itself alone: the outer one's time leaves it out."""
        outer, self.driven = self.driven, stage
        began = self.made_at if stage is Stage.LISTEN else time.monotonic()
        self._inner.append(0.0)
        try:
            yield
        finally:
            took = time.monotonic() - began
            own = took - self._inner.pop()
            self.seconds[stage] = round(self.seconds.get(stage, 0.0) + own, 4)
            if self._inner:  # back in the outer stage; the outermost stays named, for a failure reported after it
                self._inner[-1] += took
                self.driven = outer
