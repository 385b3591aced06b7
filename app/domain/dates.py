"""Due dates: spoken phrases resolved against "now" in the user's timezone, preferring the future.

Rules a user can predict:
- A phrase with a time ("at 5pm", "friday morning", "in 2 hours") keeps that time; a time that
  has already passed today means tomorrow.
- A phrase with only a day ("Thursday", "tomorrow", "dec 3") is due at 09:00 that day; "today"
  after 09:00 is due at the next full hour.
- A bare clock time ("at 5", "at 3:15", "half past six") is the sensible daytime hour: with a day, 7-11
  is the morning and 12-6 the afternoon; alone, the next such time from now ("at 8" said at 10:00 is
  20:00). dateparser alone reads "at 5" as May and "3:15" as the night.
- A phrase dateparser cannot read ("in 3 business days") resolves to None; callers keep the
  phrase as the entry's `due_text`, so nothing the user said is dropped.
Wall-clock arithmetic is done on naive local times and the zone attached last, so a date
across a daylight-saving change keeps its hour.
"""

import re
from datetime import datetime, time, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from app.domain.enums import Cadence

if TYPE_CHECKING:  # dateparser takes a fifth of a second to import: only a date to read loads it
    from dateparser.date import DateDataParser

DEFAULT_DUE_TIME = time(9, 0)
ENGLISH = ("en",)  # the offline rules' cue words are English, so their date search is too

# Periods dateparser reports when the phrase itself named a time of day.
_TIMED_PERIODS = {"time", "part_of_day"}
_DAY_OF_MONTH = re.compile(r"^(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)?$", re.IGNORECASE)

# A phrase found inside a sentence only counts as a date when it carries one of these words or
# a digit: dateparser's search also reads "may", "now" and "second" as dates.
_DATE_WORDS = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri
    today tomorrow tonight yesterday noon midnight morning afternoon evening night weekend
    week weeks month months year years day days hour hours minute minutes fortnight
    next am pm a.m. p.m. o'clock
    january february april june july august september october november december
    jan feb apr jun jul aug sep sept oct nov dec
    """.split()
)


def _settings(now_local: datetime) -> dict[str, object]:
    return {
        "PREFER_DATES_FROM": "future",
        "RELATIVE_BASE": now_local,
        "RETURN_TIME_AS_PERIOD": True,
    }


@lru_cache(maxsize=8)
def _parser(now_local: datetime, languages: tuple[str, ...]) -> "DateDataParser":
    from dateparser.date import DateDataParser

    return DateDataParser(languages=list(languages), settings=_settings(now_local))


def _local_naive(moment: datetime, tz: ZoneInfo) -> datetime:
    return moment.astimezone(tz).replace(tzinfo=None)


def _attach(naive_local: datetime, tz: ZoneInfo) -> datetime:
    return naive_local.replace(tzinfo=tz)


def _next_day_of_month(day: int, now_local: datetime) -> datetime | None:
    """ "the 1st": the next time that day of the month comes round (dateparser misreads it)."""
    if not 1 <= day <= 31:
        return None
    candidate = now_local.replace(hour=0, minute=0, second=0, microsecond=0)
    for months_ahead in range(0, 14):
        month_start = (candidate + relativedelta(months=months_ahead)).replace(day=1)
        try:
            target = month_start.replace(day=day)
        except ValueError:  # the 31st in a 30-day month
            continue
        if target.date() >= now_local.date():
            return target
    return None


_NUMBER_WORDS = {
    word: n for n, word in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), start=1)
}
_SPOKEN_TIME = re.compile(
    r"\b(?:(?P<half>half)\s+past|(?P<quarter>quarter)\s+(?P<rel>past|to))\s+(?P<spoken>\d{1,2}|"
    + "|".join(_NUMBER_WORDS)
    + r")\b",
    re.IGNORECASE,
)
# "at 5", "at 3:15", "5:30": a clock time with nothing saying morning or afternoon.
_BARE_TIME = re.compile(
    r"(?:\bat\s+(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?|\b(?P<h>\d{1,2}):(?P<m>\d{2}))"
    r"(?!\s*(?:am|pm|a\.m\.|p\.m\.|h\b|o'?clock\s+(?:in|at)\b|%|percent|(?:min(?:ute)?|hour|hr|day|week|month|year)s?\b))"
    r"(?![\d:])",
    re.IGNORECASE,
)
_DAYTIME = range(7, 22)  # a bare hour is read as one of these
_DAY_OF_MONTH_IN_TEXT = re.compile(r"\bon\s+the\s+\d{1,2}(?:st|nd|rd|th)\b", re.IGNORECASE)
# "at 3" in a sentence: an hour of the clock, not "at 30 percent" or "at 5 minutes past" (read whole elsewhere).
_CLOCK_IN_TEXT = re.compile(r"\bat\s+(?:1[0-2]|[1-9])(?::[0-5]\d)?\b(?![\d:.,]\d|\s*(?:%|percent|minutes?|hours?)\b)")


def _spoken_to_digits(phrase: str) -> str:
    """ "half past six" -> "at 6:30", "quarter to nine" -> "at 8:45"."""

    def digits(match: re.Match[str]) -> str:
        spoken = match.group("spoken").lower()
        hour = int(spoken) if spoken.isdigit() else _NUMBER_WORDS[spoken]
        if match.group("half"):
            return f"at {hour}:30"
        if match.group("rel").lower() == "past":
            return f"at {hour}:15"
        return f"at {(hour - 2) % 12 + 1}:45"

    return _SPOKEN_TIME.sub(digits, phrase)


def _daytime_hour(hour: int) -> int:
    """7-11 in the morning, 12 at noon, 1-6 in the afternoon."""
    return hour + 12 if 1 <= hour <= 6 else hour


def _next_daytime(hour: int, minute: int, now_local: datetime) -> datetime:
    """The next moment after now at hour:minute or twelve hours later that falls in the day."""
    candidates = sorted(
        datetime.combine(now_local.date() + timedelta(days=days), time(h % 24, minute))
        for days in (0, 1)
        for h in {hour % 12, hour % 12 + 12}
    )
    return next(c for c in candidates if c > now_local and c.hour in _DAYTIME)


def _bare_time(phrase: str, now_local: datetime) -> tuple[str, datetime | None]:
    """The phrase with a bare clock time made unambiguous (24-hour), or the moment itself when the
    phrase is nothing but the time."""
    match = _BARE_TIME.search(phrase)
    if match is None:
        return phrase, None
    hour = int(match.group("hour") or match.group("h"))
    minute = int(match.group("minute") or match.group("m") or 0)
    if not (1 <= hour <= 12 and minute < 60):
        return phrase, None  # "at 17:00" says it all; "at 0:30" too
    rest = (phrase[: match.start()] + phrase[match.end() :]).strip(" ,")
    if not rest:
        return phrase, _next_daytime(hour, minute, now_local)
    return f"{rest} at {_daytime_hour(hour):02d}:{minute:02d}", None


def _with_default_time(day_local: datetime, now_local: datetime) -> datetime:
    due = datetime.combine(day_local.date(), DEFAULT_DUE_TIME)
    if due <= now_local and day_local.date() == now_local.date():
        due = now_local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    return due


def resolve_due(phrase: str, now: datetime, tz: ZoneInfo, languages: tuple[str, ...] = ENGLISH) -> datetime | None:
    """The moment `phrase` means, said at `now` in `tz` (in one of `languages`); None when unreadable."""
    phrase = phrase.strip()
    if not phrase:
        return None
    return _resolve_local(phrase, _local_naive(now, tz).replace(microsecond=0), tz, languages)


# A batch often repeats a phrase ("tomorrow"), and dateparser takes about a millisecond a call.
@lru_cache(maxsize=256)
def _resolve_local(phrase: str, now_local: datetime, tz: ZoneInfo, languages: tuple[str, ...]) -> datetime | None:
    phrase, moment = _bare_time(_spoken_to_digits(phrase), now_local)
    if moment is not None:
        return _attach(moment, tz)
    day_of_month = _DAY_OF_MONTH.match(phrase)
    if day_of_month:
        day = _next_day_of_month(int(day_of_month.group(1)), now_local)
        return None if day is None else _attach(_with_default_time(day, now_local), tz)
    data = _parser(now_local, languages).get_date_data(phrase)
    if data.date_obj is None:
        return None
    parsed = data.date_obj
    if parsed.tzinfo is not None:  # the phrase named a zone ("5pm UTC")
        parsed = _local_naive(parsed, tz)
    if data.period not in _TIMED_PERIODS:
        parsed = _with_default_time(parsed, now_local)
    return _attach(parsed.replace(microsecond=0), tz)


def _looks_like_date(phrase: str) -> bool:
    words = re.findall(r"[a-z.']+|\d", phrase.lower())
    return any(word.isdigit() or word in _DATE_WORDS for word in words)


def find_due_phrase(text: str, now: datetime, tz: ZoneInfo) -> tuple[str, datetime] | None:
    """The first date phrase inside `text` and what it resolves to, if any."""
    from dateparser.search import search_dates

    now_local = _local_naive(now, tz).replace(microsecond=0)
    found = search_dates(text, languages=list(ENGLISH), settings=_settings(now_local)) or []
    for phrase, _ in found:
        if not _looks_like_date(phrase):
            continue
        resolved = resolve_due(phrase, now, tz)
        if resolved is not None:
            return phrase, resolved
    # What dateparser's search misses: "on the 1st", "at 3", "half past six".
    for pattern in (_DAY_OF_MONTH_IN_TEXT, _CLOCK_IN_TEXT, _SPOKEN_TIME):
        found_here = pattern.search(text)
        if found_here:
            resolved = resolve_due(found_here.group(0), now, tz)
            if resolved is not None:
                return found_here.group(0), resolved
    return None


def _advance(local: datetime, cadence: Cadence) -> datetime:
    if cadence is Cadence.DAILY:
        return local + timedelta(days=1)
    if cadence is Cadence.WEEKDAYS:
        local += timedelta(days=1)
        while local.weekday() >= 5:
            local += timedelta(days=1)
        return local
    if cadence is Cadence.WEEKLY:
        return local + timedelta(weeks=1)
    return local + relativedelta(months=1)


def next_occurrence(cadence: Cadence, due: datetime | None, now: datetime, tz: ZoneInfo) -> datetime:
    """The habit's next due time after `now`, stepping from its current due time by its cadence."""
    now_local = _local_naive(now, tz)
    if due is None:
        local = datetime.combine(now_local.date(), DEFAULT_DUE_TIME)
    else:
        local = _local_naive(due, tz)
    # Step at least once: completing today's habit moves it to the next period even if early.
    local = _advance(local, cadence)
    while local <= now_local:
        local = _advance(local, cadence)
    return _attach(local, tz)
