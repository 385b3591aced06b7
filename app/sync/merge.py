"""The three-way merge of one task changed on both sides since the last sync.

Each side is compared to the version both last agreed on (the base), field by field: a field only one side
changed takes that side's value. A field both changed is joined where a rule says how (a completion anywhere
wins over an open task, the later due and snooze win, the more urgent priority wins); otherwise the server's
value is kept and the local one is handed back as a clash, for the caller to keep beside it as a note.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from app.changes.imports import IncomingEntry
from app.domain.checklist import dump_items, load_items
from app.domain.enums import Status
from app.domain.recurrence import next_occurrence
from app.store.models import Entry

# What a VTODO carries of an entry, and so what sync compares and writes.
SYNCED_FIELDS = (
    "summary",
    "content",
    "category",
    "priority",
    "due_at",
    "recurrence",
    "status",
    "snooze_until",
    "completed_at",
    "items",  # the checklist as one field (JSON, as an entry stores it): two sides' edits to it are not joined
)
_TIMES = ("due_at", "snooze_until", "completed_at")

Fields = dict[str, object]


def carried(entry: IncomingEntry | Entry) -> Fields:
    """The synced fields of a task read from a VTODO (or of an entry, as its VTODO would carry them), in a form
    two readings of the same task agree on: times in UTC to the second, a completion time only for a completed
    task, a snooze only for a snoozed one, a repeat only from a due time."""
    values: Fields = {name: getattr(entry, name) for name in SYNCED_FIELDS}
    for name in _TIMES:
        moment = values[name]
        if isinstance(moment, datetime):
            values[name] = moment.astimezone(UTC).replace(microsecond=0)
    if entry.status is not Status.COMPLETED:
        values["completed_at"] = None
    if entry.status is not Status.SNOOZED:
        values["snooze_until"] = None
    if values["due_at"] is None:
        values["recurrence"] = None  # a repeat counts from a start (RFC 5545): a habit with no due time has none
    # As dump_items writes it, whoever wrote it: a task read brings its items, an entry their stored JSON.
    items = entry.items if isinstance(entry.items, tuple) else load_items(entry.items)
    values["items"] = dump_items(items)
    return values


def changed_fields(entry: Entry, agreed: IncomingEntry) -> list[str]:
    """The synced fields `entry` changed since the version both sides agreed on. Words equal to the summary are
    no words (a VTODO without a DESCRIPTION reads so): a new summary over such words makes them words of their own."""
    now_here, then = carried(entry), carried(agreed)
    changed = [name for name in SYNCED_FIELDS if now_here[name] != then[name]]
    if "content" not in changed and (entry.content == entry.summary) != (agreed.content == agreed.summary):
        changed.append("content")
    return changed


# How a status outranks another when both sides set one: a task done anywhere is done.
_STATUS_RANK = {Status.COMPLETED: 3, Status.ARCHIVED: 2, Status.SNOOZED: 1, Status.ACTIVE: 0}


def _later(mine: object, theirs: object) -> object:
    if not isinstance(mine, datetime):
        return theirs
    if not isinstance(theirs, datetime):
        return mine
    return max(mine, theirs)


def _more_urgent(mine: object, theirs: object) -> object:
    numbers = [value for value in (mine, theirs) if isinstance(value, int)]
    return min(numbers) if numbers else None


def _higher_status(mine: object, theirs: object) -> object:
    assert isinstance(mine, Status) and isinstance(theirs, Status)
    return mine if _STATUS_RANK[mine] > _STATUS_RANK[theirs] else theirs


_JOINS: dict[str, Callable[[object, object], object]] = {
    "status": _higher_status,
    "due_at": _later,
    "snooze_until": _later,
    "completed_at": _later,
    "priority": _more_urgent,
}


@dataclass(frozen=True)
class Merged:
    fields: Fields
    clashes: dict[str, object] = field(default_factory=dict)  # the local values the server's replaced


def merge(base: Mapping[str, object], local: Mapping[str, object], remote: Mapping[str, object]) -> Merged:
    result: Fields = {}
    clashes: dict[str, object] = {}
    for name in SYNCED_FIELDS:
        mine, theirs = local[name], remote[name]
        if mine == theirs or mine == base[name]:
            result[name] = theirs
        elif theirs == base[name]:
            result[name] = mine
        elif name in _JOINS:
            result[name] = _JOINS[name](mine, theirs)
        else:
            result[name] = theirs
            clashes[name] = mine
    if result["status"] is not Status.COMPLETED:
        result["completed_at"] = None
    if result["status"] is not Status.SNOOZED:
        result["snooze_until"] = None
    return Merged(result, clashes)


def habit_done_elsewhere(base: Mapping[str, object], remote: Fields, now: datetime, tz: ZoneInfo) -> bool:
    """A repeating task another client marked completed (as simple clients do) is a habit done: it moves on
    to its next occurrence here, as completing it in Murmur does, instead of ending. Changes `remote`."""
    rule = remote["recurrence"]
    if remote["status"] is not Status.COMPLETED or base["status"] is Status.COMPLETED or not isinstance(rule, str):
        return False
    due = remote["due_at"]
    remote["due_at"] = next_occurrence(rule, due if isinstance(due, datetime) else None, now, tz).astimezone(UTC)
    remote["status"] = Status.ACTIVE
    remote["completed_at"] = None
    items = load_items(remote["items"] if isinstance(remote["items"], str) else None)
    remote["items"] = dump_items([replace(item, done=False) for item in items])  # afresh, as a habit done here
    return True
