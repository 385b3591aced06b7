"""The rules a value read from a file meets before it is stored: the ones the app's own writes keep.

A file is anyone's text: a time in year 9999 breaks every view that shows it, a revision past SQLite's integers
fails the whole batch's insert, an ID of the wrong shape breaks the short IDs. A value that breaks a rule is a
ValueError naming the field, so its row is skipped and named like any row that cannot be read.
"""

from datetime import datetime

from app.bounds.checks import OutOfBounds, moment, shown, whole
from app.bounds.limits import MAX_COUNT, MAX_ITEM_CHARS, MAX_ITEMS, MAX_ROW_ID, TEXT_CHARS
from app.changes.imports import IncomingEntry, Problem, ReadFile

_HEX = frozenset("0123456789abcdef")


def reason(error: Exception) -> str:
    """Why a row was skipped: the error's words, or its kind when it has none (any error costs only its row)."""
    return " ".join(str(error).split()) or type(error).__name__


def in_range(value: datetime, name: str) -> datetime:
    """`value` within the years a file may bring in; ValueError, so only its row is skipped."""
    try:
        return moment(value, name)
    except OutOfBounds as error:
        raise ValueError(str(error)) from None


def whole_number(value: object, name: str, low: int, high: int = MAX_COUNT) -> int:
    """`value` as a whole number from `low` to `high`; ValueError, so only its row is skipped."""
    try:
        return whole(value, name, low, high)
    except OutOfBounds as error:
        raise ValueError(str(error)) from None


def optional_row_id(value: object, name: str) -> int | None:
    return None if value is None else whole_number(value, name, 1, MAX_ROW_ID)


def hex_id(value: object, name: str) -> str:
    """An entry's or a memory's ID: 32 lowercase hex digits, as Murmur makes them."""
    if not isinstance(value, str) or len(value) != 32 or not _HEX.issuperset(value):
        raise ValueError(f"{name} {shown(value)} is not a Murmur ID (32 hex digits)")
    return value


def _check(entry: IncomingEntry) -> None:
    moments = {
        "created_at": entry.created_at,
        "updated_at": entry.updated_at,
        "due_at": entry.due_at,
        "snooze_until": entry.snooze_until,
        "completed_at": entry.completed_at,
    }
    for name, when in moments.items():
        if when is not None:
            in_range(when, name)
    whole_number(entry.revision, "revision", 1)
    texts = {"summary": entry.summary, "content": entry.content, "source_text": entry.source_text}
    for name, text in {**texts, "due_text": entry.due_text or "", "recurrence": entry.recurrence or ""}.items():
        if len(text) > TEXT_CHARS[name]:
            raise ValueError(f"{name} is too long ({len(text):,} characters; at most {TEXT_CHARS[name]:,})")
    if len(entry.items) > MAX_ITEMS or any(len(item.text) > MAX_ITEM_CHARS for item in entry.items):
        raise ValueError(f"the checklist is too long (at most {MAX_ITEMS} items of {MAX_ITEM_CHARS} characters)")


def checked(read: ReadFile) -> ReadFile:
    """`read` without the entries that break a rule, each named with its line among the reader's problems."""
    kept: list[IncomingEntry] = []
    for entry in read.entries:
        try:
            _check(entry)
        except ValueError as error:
            read.problems.append(Problem(entry.line, f"skipped: {reason(error)}"))
            continue
        kept.append(entry)
    read.entries = kept
    read.problems.sort(key=lambda problem: problem.line)  # in file order, whichever check found them
    return read
