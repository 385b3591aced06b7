"""What the worker thread runs: one small job class per kind of service call, each returning a
report the widgets can show as it is (a BatchReport, a Notice or the Views).

Plain Python, no Qt: a job holds the service and returns a frozen dataclass.
"""

import functools
import re
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from app.changes.executor import ActionFailure, AppliedAction, ExecutionResult
from app.changes.interpretation import RunOptions
from app.changes.memories import MemoryChange
from app.changes.undo import HistoryBatch, UndoResult
from app.domain.actions import CompleteAction, CreateAction, UpdateAction
from app.domain.checklist import find_item, load_items
from app.domain.enums import ActionKind, Format, Status, UndoSubject, UtteranceSource
from app.domain.events import EventCallback
from app.domain.recurrence import describe
from app.domain.run import Run
from app.domain.usage import UsageSummary
from app.errors import ConfirmationNeeded, MurmurError
from app.render import skipped_lines, when
from app.service import MurmurService, PipelineResult, touched_entries
from app.speech_out.reply import ReplyMode, SpokenReply, spoken_reply
from app.store.models import Entry, Memory, Utterance
from app.terminal import terminal_safe
from app.ui.entry_sections import EntryRow, Section, grouped
from app.ui.remedies import settings_page, window_line, window_text


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
    run_id: str = ""  # the utterance's run, which saying the reply ends
    touched: tuple[str, ...] | None = None  # the entries it changed, those made first; None: not known
    created: tuple[str, ...] = ()  # the entries it made (the list selects the first)
    settings_page: str | None = None  # the run failed for a setting on this page of Settings: the toast opens it

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
        summary = result.summary  # "Nothing changed (1 failed)": the failures say the rest
    return BatchReport(
        summary=summary,
        applied=[applied_words(item, clock.now, clock.tz) for item in result.applied],
        failures=[failure_words(f) for f in result.failures],
        undo_id=result.undo_id,
        utterance_id=pipeline.utterance_id if pipeline else None,
        message=_words(pipeline) if pipeline else None,
        question=pipeline.question if pipeline else False,
        similar=_similar(service, result.applied),
        touched=touched_entries(result.applied),
        created=tuple(item.entry.id for item in result.applied if isinstance(item.action, CreateAction)),
    )


# The toast's words: what happened to which entry, when it is due, relative to now; never an ID.

_DONE = {
    ActionKind.CREATE: "Created",
    ActionKind.UPDATE: "Updated",
    ActionKind.COMPLETE: "Completed",
    ActionKind.ARCHIVE: "Archived",
    ActionKind.SNOOZE: "Snoozed",
}
_TRIED = {"create": "add", "update": "change", "complete": "complete", "archive": "archive", "snooze": "snooze"}
_FIELD_WORDS = {
    "content": "text",
    "summary": "title",
    "due_date": "due date",
    "recurrence": "repeat",
    "add_items": "items added",
    "untick_item": "an item unticked",
}
NAMES_IN_TITLE = 2  # "Created “A”, “B” and 3 more": the title stays one or two lines
NAME_CHARS = 48
# An entry named in a failure ("no open entry matches 'eggs'", "'Buy milk' is already completed"), and IDs,
# which mean nothing to the user: "ID 'abc123'", "(3fa1b2)", "(abc12, abd34, ...)".
_NAMED_IN_ERROR = re.compile(r"matches '([^']+)'|^'([^']+)' is")
_QUOTED_ID = re.compile(r"\bID '[^']*'")
_LISTED_IDS = re.compile(r"\s*\((?=[^)]*[0-9a-f]{4})[0-9a-f, .]+\)")


def _quoted(summary: str) -> str:
    name = terminal_safe(summary, multiline=False).strip()
    return f"“{name[: NAME_CHARS - 1]}…”" if len(name) > NAME_CHARS else f"“{name}”"


def _moment(item: AppliedAction, now: datetime, tz: ZoneInfo) -> str:
    """When the change puts the entry: its due (or next due for a habit done), or the end of a snooze."""
    entry, kind = item.entry, item.action.kind
    if kind is ActionKind.SNOOZE and entry.snooze_until:
        return f"until {when(entry.snooze_until, now, tz)}"
    if kind is ActionKind.COMPLETE and entry.recurrence and entry.due_at:
        return f"next {when(entry.due_at, now, tz)}"
    if kind in (ActionKind.CREATE, ActionKind.UPDATE) and entry.due_at:
        return when(entry.due_at, now, tz)
    return ""


TICKED = "Ticked"  # one item of a checklist, not the entry: said apart from "Completed"


def _ticked(item: AppliedAction) -> str | None:
    """The checklist item a tick ticked, in the list's words (the words said may differ); None for another change."""
    action = item.action
    if not isinstance(action, CompleteAction) or action.item is None:
        return None
    items = load_items(item.entry.items)
    found = find_item(items, action.item)
    return action.item if found is None else items[found].text


def _done_word(item: AppliedAction) -> str:
    return TICKED if _ticked(item) is not None else _DONE[item.action.kind]


def _named(item: AppliedAction) -> str:
    """“Buy milk”, or for a tick “milk” on “Buy eggs and milk”."""
    ticked = _ticked(item)
    return _quoted(item.entry.summary) if ticked is None else f"{_quoted(ticked)} on {_quoted(item.entry.summary)}"


def _names(items: Sequence[AppliedAction]) -> str:
    names = [_named(item) for item in items]
    if len(names) <= NAMES_IN_TITLE:
        return " and ".join(names)
    return f"{', '.join(names[:NAMES_IN_TITLE])} and {len(names) - NAMES_IN_TITLE} more"


def applied_title(
    applied: Sequence[AppliedAction], failures: Sequence[ActionFailure], now: datetime, tz: ZoneInfo
) -> str:
    """'Created “Call the dentist” · Thu 26 Nov 15:00', 'Created “A”, “B” and 1 more, completed “C”',
    then "(1 couldn't be processed)" when some failed."""
    if len(applied) == 1:
        [item] = applied
        moment = item.note if _ticked(item) is not None else _moment(item, now, tz)  # a tick's note: "1 of 4 done"
        title = f"{_done_word(item)} {_named(item)}" + (f" · {moment}" if moment else "")
    else:
        groups = [[item for item in applied if _done_word(item) == word] for word in (*_DONE.values(), TICKED)]
        parts = [f"{_done_word(group[0]).lower()} {_names(group)}" for group in groups if group]
        title = ", ".join(parts)
        title = title[0].upper() + title[1:]
    return f"{title} ({len(failures)} couldn't be processed)" if failures else title


def applied_words(item: AppliedAction, now: datetime, tz: ZoneInfo) -> str:
    """One line of the toast's details: 'Created todo “Buy milk”, due tomorrow 09:00, every Monday'."""
    entry, action = item.entry, item.action
    name = _quoted(entry.summary)
    if _ticked(item) is not None:
        return f"{TICKED} {_named(item)}, {item.note}"
    if isinstance(action, CreateAction):
        text = f"Created {entry.category.value} {name}"
    elif isinstance(action, UpdateAction):
        fields = [_FIELD_WORDS.get(key, key.replace("_", " ")) for key in action.changes]
        text = f"Updated {name}" + (f" ({', '.join(fields)})" if fields else "")
    else:
        text = f"{_DONE[action.kind]} {name}"
    moment = _moment(item, now, tz)
    if moment and action.kind in (ActionKind.CREATE, ActionKind.UPDATE):
        text += f", due {moment}"
    elif moment:
        text += f" {moment}" if action.kind is ActionKind.SNOOZE else f", {moment}"
    elif entry.due_text and action.kind in (ActionKind.CREATE, ActionKind.UPDATE):
        text += f", due “{terminal_safe(entry.due_text, multiline=False)}” (no date read from it)"
    if entry.recurrence and action.kind is ActionKind.CREATE:
        text += f", {describe(entry.recurrence)}"
    # item.note is left out: it says the above again, or names a similar entry by ID (the message says that)
    return text


def failure_words(failure: ActionFailure) -> str:
    """One failure in words: "Couldn't complete “eggs”: no open entry matches it"; IDs become "that ID" or go."""
    tried = _TRIED.get(failure.kind.removesuffix("_entries"))
    head = f"Couldn't {tried}" if tried else "Couldn't do it"
    error = terminal_safe(failure.error, multiline=False)
    error = _LISTED_IDS.sub("", _QUOTED_ID.sub("that ID", error)).strip()
    if found := _NAMED_IN_ERROR.search(error):
        name = found.group(1) or found.group(2)
        head += f" {_quoted(name)}"
        error = error.replace(f"'{name}'", "it", 1)
    return f"{head}: {error}" if error else head


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
    note = window_text(result.fallback_note, result.fallback_remedy)
    return f"{note} {result.message}" if result.message else note


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
    run_id: str = ""  # the run begun at the microphone that this goes on with; "": a run begins here

    def run(self) -> BatchReport:
        try:
            if self.retry_of is None:
                run = Run(self.on_event, self.run_id, started=True) if self.run_id else None
                result = self.service.submit(self.text, self.source, self.on_event, run=run)
            else:
                options, corrected = RunOptions(confirmed=self.confirmed), self.text or None
                result = self.service.retry(self.retry_of, self.on_event, options, text=corrected)
        except MurmurError as error:  # error.utterance_id: the one waiting in the inbox, if it was saved
            confirm = isinstance(error, ConfirmationNeeded)
            line = str(error) if confirm else window_line(error)  # a yes is the toast's own button
            page = settings_page(error.remedy)
            return BatchReport(
                line, [], [], None, utterance_id=error.utterance_id, error=line, confirm=confirm, settings_page=page
            )
        spoken = spoken_reply(result, self.reply, self.service.clock())
        return replace(batch_report(self.service, result), spoken=spoken, run_id=result.run_id)


@dataclass(frozen=True, eq=False)
class EditJob:
    """A change by hand from the window (one of the service's complete, archive, snooze, edit): undoable."""

    service: MurmurService
    change: Callable[[MurmurService], ExecutionResult]

    def run(self) -> BatchReport:
        return batch_report(self.service, self.change(self.service))


_MEMORY_DONE = {"remember": "Remembered", "forget": "Forgot", "edit": "Edited"}


def memory_report(change: MemoryChange) -> BatchReport:
    """A change to a memory as the toast shows an edit: what happened, the memory's line, Undo."""
    done = "Already remembered" if change.confirmed else _MEMORY_DONE[change.kind]
    text = terminal_safe(change.memory.text, multiline=False)
    return BatchReport(
        summary=f"{done}: {text}",
        applied=[f"{change.short_id}  {text}"],
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
        said = f"Dismissed {_quoted(dismissal.utterance.text)}"
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

    text: str  # "Undone: 2 reverted", "Exported 120 entries to list.ics"
    touched: tuple[str, ...] | None = None  # the entries it changed (deleted and restored ones too); None: not known


def undo_text(result: UndoResult) -> str:
    text = f"Undone: {len(result.reverted)} reverted"
    if conflicts := result.conflicts:
        text += f", {len(conflicts)} left as it is ({conflicts[0].conflict})"
    return text


@dataclass(frozen=True, eq=False)
class UndoJob:
    """The latest batch, a chosen batch or one action of it (one of the service's undo methods)."""

    service: MurmurService
    undo: Callable[[MurmurService], UndoResult]

    def run(self) -> Notice:
        result = self.undo(self.service)
        entries = [item.entry_id for item in result.reverted if item.subject is UndoSubject.ENTRY]
        return Notice(undo_text(result), touched=tuple(dict.fromkeys(entries)))


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
