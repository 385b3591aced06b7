"""What the worker thread runs: one small job class per kind of service call, each returning a
report the widgets can show as it is (a BatchReport, a Notice or the Views).

Plain Python, no Qt: a job holds the service and returns a frozen dataclass.
"""

import functools
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from app.api.edits import ExecutionResult, HistoryBatch, UndoResult
from app.api.memories import MemoryChange
from app.api.rows import Entry, Memory, Utterance
from app.api.runs import Run, SpokenReply, Stages, drive
from app.api.service import MurmurService, PipelineResult, use_settings
from app.api.settings import Settings
from app.api.terminal import terminal_safe
from app.domain.enums import Format, Status
from app.domain.usage import UsageSummary
from app.errors import ConfirmationNeeded, ImportWaitsForYes, MurmurError, Remedy
from app.presentation.edits import sentence
from app.presentation.failures import refused_title
from app.presentation.history import dismissed_title
from app.presentation.imports import first_problem, import_counts, import_problems, import_question, import_title
from app.presentation.memories import memory_detail, memory_title
from app.presentation.run_report import RunReport, Similar, run_report
from app.presentation.undo import changed_entries, left_as_it_is, taken_back, undo_text
from app.ui.entry_sections import EntryRow, Section, grouped
from app.ui.inbox_sounds import InboxSounds, inbox_sounds
from app.ui.remedies import settings_page, window_line, window_text


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
    run: Run | None = None  # the utterance's run, which saying the reply ends
    touched: tuple[str, ...] | None = None  # the entries it changed, those made first; None: not known
    created: tuple[str, ...] = ()  # the entries it made (the list selects the first)
    settings_page: str | None = None  # the run failed for a setting on this page of Settings: the toast opens it
    skipped_lines: tuple[int, ...] = ()  # an import's lines that brought nothing in
    interpreter: str = ""  # what read the utterance ("offline": the built-in rules)
    fallback_reason: str | None = None  # the model failed for this reason, and the built-in rules filed it
    fallback_remedy: Remedy | None = None
    choices: tuple[str, ...] = ()  # unsure what was meant, nothing was done: the readings offered for utterance_id
    by_hand: bool = False  # a change made in the window, not a run: a failure is that change's, and nothing waits

    @property
    def failed(self) -> bool:
        """Nothing was applied and there was no answer either: show an error with Retry."""
        return self.error is not None or (not self.applied and not self.message)


def batch_report(
    service: MurmurService, result: PipelineResult | ExecutionResult, by_hand: bool = False
) -> BatchReport:
    """The run's report (app/presentation/run_report.py) as the toast and the activity line show it."""
    clock = service.clock()
    report = run_report(result, clock.now, clock.tz)
    refused = by_hand and report.failures and not report.applied  # a menu's change: its own failure, not a count
    return BatchReport(
        summary=refused_title(report.failures) if refused else report.title,
        applied=report.words,
        failures=report.failure_words,
        undo_id=report.undo_id,
        utterance_id=report.utterance_id,
        message=_words(report) if report.utterance_id is not None else None,
        question=report.question,
        similar=_similar(service, report),
        touched=report.touched,
        created=report.created,
        interpreter=report.interpreter,
        fallback_reason=report.fallback_reason,
        fallback_remedy=report.fallback_remedy,
        choices=report.choices,
        by_hand=by_hand,
    )


def _similar(service: MurmurService, report: RunReport) -> Similar | None:
    """The first entry made that looks like an open one (the rules named it), if that one is still open."""
    if not report.similar:
        return None
    found = report.similar[0]
    into = service.open_entry(found.into_id)
    return replace(found, into_summary=terminal_safe(into.summary)) if into else None


def _words(report: RunReport) -> str | None:
    """What the toast says beside the changes: the model's words, or why the built-in rules stood in."""
    if not report.fallback_note:
        return report.message
    note = window_text(report.fallback_note, report.fallback_remedy)
    return f"{note} {report.message}" if report.message else note


# The jobs compare by identity (eq=False): two alike are still two jobs to run.


@dataclass(frozen=True, eq=False)
class UtteranceJob:
    """Drive `run` on from reading what was said (typed, heard, or a waiting utterance run again) to its reply;
    a failed run is a report, never an exception."""

    service: MurmurService
    driven: Run  # the run this job drives on

    def heard_again(self) -> int | None:
        """The waiting utterance heard again from its recording, if that is what this job does."""
        again = self.driven.again
        return again.utterance_id if again is not None and again.rehear else None

    def run(self) -> BatchReport:
        try:
            drive(self.driven, Stages(self.service))
        except MurmurError as error:  # error.utterance_id: the one waiting in the inbox, if it was saved
            confirm = isinstance(error, ConfirmationNeeded)
            line = str(error) if confirm else window_line(error)  # a yes is the toast's own button
            page = settings_page(error.remedy)
            return BatchReport(
                line, [], [], None, utterance_id=error.utterance_id, error=line, confirm=confirm, settings_page=page
            )
        run = self.driven
        assert run.result is not None, "a run that raised nothing has its result"
        return replace(batch_report(self.service, run.result), spoken=run.reply, run=run)


@dataclass(frozen=True, eq=False)
class EditJob:
    """A change by hand from the window (one of the service's complete, archive, snooze, edit): undoable."""

    service: MurmurService
    change: Callable[[MurmurService], ExecutionResult]

    def run(self) -> BatchReport:
        return batch_report(self.service, self.change(self.service), by_hand=True)


def memory_report(change: MemoryChange) -> BatchReport:
    """A change to a memory as the toast shows an edit: what happened, the memory's line, Undo."""
    return BatchReport(
        summary=memory_title(change),
        applied=[memory_detail(change)],
        failures=[],
        undo_id=change.batch_id,
        touched=(),  # a memory, no entry
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
            summary=said,
            applied=[f"{said}: kept, out of the inbox"],
            failures=[],
            undo_id=dismissal.batch_id,
            touched=(),  # what was said, no entry
        )


@dataclass(frozen=True)
class Notice:
    """One line for the toast: what an undo, an export or a backup did."""

    text: str  # "Undone: removed “Call the dentist”", "Exported to list.ics"
    touched: tuple[str, ...] | None = None  # the entries it changed (deleted and restored ones too); None: not known
    details: tuple[str, ...] = ()  # one line per change, for Details
    back: tuple[str, ...] = ()  # the entries an undo brought back or put as they were: the list selects one
    gone: tuple[str, ...] = ()  # the entries an undo removed: the list selects the one beside them


@dataclass(frozen=True, eq=False)
class UndoJob:
    """The latest batch, a chosen batch or one action of it (one of the service's undo methods)."""

    service: MurmurService
    undo: Callable[[MurmurService], UndoResult]

    def run(self) -> Notice:
        result = self.undo(self.service)
        entries = tuple(changed_entries(result))
        names = self.service.names_now(entries)
        details = [sentence(taken_back(record, names)) for record in result.reverted]
        details += [left_as_it_is(reverted, names) for reverted in result.conflicts]
        return Notice(
            undo_text(result, names),
            touched=entries,
            details=tuple(details),
            back=tuple(entry for entry in entries if entry in names),
            gone=tuple(entry for entry in entries if entry not in names),
        )


@dataclass(frozen=True)
class EntrySnapshot:
    entries: list[Entry]  # every status; the view filters
    short_ids: dict[str, str]
    now: datetime
    tz: ZoneInfo
    made: list[tuple[Section, list[EntryRow]]] | None = field(default=None, repr=False)  # grouped already

    @functools.cached_property
    def groups(self) -> list[tuple[Section, list[EntryRow]]]:
        """The entries as the list groups them (worked out once, by whoever asks first, unless `made` already)."""
        return self.made if self.made is not None else grouped(self.entries, self.short_ids, self.now, self.tz)


def load_entries(
    service: MurmurService, shown: EntrySnapshot | None = None, touched: Collection[str] | None = None
) -> EntrySnapshot:
    """Read every entry, or, knowing the entries this app's change `touched`, only those, merged into the entries
    `shown`; grouped here, on the worker thread, not on the GUI's."""
    merged = None if shown is None or touched is None else _merged(service, shown, set(touched))
    if merged is not None:
        return merged
    clock = service.clock()
    snapshot = EntrySnapshot(service.entries(list(Status)), service.short_ids(), clock.now, clock.tz)
    _ = snapshot.groups
    return snapshot


def _merged(service: MurmurService, shown: EntrySnapshot, touched: set[str]) -> EntrySnapshot | None:
    """The entries shown with the touched ones read again (gone when deleted), and only their rows made again (and
    those whose short ID changed), at the clock of the rows shown: the minute's full refresh moves it. None when
    someone else changed entries too (another process, between the change and now), as the count and revisions tell."""
    entries = [entry for entry in shown.entries if entry.id not in touched] + service.entries_with_ids(touched)
    if (len(entries), sum(entry.revision for entry in entries)) != service.entry_tally():
        return None
    short_ids = service.short_ids_after(shown.short_ids, [entry.id for entry in entries])
    stale = touched | {entry_id for entry_id, short in short_ids.items() if shown.short_ids.get(entry_id) != short}
    sections = {section: [row for row in rows if row.id not in stale] for section, rows in shown.groups}
    for section, rows in grouped([entry for entry in entries if entry.id in stale], short_ids, shown.now, shown.tz):
        sections.setdefault(section, []).extend(rows)
    groups = [(section, sorted(rows, key=lambda r: r.order)) for section, rows in sorted(sections.items()) if rows]
    return EntrySnapshot(entries, short_ids, shown.now, shown.tz, made=groups)


class ShownEntries:
    """The entries last read for the window, and the entries changed since by this app's jobs (None: unknown, read
    them all). Kept on the worker's side, where the refreshes run one at a time; `changed` is called from the GUI."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshot: EntrySnapshot | None = None
        self._touched: set[str] | None = None

    def changed(self, touched: Collection[str] | None) -> None:
        with self._lock:
            self._touched = None if touched is None or self._touched is None else self._touched | set(touched)

    def read(self, service: MurmurService) -> EntrySnapshot:
        with self._lock:
            touched, self._touched = self._touched, set()
        self._snapshot = load_entries(service, self._snapshot, touched)
        return self._snapshot


@dataclass(frozen=True)
class Views:
    """Everything the window lists, read in one go after each change."""

    entries: EntrySnapshot
    inbox: list[Utterance]
    history: list[HistoryBatch]
    usage: UsageSummary
    memories: list[tuple[str, Memory]]  # (short ID, memory), most recently used first
    sounds: InboxSounds = InboxSounds()  # the inbox's recordings
    readings: dict[int, tuple[str, ...]] = field(default_factory=dict)  # those offered back, by waiting utterance


@dataclass(frozen=True, eq=False)
class RefreshJob:
    """Read everything the window lists: of the entries, those changed since the last read when that is known."""

    service: MurmurService
    monthly_budget: float
    shown: ShownEntries
    history_limit: int = 100

    def run(self) -> Views:
        self.service.changed_since_last_look()  # what this reads shows every commit so far: no second refresh
        entries = self.shown.read(self.service)
        usage = self.service.usage(self.monthly_budget)
        history = self.service.history(self.history_limit)
        inbox = self.service.inbox()
        sounds = inbox_sounds(self.service, inbox)
        return Views(entries, inbox, history, usage, self.service.memories(), sounds, offered_readings(inbox))


@dataclass(frozen=True, eq=False)
class MinuteJob(RefreshJob):
    """The refresh each minute; a talk silent past the session gap is ended and summed up first, here between two
    runs, so that the next words said need not wait for the model to sum it up."""

    def run(self) -> Views:
        self.service.end_quiet_session()
        return super().run()


def offered_readings(inbox: Sequence[Utterance]) -> dict[int, tuple[str, ...]]:
    """The readings offered back for each waiting utterance that has some."""
    offered = {u.id: tuple(MurmurService.choices_of(u)) for u in inbox if u.id is not None}
    return {utterance_id: labels for utterance_id, labels in offered.items() if labels}


@dataclass(frozen=True, eq=False, kw_only=True)
class SettingsJob(RefreshJob):
    """New settings for what reads what is said (provider, model, privacy, language), taken on the worker between
    two runs, never within one; then, as a refresh, everything the window lists (the budget may be another)."""

    settings: Settings

    def run(self) -> Views:
        use_settings(self.service, self.settings)
        return super().run()


@dataclass(frozen=True, eq=False)
class ExportJob:
    """File → Export: the whole list, in the format the file's type names."""

    service: MurmurService
    path: Path
    fmt: Format

    def run(self) -> Notice:
        self.service.export_file(self.path, self.fmt, force=True)  # the save dialog asked before replacing a file
        return Notice(f"Exported to {self.path.name}")


@dataclass(frozen=True)
class ImportWaits:
    """An import that added nothing, as it would add more entries at once than Murmur adds unasked: the window
    asks, and a yes imports the file again, confirmed."""

    path: Path
    title: str
    question: str


@dataclass(frozen=True, eq=False)
class ImportJob:
    """File → Import: one batch, so the toast's Undo takes it all back; what could not be read is listed."""

    service: MurmurService
    path: Path
    confirmed: bool = False  # the user said yes to more entries at once than are let through unasked

    def run(self) -> BatchReport | ImportWaits:
        try:
            outcome = self.service.import_file(self.path, confirmed=self.confirmed)
        except ImportWaitsForYes as waiting:
            return ImportWaits(self.path, *import_question(self.path.name, waiting.added))
        return BatchReport(
            summary=import_title(outcome, self.path.name),
            applied=[import_counts(outcome)],  # the details: the counts, then what could not be read
            failures=import_problems(outcome),
            undo_id=outcome.undo_id,
            message=first_problem(outcome),
            skipped_lines=tuple(outcome.skipped_lines),
        )


JobResult = BatchReport | ImportWaits | Notice | Views  # what the jobs above return
