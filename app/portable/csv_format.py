"""CSV: one row per entry under a header, dates as a spreadsheet reads them ('2026-11-26 15:00', local time).

Reading takes any spreadsheet's export that has a summary column (or title, task, name); the other columns
are found by their usual names in any case, and a row that cannot be read (a stray quote, a cell past 1 MB,
a value that breaks a rule) is reported with its line and skipped, reading going on from the next line. A
list's items are one cell: "[x] eggs; [ ] bread". A cell a spreadsheet would run as a formula is written with
a single quote first, as OWASP recommends, and read back without it.
"""

import csv
import io
import re
from collections.abc import Iterable, Iterator
from datetime import date, datetime
from zoneinfo import ZoneInfo

from dateutil import parser as date_parser

from app.changes.imports import IncomingEntry, Problem, ReadFile
from app.domain.checklist import ChecklistItem, load_items
from app.domain.enums import Category, Status
from app.domain.recurrence import canonical_rule
from app.errors import UsageError
from app.portable.common import at_local, category_named, local_text
from app.portable.values import reason
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
MAX_CELL_CHARS = 2**20  # a cell past this is a broken row (an unclosed quote reads on), not anyone's words
# What a spreadsheet runs as a formula, after any quotes already there: those get one more, so that reading
# takes exactly one off and a summary that began with a quote comes back as it was.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")


def _as_text(cell: str) -> str:
    return f"'{cell}" if _FORMULA.match(cell) else cell


def _as_written(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and _FORMULA.match(cell) else cell


def _row(entry: Entry, tz: ZoneInfo) -> list[str]:
    cells = [
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
    return [_as_text(cell) for cell in cells]


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
        problems.append(Problem(line, f"priority {value!r} is not 1 to 5; kept without a priority", skipped=False))
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


class _Lines:
    """The file's lines for the csv module, one at a time, with the index of the next: after a row that cannot
    be read, reading goes on from the line after the one it began on."""

    def __init__(self, text: str) -> None:
        # Split at "\n" alone: a cell's own line ends, as Python writes them, stay in the cell.
        self.lines = io.StringIO(text.replace("\r\n", "\n")).readlines()
        self.next = 0

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        if self.next >= len(self.lines):
            raise StopIteration
        self.next += 1
        return self.lines[self.next - 1]


def _rows(text: str) -> Iterator[tuple[int, list[str] | csv.Error]]:
    """Each row with the line it begins on (a quoted cell may span lines), or the csv module's error for it."""
    csv.field_size_limit(MAX_CELL_CHARS)  # process-wide, and only ever raised from the default 128 KB
    lines = _Lines(text)
    reader = csv.reader(lines, strict=True)  # strict: a quote out of place is this row's error, not the file's
    while lines.next < len(lines.lines):
        start = lines.next
        try:
            yield start + 1, next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            lines.next = start + 1  # the reader starts afresh on its next row
            yield start + 1, error


def read_csv(text: str, tz: ZoneInfo, now: datetime) -> ReadFile:
    rows = _rows(text)
    header = next(rows, None)
    if header is None:
        raise UsageError("the CSV file is empty")
    if isinstance(header[1], csv.Error):
        raise UsageError(f"the CSV file's first line cannot be read: {header[1]}")
    columns = _columns(header[1])
    read = ReadFile()
    for line, row in rows:
        try:
            if isinstance(row, csv.Error):
                raise row
            if not any(cell.strip() for cell in row):
                continue
            cells = {field: _as_written(row[index]) if index < len(row) else "" for field, index in columns.items()}
            read.entries.append(_entry(cells, line, tz, now, read.problems))
        except Exception as error:  # any error costs only this row: a file is anyone's text
            read.problems.append(Problem(line, f"skipped: {reason(error)}"))
    return read
