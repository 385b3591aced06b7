"""Spans of time: counted from now ("in 90 seconds", "in half an hour", "in an hour and a half"), or how far
a due moves ("back a week", "by two days")."""

import re
from dataclasses import dataclass
from datetime import timedelta

from dateutil.relativedelta import relativedelta

from app.domain.spoken_numbers import CARDINALS

_UNITS = {"second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600}
_AMOUNTS = {"a": 1.0, "an": 1.0, "a few": 3.0, "a couple of": 2.0, "a couple": 2.0} | {
    word: float(n) for word, n in CARDINALS.items()
}
_AMOUNT = r"\d+(?:\.\d+)?|" + "|".join(sorted((re.escape(w) for w in _AMOUNTS), key=len, reverse=True))
# Seconds, minutes and hours only: "in 3 days" is a day (at the default hour), read with the other dates.
_SPAN = (
    rf"\bin\s+(?:(?P<half>half\s+an?)|(?P<amount>{_AMOUNT})(?P<and_half>\s+and\s+a\s+half)?)"
    r"\s+(?P<unit>seconds?|secs?|minutes?|mins?|hours?|hrs?)\b(?P<half_after>\s+and\s+a\s+half\b)?"
)
_WHOLE = re.compile(rf"^{_SPAN}$", re.IGNORECASE)
_INSIDE = re.compile(_SPAN, re.IGNORECASE)


def _length(found: re.Match[str]) -> timedelta:
    unit = _UNITS[found["unit"].lower().removesuffix("s")]
    if found["half"]:
        amount = 0.5
    else:
        said = found["amount"].lower()
        amount = float(said) if said[0].isdigit() else _AMOUNTS[said]
        amount += 0.5 if found["and_half"] or found["half_after"] else 0.0
    return timedelta(seconds=amount * unit)


def span_from_now(phrase: str) -> timedelta | None:
    """How long from now `phrase` (all of it) says; None when it is not such a span."""
    found = _WHOLE.match(phrase.strip())
    return _length(found) if found else None


@dataclass(frozen=True)
class Span:
    said: str
    length: timedelta


def find_span(text: str) -> Span | None:
    """The span from now said inside `text` ("remind me in 90 seconds to ..."), as said."""
    found = _INSIDE.search(text)
    return Span(found.group(0), _length(found)) if found else None


_CALENDAR_UNITS = ("minute", "hour", "day", "week", "month")
_SHIFT = re.compile(rf"^(?:by\s+)?(?P<amount>{_AMOUNT})\s+(?P<unit>{'|'.join(_CALENDAR_UNITS)})s?$", re.IGNORECASE)


def shift_length(phrase: str) -> relativedelta | None:
    """How far "a week", "two days" or "by 3 hours" moves a due, in calendar terms (a month is a month)."""
    found = _SHIFT.match(phrase.strip())
    if found is None:
        return None
    said = found["amount"].lower()
    amount = float(said) if said[0].isdigit() else _AMOUNTS[said]
    unit = found["unit"].lower()
    if unit == "month":
        return relativedelta(months=round(amount))
    return relativedelta(seconds=round(amount * {"minute": 60, "hour": 3600, "day": 86400, "week": 604800}[unit]))
