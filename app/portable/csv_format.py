"""CSV: one row per entry under a header, dates as a spreadsheet reads them ('2026-11-26 15:00', local time).

Reading takes any spreadsheet's export that has a summary column (or title, task, name); the other columns
are found by their usual names in any case, and a row that cannot be read is reported with its line. A list's
items are one cell: "[x] eggs; [ ] bread".
"""

import csv
import io
import re
from collections.abc import Iterable
from datetime import date, datetime
from zoneinfo import ZoneInfo

from dateutil import parser as date_parser

from app.changes.imports import IncomingEntry, Problem, ReadFile
from app.domain.checklist import ChecklistItem, load_items
from app.domain.enums import Category, Status
from app.domain.recurrence import canonical_rule
from app.errors import InvalidActionError, UsageError
from app.portable.common import at_local, category_named, local_text
from app.store.models import Entry

HEADER = (
    "id",
    "summary",
    "content",
    "category",
    "priority",
    "status",
    "due",
    "repeat",
    "snoozed_until",
    "created",
    "completed",
    "said",
    "items",
)

# Other programs' names for a column, first match wins.
_NAMES = {
    "summary": ("summary", "title", "task", "name", "subject", "todo"),
    "content": ("content", "description", "notes", "note", "details"),
    "category": ("category", "list", "type", "kind"),
    "priority": ("priority", "prio"),
    "status": ("status", "state", "done", "completed?"),
    "due": ("due", "due date", "due_date", "deadline", "date", "start"),
    "repeat": ("repeat", "recurrence", "rrule"),
    "snoozed_until": ("snoozed_until",),
    "created": ("created", "created at", "created_at", "creation date"),
    "completed": ("completed", "completed at", "completed_at", "done at", "completion date"),
    "said": ("said", "source_text"),
    "id": ("id",),
    "items": ("items", "checklist", "subtasks"),
}
_DONE_WORDS = {"completed", "done", "x", "yes", "true", "1"}
_CANCELLED_WORDS = {"archived", "cancelled", "canceled"}


def _row(entry: Entry, tz: ZoneInfo) -> list[str]:
    return [
        entry.id,
        entry.summary,
        entry.content,
        entry.category.value,
        "" if entry.priority is None else str(entry.priority),
        entry.status.value,
        local_text(entry.due_at, tz),
        entry.recurrence or "",
        local_text(entry.snooze_until, tz),
        local_text(entry.created_at, tz),
        local_text(entry.completed_at, tz),
        entry.source_text,
        "; ".join(f"[{'x' if item.done else ' '}] {item.text}" for item in load_items(entry.items)),
    ]


def write_csv(entries: Iterable[Entry], tz: ZoneInfo) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    writer.writerows(_row(entry, tz) for entry in entries)
    return out.getvalue()


# -- reading ------------------------------------------------------------------------------------------------


def _columns(header: list[str]) -> dict[str, int]:
    lowered = [name.strip().casefold() for name in header]
    found = {}
    for field, names in _NAMES.items():
        for name in names:
            if name in lowered:
                found[field] = lowered.index(name)
                break
    if "summary" not in found:
        raise UsageError("the CSV file has no summary column (summary, title, task or name) in its first line")
    return found


def _time(value: str, tz: ZoneInfo) -> datetime | None:
    if not value.strip():
        return None
    try:
        text = value.strip()  # what Murmur and most programs write: 2026-12-01, 2026-12-01 15:00
        return at_local(date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text), tz)
    except ValueError:
        pass  # a spreadsheet's own way ("12/01/2026", "1 Dec 2026 3pm"): dateutil reads those
    try:
        parsed = date_parser.parse(value, default=datetime(2000, 1, 1))
    except (ValueError, OverflowError):
        raise ValueError(f"{value!r} is not a date") from None
    has_time = any(c == ":" for c in value) or parsed.time() != datetime.min.time()
    return at_local(parsed if has_time else parsed.date(), tz)


# Each item begins "[x] " or "[ ] ": a semicolon before one ends the item before it (one inside an item stays).
_ITEM = re.compile(r"\[(?P<mark>[ xX])\]\s*(?P<text>.*?)\s*(?:;\s*(?=\[[ xX]\])|$)", re.DOTALL)


def _items(cell: str) -> tuple[ChecklistItem, ...]:
    return tuple(ChecklistItem(found["text"], found["mark"] != " ") for found in _ITEM.finditer(cell) if found["text"])


def _status(value: str) -> Status:
    word = value.strip().casefold()
    if word in _CANCELLED_WORDS:
        return Status.ARCHIVED
    if word in _DONE_WORDS:
        return Status.COMPLETED
    if word in ("snoozed",):
        return Status.SNOOZED
    return Status.ACTIVE


def _priority(value: str, line: int, problems: list[Problem]) -> int | None:
    """1 to 5, or a letter A to E; anything else is left out (the entry is still kept) and said."""
    value = value.strip().upper()
    if len(value) == 1 and value.isalpha():
        return min(ord(value) - ord("A") + 1, 5)
    if value.isdigit() and 1 <= int(value) <= 5:
        return int(value)
    if value:
        problems.append(Problem(line, f"priority {value!r} is not 1 to 5; kept without a priority"))
    return None


def _entry(cells: dict[str, str], line: int, tz: ZoneInfo, now: datetime, problems: list[Problem]) -> IncomingEntry:
    summary = " ".join(cells.get("summary", "").split())
    if not summary:
        raise ValueError("no summary")
    rule = canonical_rule(cells["repeat"]) if cells.get("repeat", "").strip() else None
    status = _status(cells.get("status", ""))
    snooze = _time(cells.get("snoozed_until", ""), tz)
    content = cells.get("content", "").strip() or summary
    entry_id = cells.get("id", "").strip().lower()
    completed = _time(cells.get("completed", ""), tz)
    return IncomingEntry(
        line=line,
        id=entry_id if len(entry_id) == 32 and all(c in "0123456789abcdef" for c in entry_id) else None,
        summary=summary,
        content=content,
        category=category_named(cells.get("category", "")) or (Category.HABIT if rule else Category.TODO),
        source_text=cells.get("said", "").strip() or content,
        created_at=_time(cells.get("created", ""), tz) or now,
        priority=_priority(cells.get("priority", ""), line, problems),
        due_at=_time(cells.get("due", ""), tz),
        recurrence=rule,
        status=Status.ACTIVE if status is Status.SNOOZED and snooze is None else status,
        snooze_until=snooze if status is Status.SNOOZED else None,
        completed_at=completed or (now if status is Status.COMPLETED else None),
        items=_items(cells.get("items", "")),
    )


def read_csv(text: str, tz: ZoneInfo, now: datetime) -> ReadFile:
    reader = csv.reader(io.StringIO(text.replace("\r\n", "\n")))  # a cell's own line ends, as Python writes them
    header = next(reader, None)
    if header is None:
        raise UsageError("the CSV file is empty")
    columns = _columns(header)
    read = ReadFile()
    while True:
        line = reader.line_num + 1  # where the row starts: a quoted cell may span lines
        row = next(reader, None)
        if row is None:
            break
        if not any(cell.strip() for cell in row):
            continue
        cells = {field: row[index] if index < len(row) else "" for field, index in columns.items()}
        try:
            read.entries.append(_entry(cells, line, tz, now, read.problems))
        except (ValueError, InvalidActionError) as error:
            read.problems.append(Problem(line, f"skipped: {error}"))
    return read
