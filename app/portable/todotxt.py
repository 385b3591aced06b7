"""The todo.txt format (todotxt.org), read and written with pytodotxt: one task a line.

`(A)`..`(E)` are Murmur's priorities 1 to 5, then the creation date; a done task starts `x` and its date; the
category is a `+project` ("+reminder"); `due:YYYY-MM-DD` the due day (todo.txt has no time of day: a time
other than the usual morning hour goes in `due_time:HH:MM`), and `rec:` a simple repeat (1d, 2w, 1m, 1y) as
todo.txt's clients write it. On reading, a `+project` or `@context` naming a category is the category, and
other projects and contexts stay in the summary as the user wrote them. todo.txt has no sub-tasks: a list's
items are written in its line after its name ("Packing list: passport, charger"), unless its summary names them
("Buy eggs, bread and milk"); JSON, CSV and iCalendar keep them one by one.
"""

import re
from collections.abc import Iterable
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytodotxt

from app.changes.imports import IncomingEntry, Problem, ReadFile
from app.domain.checklist import load_items, with_items_named
from app.domain.enums import Category, Status
from app.domain.recurrence import canonical_rule
from app.portable.common import at_local, category_named, is_default_time, one_line
from app.portable.values import reason
from app.store.models import Entry

_LETTERS = "ABCDE"
_UNITS = {"d": "DAILY", "w": "WEEKLY", "m": "MONTHLY", "y": "YEARLY"}
_REC = re.compile(r"^\+?(\d{1,3})?([dwmy])$", re.IGNORECASE)
_KEYS = ("due", "due_time", "rec", "pri")  # attributes Murmur reads; others stay in the summary
_PRIORITY_PREFIX = re.compile(r"^\(([A-Z])\)\s+")  # a done task's priority, where todo.txt-cli leaves it


def _rec(rule: str) -> str | None:
    """A rule todo.txt's `rec:` can say (one FREQ with an INTERVAL), else None."""
    parts = dict(part.split("=", 1) for part in rule.split(";"))
    if set(parts) - {"FREQ", "INTERVAL"}:
        return None
    unit = next(letter for letter, freq in _UNITS.items() if freq == parts["FREQ"])
    return f"{parts.get('INTERVAL', '1')}{unit}"


def _line(entry: Entry, tz: ZoneInfo) -> str:
    task = pytodotxt.Task()
    task.description = one_line(with_items_named(entry.summary, load_items(entry.items)))
    if entry.priority is not None:
        task.priority = _LETTERS[entry.priority - 1]
    task.creation_date = entry.created_at.astimezone(tz).date()
    task.add_project(entry.category.value)
    if entry.due_at is not None:
        task.add_attribute("due", f"{entry.due_at.astimezone(tz):%Y-%m-%d}")
        if not is_default_time(entry.due_at, tz):
            task.add_attribute("due_time", f"{entry.due_at.astimezone(tz):%H:%M}")
    if entry.recurrence and (rec := _rec(entry.recurrence)):
        task.add_attribute("rec", rec)
    if entry.status in (Status.COMPLETED, Status.ARCHIVED):
        task.is_completed = True
        task.completion_date = (entry.completed_at or entry.updated_at).astimezone(tz).date()
        if entry.priority is not None:
            task.add_attribute("pri", _LETTERS[entry.priority - 1])  # todo.txt drops (A) from a done task
    return str(task)


def write_todotxt(entries: Iterable[Entry], tz: ZoneInfo) -> str:
    # Each line starts with "x", a priority or the creation date, never with the summary: a spreadsheet that
    # opens the file (one cell a line) finds no formula to run, so no quote is added as CSV does.
    return "".join(f"{_line(entry, tz)}\n" for entry in entries)


# -- reading ------------------------------------------------------------------------------------------------


def _priority(task: pytodotxt.Task, description: str) -> int | None:
    letters = [task.priority, *task.attributes.get("pri", [])]
    if found := _PRIORITY_PREFIX.match(description):
        letters.append(found.group(1))
    for letter in letters:
        if letter:
            return min(ord(letter.upper()) - ord("A") + 1, 5)
    return None


def _due(task: pytodotxt.Task, tz: ZoneInfo) -> datetime | None:
    days = task.attributes.get("due")
    if not days:
        return None
    clock = task.attributes.get("due_time")
    try:
        day = date.fromisoformat(days[0])
        return at_local(datetime.combine(day, time.fromisoformat(clock[0])) if clock else day, tz)
    except ValueError:
        said = f"due:{days[0]}" + (f" due_time:{clock[0]}" if clock else "")
        raise ValueError(f"{said} is not a date (todo.txt writes due:YYYY-MM-DD)") from None


def _repeat(task: pytodotxt.Task) -> str | None:
    for value in task.attributes.get("rec", []):
        found = _REC.match(value)
        if found is None:
            raise ValueError(f"rec:{value} is not a repeat Murmur reads (say 1d, 2w, 1m or 1y)")
        return canonical_rule(f"FREQ={_UNITS[found.group(2).lower()]};INTERVAL={found.group(1) or 1}")
    return None


def _words(description: str, category_word: str | None) -> str:
    """The description without the attributes Murmur took, its category tag, and a done task's (A)."""
    kept = [
        word
        for word in _PRIORITY_PREFIX.sub("", description).split()
        if word.split(":", 1)[0] not in _KEYS or ":" not in word
    ]
    if category_word is not None:
        kept = [word for word in kept if word.lstrip("+@").casefold() != category_word]
    return " ".join(kept)


def _entry(line: str, number: int, tz: ZoneInfo, now: datetime) -> IncomingEntry:
    task = pytodotxt.Task(line)
    description = task.description or ""
    category = category_named(*(f"+{p}" for p in task.projects), *(f"@{c}" for c in task.contexts))
    rule = _repeat(task)
    summary = _words(description, category.value if category else None)
    if not summary:
        raise ValueError("a task with no words")
    created = at_local(task.creation_date, tz) if task.creation_date else now
    done = task.is_completed
    return IncomingEntry(
        line=number,
        summary=summary,
        content=summary,
        category=category or (Category.HABIT if rule else Category.TODO),
        source_text=line.strip(),
        created_at=created,
        priority=_priority(task, description),
        due_at=_due(task, tz),
        recurrence=rule,
        status=Status.COMPLETED if done else Status.ACTIVE,
        completed_at=(at_local(task.completion_date, tz) if task.completion_date else now) if done else None,
    )


def read_todotxt(text: str, tz: ZoneInfo, now: datetime) -> ReadFile:
    read = ReadFile()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            read.entries.append(_entry(line, number, tz, now))
        except Exception as error:  # any error costs only this line: a file is anyone's text
            read.problems.append(Problem(number, f"skipped: {reason(error)}"))
    return read
