"""The checks: a value past its bound is an OutOfBounds error naming the field and the bound, in one line."""

import unicodedata
from datetime import datetime

from app.bounds.limits import FIRST_YEAR, LAST_YEAR, MAX_COUNT, MAX_UTTERANCE_CHARS, TEXT_CHARS
from app.errors import InvalidActionError, UsageError
from app.terminal import unbroken

_SHOWN_CHARS = 40  # of a bad value, in the message that names it
_BREAKS = frozenset("\n\r\t\v\f\x1c\x1d\x1e\x85\u2028\u2029")  # what str.splitlines breaks at, and tabs


class OutOfBounds(InvalidActionError):
    """A value past one of Murmur's bounds; nothing was stored from it."""


def shown(value: object) -> str:
    """A bad value as a message quotes it, cut short: it may be a whole document."""
    said = repr(value)
    return said if len(said) <= _SHOWN_CHARS else f"{said[: _SHOWN_CHARS - 1]}…"


def moment(value: datetime, name: str, last_year: int = LAST_YEAR) -> datetime:
    """`value` when its year is one every view can show (up to `last_year`)."""
    if not FIRST_YEAR <= value.year <= last_year:
        raise OutOfBounds(f"{name} {value.date().isoformat()} is not between the years {FIRST_YEAR} and {last_year}")
    return value


def whole(value: object, name: str, low: int, high: int = MAX_COUNT) -> int:
    """`value` when it is a whole number (not a bool) from `low` to `high`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OutOfBounds(f"{name} {shown(value)} is not a whole number from {low} to {high:,}")
    return value


def one_line(text: str) -> str:
    """`text` on one line: a summary is read a line an entry, and a line break in one would read as another
    entry (or an instruction) wherever the list is shown."""
    return " ".join(text.split()) if any(char in _BREAKS for char in text) else text


def sized(text: str, name: str, limit: int | None = None) -> str:
    """`text` when it is no longer than its field's bound (`limit`, else TEXT_CHARS[name])."""
    most = limit if limit is not None else TEXT_CHARS[name]
    if len(text) > most:
        raise OutOfBounds(f"{name} is too long ({len(text):,} characters; at most {most:,})")
    return text


def same_form(text: str) -> str:
    """`text` in Unicode's composed form (NFC): "café" typed on one keyboard and pasted from another is one word,
    so one entry, not two that look alike."""
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def utterance_text(text: str) -> str:
    """What was said or typed, as it will be saved; UsageError for what cannot be a real utterance, saving nothing."""
    if "\x00" in text:
        raise UsageError("the text contains a NUL byte; is it a binary file?")
    stripped = same_form(unbroken(text)).strip()
    if not stripped:
        raise UsageError("nothing to add: the text is empty")
    if len(stripped) > MAX_UTTERANCE_CHARS:
        raise UsageError(
            f"the text is too long ({len(stripped):,} characters; the limit is {MAX_UTTERANCE_CHARS:,}); "
            "split it into smaller parts"
        )
    return stripped
