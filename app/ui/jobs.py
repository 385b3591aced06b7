"""What the worker thread runs: one small job class per kind of service call, each returning a
report the widgets can show as it is (a BatchReport, a Notice or the Views).

Plain Python, no Qt: a job holds the service and returns a frozen dataclass.
"""

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from app.agent.ledger import UsageSummary, usage_summary
from app.changes.executor import AppliedAction, ExecutionResult
from app.changes.interpretation import RunOptions
from app.changes.memories import MemoryChange
from app.changes.undo import HistoryBatch, UndoResult
from app.domain.actions import CreateAction
from app.domain.enums import Format, Status, UtteranceSource
from app.domain.events import EventCallback
from app.errors import ConfirmationNeeded, MurmurError
from app.presentation.applied import applied_title, applied_words
from app.presentation.failures import failure_words
from app.presentation.history import dismissed_title
from app.presentation.imports import skipped_lines
from app.presentation.memories import memory_detail, memory_title
from app.presentation.summaries import summarize
from app.presentation.undo import undo_text
from app.service import MurmurService, PipelineResult
from app.speech_out.reply import ReplyMode, SpokenReply, spoken_reply
from app.store.models import Entry, Memory, Utterance
from app.terminal import terminal_safe
from app.ui.entry_sections import EntryRow, Section, grouped


@dataclass(frozen=True)
class Similar:
    """A new entry and the open one it looks like, to merge with one click."""

    new_id: str
    into_id: str
    into_summary: str


@dataclass(frozen=True)
class BatchReport:
    """What one utterance or one manual edit did, in words."""

    summary: str  # "Created “Buy milk” · tomorrow 09:00 (1 couldn't be processed)"
    applied: list[str]  # one line in words per applied action, no IDs: "Created todo “Buy milk”, due today 17:00"
    failures: list[str]  # one line per action that could not be applied, with the reason: "Couldn't complete …"
    undo_id: int | None
    utterance_id: int | None = None  # set for utterances: what Retry runs again
    message: str | None = None  # the model's words (an answer or a clarifying question)
    question: bool = False
    error: str | None = None  # the whole run failed (server down, no model): it waits in the inbox
    confirm: bool = False  # it waits for the user's yes (many entries archived or completed at once)
    similar: Similar | None = None  # a new entry looks like one already listed: the toast offers to merge
    spoken: SpokenReply | None = None  # what to say aloud (speech.reply), worked out on the worker

    @property
    def failed(self) -> bool:
        """Nothing was applied and there was no answer either: show an error with Retry."""
        return self.error is not None or (not self.applied and not self.message)


def batch_report(service: MurmurService, result: PipelineResult | ExecutionResult) -> BatchReport:
    clock = service.clock()
    pipeline = result if isinstance(result, PipelineResult) else None
    if pipeline and pipeline.answered:
        summary = "Answer"
    elif result.applied:
        summary = applied_title(result.applied, result.failures, clock.now, clock.tz)
    else:
        remembered = pipeline.memory_changes if pipeline else []
        summary = summarize(result.applied, result.failures, remembered)  # "Nothing changed (1 failed)": details follow
    return BatchReport(
        summary=summary,
        applied=[applied_words(item, clock.now, clock.tz) for item in result.applied],
        failures=[failure_words(f) for f in result.failures],
        undo_id=result.undo_id,
        utterance_id=pipeline.utterance_id if pipeline else None,
        message=_words(pipeline) if pipeline else None,
        question=pipeline.question if pipeline else False,
        similar=_similar(service, result.applied),
    )


def _similar(service: MurmurService, applied: Sequence[AppliedAction]) -> Similar | None:
    """The first entry made that looks like an open one (the rules named it), if that one is still open."""
    for item in applied:
        if isinstance(item.action, CreateAction) and item.action.similar_to:
            into = service.open_entry(item.action.similar_to)
            return Similar(item.entry.id, into.id, terminal_safe(into.summary)) if into else None
    return None


def _words(result: PipelineResult) -> str | None:
    """What the toast says beside the changes: the model's words, or why the built-in rules stood in."""
    if not result.fallback_note:
        return result.message
    return f"{result.fallback_note} {result.message}" if result.message else result.fallback_note


# The jobs compare by identity (eq=False): two alike are still two jobs to run.


@dataclass(frozen=True, eq=False)
class UtteranceJob:
    """Submit `text`, or run saved utterance `retry_of` again (as `text`, when the user put its words right); a
    failed run is a report, never an exception."""

    service: MurmurService
    on_event: EventCallback
    text: str = ""
    source: UtteranceSource = UtteranceSource.TYPED
    retry_of: int | None = None
    confirmed: bool = False  # the user said yes to a run that waited for it
    reply: ReplyMode = ReplyMode.OFF  # what of the result is said aloud

    def run(self) -> BatchReport:
        try:
            if self.retry_of is None:
                result = self.service.submit(self.text, self.source, self.on_event)
            else:
                options, corrected = RunOptions(confirmed=self.confirmed), self.text or None
                result = self.service.retry(self.retry_of, self.on_event, options, text=corrected)
        except MurmurError as error:  # error.utterance_id: the one waiting in the inbox, if it was saved
            confirm = isinstance(error, ConfirmationNeeded)
            return BatchReport(
                str(error), [], [], None, utterance_id=error.utterance_id, error=str(error), confirm=confirm
            )
        spoken = spoken_reply(result, self.reply, self.service.clock())
        return replace(batch_report(self.service, result), spoken=spoken)


@dataclass(frozen=True, eq=False)
class EditJob:
    """A change by hand from the window (one of the service's complete, archive, snooze, edit): undoable."""

    service: MurmurService
    change: Callable[[MurmurService], ExecutionResult]

    def run(self) -> BatchReport:
        return batch_report(self.service, self.change(self.service))


def memory_report(change: MemoryChange) -> BatchReport:
    """A change to a memory as the toast shows an edit: what happened, the memory's line, Undo."""
    return BatchReport(
        summary=memory_title(change), applied=[memory_detail(change)], failures=[], undo_id=change.batch_id
    )


@dataclass(frozen=True, eq=False)
class MemoryJob:
    """A change to the user's memories from the Memory tab (the service's remember, forget_memory, edit_memory)."""

    service: MurmurService
    change: Callable[[MurmurService], MemoryChange]

    def run(self) -> BatchReport:
        return memory_report(self.change(self.service))


@dataclass(frozen=True, eq=False)
class DismissJob:
    """Take an utterance out of the inbox (kept in the store): the toast says so, with Undo."""

    service: MurmurService
    utterance_id: int

    def run(self) -> BatchReport:
        dismissal = self.service.dismiss(self.utterance_id)
        said = dismissed_title(dismissal.utterance.text)
        return BatchReport(
            summary=said, applied=[f"{said}: kept, out of the inbox"], failures=[], undo_id=dismissal.batch_id
        )


@dataclass(frozen=True)
class Notice:
    """One line for the toast: what an undo, an export or a backup did."""

    text: str  # "Undone: 2 reverted", "Exported 120 entries to list.ics"


@dataclass(frozen=True, eq=False)
class UndoJob:
    """The latest batch, a chosen batch or one action of it (one of the service's undo methods)."""

    service: MurmurService
    undo: Callable[[MurmurService], UndoResult]

    def run(self) -> Notice:
        return Notice(undo_text(self.undo(self.service)))


@dataclass(frozen=True)
class EntrySnapshot:
    entries: list[Entry]  # every status; the view filters
    short_ids: dict[str, str]
    now: datetime
    tz: ZoneInfo

    @functools.cached_property
    def groups(self) -> list[tuple[Section, list[EntryRow]]]:
        """The entries as the list groups them (worked out once, by whoever asks first)."""
        return grouped(self.entries, self.short_ids, self.now, self.tz)


def load_entries(service: MurmurService) -> EntrySnapshot:
    """Read every entry, and group them here, on the worker thread, not on the GUI's."""
    entries = service.entries(list(Status))
    clock = service.clock()
    snapshot = EntrySnapshot(entries, service.short_ids(), clock.now, clock.tz)
    _ = snapshot.groups
    return snapshot


@dataclass(frozen=True)
class Views:
    """Everything the window lists, read in one go after each change."""

    entries: EntrySnapshot
    inbox: list[Utterance]
    history: list[HistoryBatch]
    usage: UsageSummary
    memories: list[tuple[str, Memory]]  # (short ID, memory), most recently used first


@dataclass(frozen=True, eq=False)
class RefreshJob:
    """Read everything the window lists."""

    service: MurmurService
    monthly_budget: float
    history_limit: int = 100

    def run(self) -> Views:
        self.service.changed_since_last_look()  # what this reads shows every commit so far: no second refresh
        entries = load_entries(self.service)
        usage = usage_summary(self.service.store, entries.now, entries.tz, self.monthly_budget)
        history = self.service.history(self.history_limit)
        return Views(entries, self.service.inbox(), history, usage, self.service.memories())


@dataclass(frozen=True, eq=False)
class ExportJob:
    """File → Export: the whole list, in the format the file's type names."""

    service: MurmurService
    path: Path
    fmt: Format

    def run(self) -> Notice:
        self.service.export_file(self.path, self.fmt, force=True)  # the save dialog asked before replacing a file
        return Notice(f"Exported to {self.path.name}")


@dataclass(frozen=True, eq=False)
class ImportJob:
    """File → Import: one batch, so the toast's Undo takes it all back; what could not be read is listed."""

    service: MurmurService
    path: Path

    def run(self) -> BatchReport:
        outcome = self.service.import_file(self.path)
        noun = "entry" if outcome.added == 1 else "entries"
        counted = [f"{outcome.added} new"]
        if outcome.duplicates:
            counted.append(f"{outcome.duplicates} already on your list, skipped")
        if outcome.utterances or outcome.memories:
            counted.append(f"{outcome.utterances} things said and {outcome.memories} memories restored")
        problems = [terminal_safe(str(problem), multiline=False) for problem in outcome.problems]
        skipped = skipped_lines(outcome.skipped_lines)  # named in the title: the details may stay folded
        return BatchReport(
            summary=f"Imported {outcome.added} {noun} from {self.path.name}" + (f"; {skipped}" if skipped else ""),
            applied=["; ".join(counted)],  # the details: the counts, then what could not be read
            failures=problems,
            undo_id=outcome.undo_id,
        )


JobResult = BatchReport | Notice | Views  # what the jobs above return
