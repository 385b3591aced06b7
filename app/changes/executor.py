"""Applying a batch of actions: one transaction, per-action isolation, an undo record written alongside.

Each action runs inside its own SAVEPOINT, so one that fails (unknown ID, unreadable snooze time)
is rolled back alone and reported, while the others commit together with their undo items.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, func, select

from app.changes.due_words import redated_text
from app.changes.renaming import renamed_content
from app.domain.actions import (
    Action,
    ArchiveAction,
    Cause,
    CompleteAction,
    CreateAction,
    ParseFailure,
    SnoozeAction,
    UpdateAction,
    describe_action,
)
from app.domain.checklist import (
    ChecklistItem,
    derived_items,
    dump_items,
    find_item,
    items_of,
    list_name,
    load_items,
    progress,
    same_item,
)
from app.domain.clock import Clock
from app.domain.dates import DEFAULT_DUE_TIME, moved_due, resolve_due
from app.domain.enums import FailureKind, Status, UndoKind
from app.domain.recurrence import first_occurrence, next_occurrence
from app.domain.snoozes import SNOOZABLE, ends_past_due
from app.domain.verbs import counted
from app.errors import AmbiguousIdError, EntryNotFoundError, InvalidActionError, MurmurError
from app.store.models import Entry, UndoBatch, UndoItem
from app.store.queries import encode_row, get_entry, raw_entry_row, short_id_of


@dataclass(frozen=True)
class AppliedAction:
    action: Action
    entry: Entry
    undo_item_id: int
    short_id: str  # the entry's shortest unique ID prefix once the batch was applied
    note: str = ""  # e.g. "habit rolled forward to ..."


@dataclass(frozen=True)
class ActionFailure:
    """An action that did not apply; `action` is None for one that never parsed. Why: `error` in a sentence (what
    the model and the CLI get), `cause` as data (what the window words)."""

    kind: str  # the action or the model's tool tried: "complete", "archive_entries", "remember"
    error: str
    action: Action | None = None
    cause: Cause = Cause()


@dataclass(frozen=True)
class ExecutionResult:
    applied: list[AppliedAction]
    failures: list[ActionFailure]
    undo_id: int | None


def failures_from_parse(failures: Sequence[ParseFailure]) -> list[ActionFailure]:
    return [ActionFailure(kind=f.tool, error=f.error, cause=f.cause) for f in failures]


def _cause(action: Action, error: MurmurError, subject: str | None) -> Cause:
    """`error` as data: an ID no one entry has, or an action that does not apply to `subject` as it is."""
    if isinstance(action, CreateAction) or not isinstance(error, EntryNotFoundError | AmbiguousIdError):
        return Cause(subject=subject)
    found = FailureKind.NOT_FOUND if isinstance(error, EntryNotFoundError) else FailureKind.AMBIGUOUS
    return Cause(found, prefix=action.entry_id)


def _resolve_due_text(due_text: str | None, clock: Clock) -> datetime | None:
    return None if due_text is None else resolve_due(due_text, clock)


def _first_due(entry: Entry, clock: Clock) -> None:
    """A habit given no due date is first due at its rule's first occurrence, at 09:00."""
    if entry.recurrence is not None and entry.due_at is None and not entry.due_text:
        now_local = clock.now.astimezone(clock.tz).replace(tzinfo=None)
        entry.due_at = first_occurrence(entry.recurrence, now_local, DEFAULT_DUE_TIME).replace(tzinfo=clock.tz)


def _touch(entry: Entry, clock: Clock) -> None:
    entry.updated_at = clock.now
    entry.revision += 1


def _create(session: Session, action: CreateAction, clock: Clock, utterance_id: int | None) -> tuple[Entry, str]:
    entry = Entry(
        content=action.content,
        summary=action.summary,
        category=action.category,
        priority=action.priority,
        due_at=_resolve_due_text(action.due_text, clock),
        due_text=action.due_text,
        recurrence=action.recurrence,
        status=Status.ACTIVE,
        source_text=action.source_text,
        utterance_id=utterance_id,
        created_at=clock.now,
        updated_at=clock.now,
        items=dump_items(_added_items((), action.items)),
    )
    _first_due(entry, clock)
    session.add(entry)
    notes = (
        []
        if action.due_text is None or entry.due_at
        else [f"kept the due phrase '{action.due_text}' (no date read from it)"]
    )
    if action.similar_to and (similar := session.get(Entry, action.similar_to)) is not None:
        notes.append(f"looks like '{similar.summary}' ({similar.id[:6]})")  # the user may merge the two
    return entry, "; ".join(notes)


def _set_status(entry: Entry, status: Status, clock: Clock) -> None:
    entry.status = status
    if status is not Status.SNOOZED:
        entry.snooze_until = None
    entry.completed_at = clock.now if status is Status.COMPLETED else entry.completed_at


def _open_checklist(entry: Entry) -> list[ChecklistItem]:
    """The items of an open entry, derived from its summary when none are stored yet."""
    if entry.status in (Status.COMPLETED, Status.ARCHIVED):
        raise InvalidActionError(f"'{entry.summary}' is {entry.status.value}; only an open entry's items change")
    return list(items_of(entry.summary, entry.items))


def _item_index(entry: Entry, items: Sequence[ChecklistItem], phrase: str) -> int:
    if not items:
        raise InvalidActionError(f"'{entry.summary}' has no items; complete it as a whole")
    index = find_item(items, phrase)
    if index is None:
        named = ", ".join(item.text for item in items)
        raise InvalidActionError(f"'{phrase}' names no one item of '{entry.summary}' (its items: {named})")
    return index


def _added_items(items: Sequence[ChecklistItem], texts: Sequence[str]) -> list[ChecklistItem]:
    """`items` with those of `texts` not already there (said twice, or already listed) appended."""
    result = list(items)
    for text in texts:
        if not any(same_item(text, item.text) for item in result):
            result.append(ChecklistItem(text))
    return result


def _store_items(entry: Entry, items: Sequence[ChecklistItem]) -> None:
    """Keep a changed set of items; a list whose title repeated its items ("Shopping list: eggs, milk") is called by
    its name from now on, as that title would no longer say what is on it."""
    if (name := list_name(entry.summary)) != entry.summary:
        entry.content = name if entry.content == entry.summary else entry.content
        entry.summary = name
    if not items and derived_items(entry.summary):  # the title would bring the items back
        raise InvalidActionError(f"'{entry.summary}' names its items; archive it rather than take off the last one")
    entry.items = dump_items(items)


def _add_items(entry: Entry, texts: Sequence[str]) -> str:
    items = _open_checklist(entry)
    added = _added_items(items, texts)
    if len(added) == len(items):
        raise InvalidActionError(f"{', '.join(texts)}: already on '{entry.summary}'")
    _store_items(entry, added)
    return "added " + ", ".join(item.text for item in added[len(items) :])


def _remove_items(entry: Entry, phrases: Sequence[str]) -> str:
    """Take the items `phrases` name off the list, ticked or not; one that names no item refuses the whole change."""
    items = _open_checklist(entry)
    removed: list[str] = []
    for phrase in phrases:
        index = _item_index(entry, items, phrase)
        removed.append(items.pop(index).text)
    _store_items(entry, items)
    return "removed " + ", ".join(removed)


def _untick(entry: Entry, phrase: str, clock: Clock) -> str:
    """Take back a ticked item; an entry completed by its last item is open again."""
    if entry.status is Status.COMPLETED and entry.recurrence is None:
        _set_status(entry, Status.ACTIVE, clock)
    items = _open_checklist(entry)
    index = _item_index(entry, items, phrase)
    if not items[index].done:
        raise InvalidActionError(f"'{items[index].text}' on '{entry.summary}' is not ticked")
    items[index] = replace(items[index], done=False)
    entry.items = dump_items(items)
    return _progress(items)


def _progress(items: Sequence[ChecklistItem]) -> str:
    return f"all {len(items)} items done" if all(item.done for item in items) else f"{progress(items)} done"


def _update(entry: Entry, action: UpdateAction, clock: Clock) -> str:
    changes = action.changes
    if "summary" in changes and "content" not in changes and changes["summary"]:
        entry.content = renamed_content(entry.content, entry.summary, changes["summary"])
    for name in ("content", "summary", "category", "priority", "recurrence"):
        if name in changes:
            setattr(entry, name, changes[name])
    notes = [_add_items(entry, changes["add_items"])] if "add_items" in changes else []
    if "remove_items" in changes:
        notes.append(_remove_items(entry, changes["remove_items"]))
    if "untick_item" in changes:
        notes.append(_untick(entry, changes["untick_item"], clock))
    if "due_date" in changes:
        was = entry.due_at
        notes.append(_move_due(entry, changes["due_date"], clock))
        if was is not None and entry.due_at is not None and "content" not in changes:  # a text given is kept as given
            written_on = entry.created_at.astimezone(clock.tz).date()
            entry.content = redated_text(entry.content, was, entry.due_at, clock.tz, written_on)
    if "status" in changes:
        _set_status(entry, changes["status"], clock)
    if changes.get("snooze_until"):
        entry.snooze_until = _snooze_time(changes["snooze_until"], clock)
        entry.status = Status.SNOOZED
    elif "snooze_until" in changes and entry.status is Status.SNOOZED:
        _set_status(entry, Status.ACTIVE, clock)  # clearing the snooze wakes the entry
    elif entry.status is Status.SNOOZED and entry.snooze_until is None:
        entry.snooze_until = _snooze_time("tomorrow", clock)
    _touch(entry, clock)
    return "; ".join(notes)


def _move_due(entry: Entry, due_text: str | None, clock: Clock) -> str:
    """Set a new due: what the phrase does not say of the old one is kept (a day alone keeps the time); a
    habit keeps its rule and moves its next occurrence; a snoozed entry wakes to its new due."""
    moved = moved_due(entry.due_at, due_text, clock) if due_text else None
    if due_text and moved is None and entry.due_at is not None:
        raise InvalidActionError(f"can't read a date from '{due_text}'; '{entry.summary}' keeps its due")
    entry.due_text, entry.due_at = due_text, moved
    if entry.status is Status.SNOOZED:
        _set_status(entry, Status.ACTIVE, clock)
    return f"kept the due phrase '{due_text}' (no date read from it)" if due_text and moved is None else ""


def _complete(entry: Entry, clock: Clock) -> str:
    if entry.status in (Status.COMPLETED, Status.ARCHIVED):
        raise InvalidActionError(f"'{entry.summary}' is already {entry.status.value}")
    _touch(entry, clock)
    if entry.recurrence is not None:
        # A habit is never finished: mark today's done and move it to its next occurrence, its checklist afresh.
        entry.due_at = next_occurrence(entry.recurrence, entry.due_at, clock.now, clock.tz)
        entry.items = dump_items([replace(item, done=False) for item in load_items(entry.items)])
        entry.completed_at = clock.now
        _set_status(entry, Status.ACTIVE, clock)
        return f"habit due next {entry.due_at.astimezone(clock.tz):%a %d %b %H:%M}"
    _set_status(entry, Status.COMPLETED, clock)
    return ""


def _tick(entry: Entry, phrase: str, clock: Clock) -> str:
    """Tick the item `phrase` names (the stored items, or those the summary names, which are stored from now
    on); the last one completes the entry."""
    items = _open_checklist(entry)
    index = _item_index(entry, items, phrase)
    if items[index].done:
        raise InvalidActionError(f"'{items[index].text}' on '{entry.summary}' is already ticked")
    items[index] = replace(items[index], done=True)
    entry.items = dump_items(items)
    ticked = _progress(items)
    if not all(item.done for item in items):
        _touch(entry, clock)
        return ticked
    return "; ".join(note for note in (ticked, _complete(entry, clock)) if note)


def _archive(entry: Entry, clock: Clock) -> str:
    if entry.status is Status.ARCHIVED:
        raise InvalidActionError(f"'{entry.summary}' is already archived")
    _touch(entry, clock)
    _set_status(entry, Status.ARCHIVED, clock)
    return ""


def _snooze_time(until_text: str, clock: Clock) -> datetime:
    until = resolve_due(until_text, clock)
    if until is None:
        raise InvalidActionError(f"can't read a time from '{until_text}'")
    if until <= clock.now:
        raise InvalidActionError(f"'{until_text}' is in the past; snooze needs a future time")
    return until


def _snooze(entry: Entry, action: SnoozeAction, clock: Clock) -> str:
    if entry.status not in SNOOZABLE:
        raise InvalidActionError(f"'{entry.summary}' is {entry.status.value}; only open entries can be snoozed")
    until = _snooze_time(action.until_text, clock)
    if entry.due_at is not None and not ends_past_due(until, entry.due_at):
        due = entry.due_at.astimezone(clock.tz)
        raise InvalidActionError(
            f"'{entry.summary}' is due {due:%a %d %b %H:%M}, after {until.astimezone(clock.tz):%a %d %b %H:%M}: "
            "nothing to snooze (to change its due, move it)"
        )
    _touch(entry, clock)
    entry.status = Status.SNOOZED
    entry.snooze_until = until
    return f"until {until.astimezone(clock.tz):%a %d %b %H:%M}"


def _apply_to_existing(session: Session, entry: Entry, action: Action, clock: Clock) -> tuple[str, str]:
    """Apply an action on an existing entry; returns its prior row (encoded) and a note."""
    session.flush()  # the snapshot must include earlier actions of this batch
    before = raw_entry_row(session, entry.id)
    assert before is not None
    if isinstance(action, UpdateAction):
        note = _update(entry, action, clock)
    elif isinstance(action, CompleteAction):
        note = _complete(entry, clock) if action.item is None else _tick(entry, action.item, clock)
    elif isinstance(action, ArchiveAction):
        note = _archive(entry, clock)
    elif isinstance(action, SnoozeAction):
        note = _snooze(entry, action, clock)
    else:
        raise TypeError(f"not an action on an existing entry: {action!r}")
    return encode_row(before), note


def _described(action: Action, entry: Entry) -> dict[str, Any]:
    """The action as data, with the moments its words were read as (`moments`: field -> ISO time): History says
    those, as "tomorrow" read again a week later would name another day."""
    data = describe_action(action)
    read: dict[str, datetime | None] = {}
    if isinstance(action, UpdateAction):
        read = {field: getattr(entry, column) for field, column in _MOMENT_COLUMNS.items() if action.changes.get(field)}
    elif isinstance(action, SnoozeAction):
        read = {"until_text": entry.snooze_until}
    if moments := {field: moment.isoformat() for field, moment in read.items() if moment is not None}:
        data["moments"] = moments
    return data


# An update's fields that name a moment, and the entry's column that keeps what they were read as.
_MOMENT_COLUMNS = {"due_date": "due_at", "snooze_until": "snooze_until"}


def _item_count(session: Session, batch_id: int | None) -> int:
    return int(session.execute(select(func.count()).where(col(UndoItem.batch_id) == batch_id)).scalar_one())


def execute(
    session: Session,
    actions: Sequence[Action],
    clock: Clock,
    *,
    utterance_id: int | None = None,
    label: str | None = None,
    batch_id: int | None = None,
    origin: str | None = None,
) -> ExecutionResult:
    """Apply `actions` inside the caller's write transaction and record how to undo them.

    The caller commits; a crash before that leaves neither the changes nor their undo record.
    With `batch_id`, the undo items join that batch (one utterance's turns share one undo); a new batch is marked
    with `origin`, the other program that asked for it.
    """
    done: list[tuple[Action, Entry, UndoItem, str]] = []
    failures: list[ActionFailure] = []
    batch = None if batch_id is None else session.get(UndoBatch, batch_id)
    first_position = 0 if batch is None else _item_count(session, batch_id)
    for action in actions:
        subject = None  # the entry's summary once found: what a failure to change it is about
        try:
            with session.begin_nested():
                if isinstance(action, CreateAction):
                    entry, note = _create(session, action, clock, utterance_id)
                    before_row = None
                else:
                    entry = get_entry(session, action.entry_id)
                    subject = entry.summary
                    before_row, note = _apply_to_existing(session, entry, action, clock)
                session.flush()  # inside the savepoint, so a failing write is rolled back alone
        except MurmurError as error:
            failures.append(ActionFailure(action.kind.value, str(error), action, _cause(action, error, subject)))
            continue
        if batch is None:
            batch = UndoBatch(utterance_id=utterance_id, label=label or "", created_at=clock.now, origin=origin)
            session.add(batch)
            session.flush()
        assert batch.id is not None
        item = UndoItem(
            batch_id=batch.id,
            position=first_position + len(done),
            kind=UndoKind(action.kind),
            entry_id=entry.id,
            description=json.dumps(_described(action, entry), ensure_ascii=False),
            before_row=before_row,
            after_revision=entry.revision,
        )
        session.add(item)
        done.append((action, entry, item, note))
    session.flush()  # all undo items in one go
    applied = [
        AppliedAction(action=a, entry=e, undo_item_id=i.id, short_id=short_id_of(session, e.id), note=n)  # type: ignore[arg-type]
        for a, e, i, n in done
    ]
    if batch is not None and not label and batch_id is None:
        batch.label = counted(item.action for item in applied)
    return ExecutionResult(applied=applied, failures=failures, undo_id=None if batch is None else batch.id)
