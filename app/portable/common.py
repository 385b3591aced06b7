"""What every format shares: the formats' names, how a file names its format, and the small conversions.

Priorities: Murmur's 1 (most urgent) to 5 is iCalendar's 1 to 9 (odd numbers out, pairs in) and todo.txt's A
to E. A date without a time is due at the usual morning hour; a time without a zone is the user's local time.
"""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

from app.domain.dates import DEFAULT_DUE_TIME
from app.domain.enums import Category, Format
from app.errors import UsageError


@dataclass(frozen=True)
class StoredRows:
    """What only the JSON export carries: the rows as stored, and the schema they follow."""

    entries: Sequence[dict[str, object]]
    utterances: Sequence[dict[str, object]]
    memories: Sequence[dict[str, object]]
    schema: int


READABLE = (Format.JSON, Format.ICS, Format.TODOTXT, Format.CSV)  # Markdown is for reading by people

_SUFFIXES = {
    ".json": Format.JSON,
    ".md": Format.MARKDOWN,
    ".markdown": Format.MARKDOWN,
    ".ics": Format.ICS,
    ".ical": Format.ICS,
    ".ifb": Format.ICS,
    ".txt": Format.TODOTXT,
    ".todotxt": Format.TODOTXT,
    ".csv": Format.CSV,
}

SUFFIX = {Format.JSON: ".json", Format.MARKDOWN: ".md", Format.ICS: ".ics", Format.TODOTXT: ".txt", Format.CSV: ".csv"}

# UIDs of other programs' tasks become Murmur IDs in this namespace, so the same file imported twice is skipped.
_UID_NAMESPACE = uuid.UUID("6f1c9a52-3b7e-4d2a-9a55-6d7572656d72")
MURMUR_UID_SUFFIX = "@murmur"


def format_of(path: Path, named: str | None) -> Format:
    """The format asked for, else the one the file's name says; a UsageError naming the choices otherwise."""
    if named:
        return Format(named)
    found = _SUFFIXES.get(path.suffix.lower())
    if found is None:
        choices = ", ".join(f.value for f in Format)
        raise UsageError(f"cannot tell the format of {path.name} from its name; add --format ({choices})")
    return found


def entry_id_for_uid(uid: str) -> str:
    """Murmur's own UID gives back its entry's ID; any other UID a stable ID of its own."""
    own = uid.removesuffix(MURMUR_UID_SUFFIX)
    if uid.endswith(MURMUR_UID_SUFFIX) and len(own) == 32 and all(c in "0123456789abcdef" for c in own):
        return own
    return uuid.uuid5(_UID_NAMESPACE, uid).hex


def category_named(*words: str) -> Category | None:
    """The first of `words` that names a category ("Reminder", "todo", "@idea"), or None."""
    for word in words:
        name = word.strip().lstrip("+@").casefold()
        if name in Category.__members__.values():
            return Category(name)
    return None


def ical_priority(priority: int | None) -> int:
    """0 is iCalendar's "none"."""
    return 0 if priority is None else 2 * priority - 1


def from_ical_priority(value: int) -> int | None:
    return None if not 1 <= value <= 9 else (value + 1) // 2


# The times any zone can show: a day inside Python's years 1 to 9999 wherever it is read.
_EARLIEST = datetime(1, 1, 2, tzinfo=UTC)
_LATEST = datetime(9999, 12, 30, tzinfo=UTC)


def at_local(value: date | datetime, tz: ZoneInfo) -> datetime:
    """A file's date or time as an aware time: a day at the usual hour, a floating time in the user's zone. One
    at the edge of the calendar (year 9999, year 1) is brought a day or two inside it, so that every list and
    export can show it in any zone; sync leaves the server's own value as it came."""
    if not isinstance(value, datetime):
        value = datetime.combine(value, DEFAULT_DUE_TIME)
    aware = value if value.tzinfo is not None else value.replace(tzinfo=tz)
    try:
        return min(max(aware, _EARLIEST), _LATEST)
    except OverflowError:  # its offset takes it past year 1 or 9999 in UTC
        return _EARLIEST if aware.year < 5000 else _LATEST


def local_text(moment: datetime | None, tz: ZoneInfo) -> str:
    """'2026-11-26 15:00' in the user's zone: what a spreadsheet reads as a date and time."""
    return "" if moment is None else f"{moment.astimezone(tz):%Y-%m-%d %H:%M}"


def is_default_time(moment: datetime, tz: ZoneInfo) -> bool:
    return moment.astimezone(tz).time() == time(DEFAULT_DUE_TIME.hour, DEFAULT_DUE_TIME.minute)


def one_line(text: str) -> str:
    return " ".join(text.split())
