"""What one run (or one change by hand) did, decided and worded once: the CLI prints it, `--json` renders it, the
window wraps it in its toast and an assistant gets it back. Whether it was an answer, its title, the note when the
built-in rules stood in for the model and the line that sums it up are decided here and nowhere else."""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol, TypeGuard
from zoneinfo import ZoneInfo

from app.changes.executor import ActionFailure, AppliedAction
from app.changes.memories import MemoryChange
from app.domain.actions import CreateAction
from app.errors import Remedy
from app.presentation.applied import applied_line, applied_title, applied_words
from app.presentation.failures import failure_line, failure_words
from app.presentation.memories import memory_line
from app.presentation.summaries import summarize

ANSWER = "Answer"


class Changed(Protocol):
    """What any change did (a run's result, an edit's)."""

    @property
    def applied(self) -> Sequence[AppliedAction]: ...
    @property
    def failures(self) -> Sequence[ActionFailure]: ...
    @property
    def undo_id(self) -> int | None: ...


class Read(Changed, Protocol):
    """What a run of words did besides its changes (the service's PipelineResult)."""

    @property
    def utterance_id(self) -> int: ...
    @property
    def interpreter(self) -> str: ...
    @property
    def message(self) -> str | None: ...
    @property
    def question(self) -> bool: ...
    @property
    def memory_changes(self) -> Sequence[MemoryChange]: ...
    @property
    def fallback_reason(self) -> str | None: ...
    @property
    def fallback_remedy(self) -> Remedy | None: ...
    @property
    def choices(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Similar:
    """A new entry and the open one the rules found it like (the CLI names it, the window's toast offers to merge)."""

    new_id: str
    new_short_id: str
    into_id: str
    into_summary: str = ""  # the open one's words, once the toast has looked it up (and found it still open)


@dataclass(frozen=True)
class RunReport:
    title: str  # the toast's: 'Created “Buy milk” · Tomorrow 09:00', "Answer", or the summary when nothing changed
    summary: str  # "2 created, 1 completed (1 couldn't be processed); 1 remembered"
    answered: bool  # the run's work was an answer in words: done, though nothing changed
    lines: list[str]  # one per change, with its short ID (the CLI's and an assistant's)
    words: list[str]  # one per change in words, no IDs (the window's details)
    failure_lines: list[str]  # one per action that could not be applied (the CLI's)
    failure_words: list[str]  # the same in the window's words
    memory_lines: list[str]
    undo_id: int | None
    applied: Sequence[AppliedAction] = ()
    failures: Sequence[ActionFailure] = ()
    memory_changes: Sequence[MemoryChange] = ()
    utterance_id: int | None = None  # a run's: what Retry runs again
    interpreter: str = ""  # what read it ("offline": the built-in rules)
    message: str | None = None  # the model's words: an answer, or its question
    question: bool = False
    fallback_note: str | None = None  # why the built-in rules stood in for the model, in one sentence
    fallback_reason: str | None = None
    fallback_remedy: Remedy | None = None  # what would let the model work again
    choices: tuple[str, ...] = ()  # unsure what was meant, nothing was done: the readings offered
    touched: tuple[str, ...] = ()  # the entries changed, each once, those made first
    created: tuple[str, ...] = ()
    similar: list[Similar] = field(default_factory=list)

    @property
    def changed_anything(self) -> bool:
        return bool(self.applied or self.memory_changes)


def run_report(result: Changed | Read, now: datetime, tz: ZoneInfo) -> RunReport:
    """`result` (a run's or a change by hand's) as every front end shows it, at `now` in zone `tz`."""
    read = result if _is_read(result) else None
    memory = list(read.memory_changes) if read is not None else []
    answered = read is not None and was_answer(read)
    summary = summarize(result.applied, result.failures, memory)
    if answered:
        title = ANSWER
    elif result.applied:
        title = applied_title(result.applied, result.failures, now, tz)
    else:
        title = summary  # "Nothing changed (1 failed)": the details follow
    made = [item for item in result.applied if isinstance(item.action, CreateAction)]
    base = RunReport(
        title=title,
        summary=summary,
        answered=answered,
        lines=[applied_line(item, now, tz) for item in result.applied],
        words=[applied_words(item, now, tz) for item in result.applied],
        failure_lines=[failure_line(f) for f in result.failures],
        failure_words=[failure_words(f) for f in result.failures],
        memory_lines=[memory_line(change) for change in memory],
        undo_id=result.undo_id,
        applied=result.applied,
        failures=result.failures,
        memory_changes=memory,
        touched=touched_entries(result.applied),
        created=tuple(item.entry.id for item in made),
        similar=[
            Similar(item.entry.id, item.short_id, item.action.similar_to)
            for item in made
            if isinstance(item.action, CreateAction) and item.action.similar_to
        ],
    )
    if read is None:
        return base
    note = f"The built-in rules filed this: {read.fallback_reason}" if read.fallback_reason else None
    return replace(
        base,
        utterance_id=read.utterance_id,
        interpreter=read.interpreter,
        message=read.message,
        question=read.question,
        fallback_note=note,
        fallback_reason=read.fallback_reason,
        fallback_remedy=read.fallback_remedy,
        choices=read.choices,
    )


def touched_entries(applied: Sequence[AppliedAction]) -> tuple[str, ...]:
    """The IDs of the entries `applied` changed, each once, those made first."""
    made = [item.entry.id for item in applied if isinstance(item.action, CreateAction)]
    return tuple(dict.fromkeys(made + [item.entry.id for item in applied]))


def was_answer(read: Read) -> bool:
    """The run's work was an answer in words ("what's due this week?"): done, though nothing changed."""
    changed = read.applied or read.memory_changes
    return bool(read.message) and not read.question and not changed and not read.failures


def _is_read(result: Changed | Read) -> TypeGuard[Read]:
    return hasattr(result, "utterance_id") and hasattr(result, "interpreter")
