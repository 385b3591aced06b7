"""The stretch of time a question about the list asks about: a day, a week, a weekend, what is overdue,
or what comes next. Read from the words alone, against the clock, in the user's timezone."""

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from enum import Enum

from app.domain.clock import Clock
from app.domain.dates import ENGLISH, find_due_phrase, resolve_due


class Ask(Enum):
    DUE = "due"  # what falls in [start, end)
    OVERDUE = "overdue"  # what is due before `end` (now) and not done
    NEXT = "next"  # the next few things from now on


@dataclass(frozen=True)
class Period:
    ask: Ask
    label: str  # as the answer words it: "today", "on Saturday", "this weekend"
    start: datetime
    end: datetime | None  # None: no end ("what's next")
    said: str  # the words that named it, which name no entry
    with_overdue: bool = False  # a question about the days at hand also hears what is late
    still: bool = False  # "what's left": only what is still ahead


_TONIGHT = time(17, 0)  # after the working day
_NOON = time(12, 0)
_PART_OF_DAY = re.compile(r"\b(?P<part>morning|afternoon|evening|night)\b")
_PART_HOURS = {"morning": (time(0), _NOON), "afternoon": (_NOON, _TONIGHT), "evening": (_TONIGHT, None)}
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_LEFT = re.compile(r"\b(?:left|remaining|still|else|rest)\b")
_ANY_DIGIT = re.compile(r"\d")


def _midnight(day: date, clock: Clock) -> datetime:
    return datetime.combine(day, time(), tzinfo=clock.tz)


def _local_today(clock: Clock) -> date:
    return clock.now.astimezone(clock.tz).date()


def _days(first: date, count: int, clock: Clock) -> tuple[datetime, datetime]:
    return _midnight(first, clock), _midnight(first + timedelta(days=count), clock)


def on_day_label(day: date, clock: Clock) -> str:
    """ "on Saturday" for a day of the coming week, "on Thu Dec 3" further off."""
    near = 0 <= (day - _local_today(clock)).days < 7
    return f"on {day:%A}" if near else f"on {day:%a %b} {day.day}"


def _one_day(day: date, label: str, said: str, clock: Clock, with_overdue: bool = False) -> Period:
    start, end = _days(day, 1, clock)
    return Period(Ask.DUE, label, start, end, said, with_overdue)


def _overdue(found: re.Match[str], clock: Clock) -> Period:
    return Period(Ask.OVERDUE, "overdue", clock.now, clock.now, found.group(0))


def _next(found: re.Match[str], clock: Clock) -> Period:
    return Period(Ask.NEXT, "next", clock.now, None, found.group(0))


def today_period(clock: Clock, said: str = "") -> Period:
    return _one_day(_local_today(clock), "today", said, clock, with_overdue=True)


def _today_said(found: re.Match[str], clock: Clock) -> Period:
    return today_period(clock, found.group(0))


def _tomorrow(found: re.Match[str], clock: Clock) -> Period:
    return _one_day(_local_today(clock) + timedelta(days=1), "tomorrow", found.group(0), clock, with_overdue=True)


def _day_after_tomorrow(found: re.Match[str], clock: Clock) -> Period:
    return _one_day(_local_today(clock) + timedelta(days=2), "the day after tomorrow", found.group(0), clock)


def _tonight(found: re.Match[str], clock: Clock) -> Period:
    today = _local_today(clock)
    evening, midnight = datetime.combine(today, _TONIGHT, tzinfo=clock.tz), _midnight(today + timedelta(days=1), clock)
    return Period(Ask.DUE, "tonight", evening, midnight, found.group(0), with_overdue=True)


def _this_week(found: re.Match[str], clock: Clock) -> Period:
    today = _local_today(clock)
    start, end = _days(today, 7 - today.weekday(), clock)  # to the end of Sunday
    return Period(Ask.DUE, "this week", start, end, found.group(0), with_overdue=True)


def _next_week(found: re.Match[str], clock: Clock) -> Period:
    today = _local_today(clock)
    start, end = _days(today + timedelta(days=7 - today.weekday()), 7, clock)
    return Period(Ask.DUE, "next week", start, end, found.group(0))


def _weekend(found: re.Match[str], clock: Clock) -> Period:
    """This weekend (the one under way, if it is); "next weekend" is the one after next Monday, as a due
    said "next weekend" is."""
    today = _local_today(clock)
    saturday = today + timedelta(days=5 - today.weekday())
    if found.group(0).startswith("next"):
        saturday = today + timedelta(days=12 - today.weekday())
    start, end = _days(max(saturday, today), (saturday - max(saturday, today)).days + 2, clock)
    label = "next weekend" if found.group(0).startswith("next") else "this weekend"
    return Period(Ask.DUE, label, start, end, found.group(0))


def _weekday(found: re.Match[str], clock: Clock) -> Period:
    """ "on saturday", "next friday": the day a due said so would fall on; "by friday": up to its end."""
    phrase = re.sub(r"^(?:on|for|by|before|until|till)\s+", "", found.group(0))
    moment = resolve_due(phrase, clock, ENGLISH) or clock.now
    day = moment.astimezone(clock.tz).date()
    if found["by"] is None:
        return _one_day(day, on_day_label(day, clock), found.group(0), clock)
    start, end = _midnight(_local_today(clock), clock), _days(day, 1, clock)[1]
    return Period(Ask.DUE, f"by {day:%A}", start, end, found.group(0), with_overdue=True)


_PERIODS: list[tuple[re.Pattern[str], Callable[[re.Match[str], Clock], Period]]] = [
    (re.compile(pattern), build)
    for pattern, build in [
        (r"\b(?:overdue|past due|late|missed|behind)\b|\bdid\s+(?:i|we)\s+miss\b", _overdue),
        (r"\b(?:the\s+)?day\s+after\s+tomorrow\b", _day_after_tomorrow),
        (r"\b(?:tomorrow|tomorow|tmrw)(?:'s)?\b", _tomorrow),
        (r"\b(?:tonight|this\s+evening)(?:'s)?\b", _tonight),
        (r"\b(?:next|this|the|over\s+the)?\s*weekend\b", _weekend),
        (r"\bnext\s+week\b", _next_week),
        (r"\b(?:(?:this|the|rest\s+of\s+the|my)\s+)?week\b", _this_week),
        (rf"\b(?:(?P<by>by|before|until|till)\s+|(?:on|for|this|next)\s+)?{_WEEKDAY}\b", _weekday),
        (r"\b(?:today|now|my\s+day|this\s+(?:morning|afternoon))(?:'s)?\b", _today_said),
        (r"\b(?:next|coming\s+up|upcoming)\b", _next),
    ]
]  # fmt: skip


def _dated(text: str, clock: Clock) -> Period | None:
    """A date said with digits ("on the 5th", "dec 3", "12/3"): that whole day."""
    if not _ANY_DIGIT.search(text) or (found := find_due_phrase(text, clock)) is None:
        return None
    day = found.moment.astimezone(clock.tz).date()
    return _one_day(day, on_day_label(day, clock), found.text, clock)


def _still(period: Period, clock: Clock) -> Period:
    """ "what's left today": from now on, and what is late besides."""
    if period.ask is not Ask.DUE or (period.end is not None and period.end <= clock.now):
        return period
    return replace(period, start=max(period.start, clock.now), still=True, with_overdue=True)


def _whole_day(period: Period, clock: Clock) -> bool:
    day = period.start.astimezone(clock.tz)
    return period.ask is Ask.DUE and day.time() == time() and period.end == _days(day.date(), 1, clock)[1]


def _part_of_day(period: Period, text: str, clock: Clock) -> Period:
    """ "friday afternoon", "tomorrow morning": only those hours of the day named."""
    found = _PART_OF_DAY.search(text)
    if found is None or not _whole_day(period, clock):
        return period
    begins, ends = _PART_HOURS["evening" if found["part"] == "night" else found["part"]]
    day = period.start.astimezone(clock.tz).date()
    start = datetime.combine(day, begins, tzinfo=clock.tz)
    end = datetime.combine(day, ends, tzinfo=clock.tz) if ends else period.end
    label = f"this {found['part']}" if period.label == "today" else f"{period.label} {found['part']}"
    return replace(period, start=start, end=end, label=label)


def read_period(text: str, clock: Clock) -> Period | None:
    """The period a question (lower case) asks about; "what's left" alone means today; None when it
    names none."""
    found = next((build(hit, clock) for pattern, build in _PERIODS if (hit := pattern.search(text))), None)
    found = found or _dated(text, clock)
    if found is not None:
        found = _part_of_day(found, text, clock)
    if _LEFT.search(text):
        return _still(found or today_period(clock), clock)
    return found
