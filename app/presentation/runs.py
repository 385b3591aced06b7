"""The kept runs in words, alike for `murmur runs`, the window's Recent runs and `murmur doctor`'s one line: when each
began, its source, the time of each stage (a slow one marked), how it ended and what read it; a run's events with
their moments from its start."""

import re
import statistics
from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from app.domain.events import (
    AppliedEvent,
    ErrorEvent,
    FallingBack,
    FinalTranscript,
    ListeningStarted,
    ListeningStopped,
    MessageEvent,
    PartialTranscript,
    ReplyFinished,
    ReplyInterrupted,
    ReplyStarted,
    RunEnd,
    RunStart,
    Stage,
    SummingUp,
    ThinkingEvent,
    ToolCallEvent,
    ToolResultEvent,
    TranscriptEvent,
)
from app.presentation.times import moment_words
from app.store.kept_runs import Ending, KeptEvent, KeptRun

STAGES = ("listen", "transcribe", "interpret", "reply")  # in the order a run passes them
SLOW_MS = 1000  # a stage this long kept the user waiting (listening is the user's own time, never slow)
SHORT_ID = 8  # the characters of a run's ID shown: enough to tell the kept runs apart, and to name one
NO_RUNS = "No run is kept yet. One is kept each time something said or typed has been read; the last 50 stay."
RUNS_TITLE = "Recent runs"
HEADERS = ("Run", "When", "Source")  # then a column per stage (its name, in ms), then ENDED_HEADERS
ENDED_HEADERS = ("Ended", "Interpreter")
TIMELINE_HEADERS = ("At", "Stage", "Event")
SLOW_NOTE = f"Slow: {SLOW_MS / 1000:g} s or more"
RUNS_NOTE = f"Newest first; a stage of {SLOW_MS / 1000:g} s or more is slow, in bold. Select a run for its events."

_ENDINGS = {
    Ending.ASKED: "asked",
    Ending.ANSWERED: "answered",
    Ending.NOTHING: "nothing changed",
    Ending.STOPPED: "stopped",
}
_EVENTS = {
    RunStart.__name__: "run began",
    ListeningStarted.__name__: "listening",
    ListeningStopped.__name__: "listening stopped",
    PartialTranscript.__name__: "live words",
    FinalTranscript.__name__: "final words",
    TranscriptEvent.__name__: "words saved",
    SummingUp.__name__: "earlier talks summed up",
    ThinkingEvent.__name__: "reading",
    ToolCallEvent.__name__: "tool call",
    ToolResultEvent.__name__: "tool result",
    AppliedEvent.__name__: "changes made",
    FallingBack.__name__: "the rules read it instead",
    MessageEvent.__name__: "model's words",
    ErrorEvent.__name__: "error",
    RunEnd.__name__: "run ended",
    ReplyStarted.__name__: "reply said",
    ReplyFinished.__name__: "reply finished",
    ReplyInterrupted.__name__: "reply cut off",
}


def stage_columns(runs: Sequence[KeptRun]) -> list[str]:
    """The stages to show a column for, in the order a run passes them: the usual four, and the side steps (summing
    up, judging, falling back) and any others a run timed."""
    timed = {stage for run in runs for stage in run.ms}
    known = [stage.value for stage in Stage if stage.value in STAGES or stage.value in timed]
    return [*known, *sorted(timed - set(known))]


def is_slow(stage: str, ms: int) -> bool:
    return stage != "listen" and ms >= SLOW_MS


def ms_figure(ms: int) -> str:
    """'2,340': a time in a column headed in ms."""
    return f"{ms:,}"


def ms_words(ms: int) -> str:
    """'85 ms', '2,340 ms'."""
    return f"{ms_figure(ms)} ms"


def stage_heading(stage: str) -> str:
    """A stage's column: 'Interpret (ms)'."""
    return f"{stage_name(stage).capitalize()} (ms)"


def stage_name(stage: str) -> str:
    """'sum up' for sum_up."""
    return stage.replace("_", " ")


def short_id(run: KeptRun) -> str:
    return run.id[:SHORT_ID]


def began_words(run: KeptRun, now: datetime, tz: ZoneInfo) -> str:
    """'Today 14:03', 'Thu 3 Dec 09:10', in the user's zone; '?' for a run that reported nothing."""
    return moment_words(run.began, now, tz) if run.began else "?"


def ended_words(run: KeptRun) -> str:
    """'2 changed', 'asked', 'failed: llm (LlmError)': how it ended, the error by its code and its kind."""
    if run.ending is Ending.FAILED:
        return f"failed: {run.failed or '?'}" + (f" ({run.error})" if run.error else "")
    if run.ending is Ending.CHANGED:
        return f"{run.applied} changed"
    return _ENDINGS[run.ending]


def outcome(run: KeptRun) -> str:
    """How it ended and what read it: '1 changed (offline)'."""
    return ended_words(run) + (f" ({run.interpreter})" if run.interpreter else "")


def stage_times(run: KeptRun) -> str:
    """'interpret 2,340 ms (slow), reply 3 ms': each stage timed, in the order it ran."""
    times = [
        f"{stage_name(stage)} {ms_words(ms)}" + (" (slow)" if is_slow(stage, ms) else "")
        for stage, ms in run.ms.items()
    ]
    return ", ".join(times) or "no stage timed"


def run_lines(runs: Sequence[KeptRun], now: datetime, tz: ZoneInfo) -> list[str]:
    """The CLI's lines, one a run, the columns aligned: '3fa1b2c4  Today 14:03  typed  interpret 85 ms, reply 3 ms
    1 changed (offline)'."""
    began = [began_words(run, now, tz) for run in runs]
    when_width = max(map(len, began), default=0)
    source_width = max((len(run.source) for run in runs), default=0)
    return [
        f"{short_id(run)}  {when:<{when_width}}  {run.source:<{source_width}}  {stage_times(run)}  {outcome(run)}"
        for run, when in zip(runs, began, strict=True)
    ]


def run_heading(run: KeptRun, now: datetime, tz: ZoneInfo) -> str:
    """Over one run's events: 'Run 3fa1b2c4e5f6, Today 14:03, typed: 1 changed (offline)'."""
    return f"Run {run.id}, {began_words(run, now, tz)}, {run.source}: {outcome(run)}"


def event_at(event: KeptEvent) -> str:
    """When an event came, from the run's start: '+85 ms'."""
    return f"+{ms_words(event.ms)}"


def event_words(event: KeptEvent) -> str:
    """'run began', 'tool call'; a kind not named here is its class's words ('SomethingNew': 'something new')."""
    return _EVENTS.get(event.kind) or " ".join(re.findall(r"[A-Z][a-z]*", event.kind.removesuffix("Event"))).lower()


def timeline_lines(run: KeptRun) -> list[str]:
    """The CLI's lines of one run's events: '   +85 ms  interpret   tool call'."""
    width = max((len(event_at(event)) for event in run.events), default=0)
    return [f"{event_at(event):>{width}}  {event.stage:<10}  {event_words(event)}" for event in run.events]


def runs_summary(runs: Sequence[KeptRun]) -> str:
    """`murmur doctor`'s line for the kept runs, oldest first: '12 kept, 1 failed (llm); median transcribe 110 ms,
    interpret 85 ms; newest 2026-11-29T04:40:00+00:00, typed, 2 changed (offline)'."""
    failed = [run.failed or "?" for run in runs if run.ending is Ending.FAILED]
    why = f" ({', '.join(sorted(set(failed)))})" if failed else ""
    times = []
    for stage in STAGES[1:]:  # how long the key was held is the user's, not Murmur's
        spent = [run.ms[stage] for run in runs if stage in run.ms]
        if spent:
            times.append(f"{stage} {statistics.median(spent):.0f} ms")
    newest = runs[-1]
    began = newest.began.isoformat(timespec="seconds") if newest.began else "?"
    parts = [f"{len(runs)} kept, {len(failed)} failed{why}"]
    if times:
        parts.append("median " + ", ".join(times))
    parts.append(f"newest {began}, {newest.source}, {outcome(newest)}")
    return "; ".join(parts)
