"""Day phrases dateparser reads otherwise than people mean them, made explicit before it reads them:
named days ("on Thanksgiving"), the day's parts at the user's hours ("this evening"), or saying am or pm of
a clock time ("tonight at 9"), ends of periods ("by the end of the week" is Friday at 17:00), "next week"
(its Monday), "next month" (its 1st), days counted ("a week from friday", "the first monday of the month")."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

from app.domain.local_calendar import MONTH_NAME, LocalCalendar
from app.domain.spoken_numbers import CARDINALS, ordinal_value

END_OF_DAY = "17:00"  # close of business, and the hour the end of a week or month is due
LATER_TODAY = timedelta(hours=3)
# Words that make a phrase a deadline; the due is the moment named, and the words leave the summary.
DEADLINE = r"(?:by|before|until|till|til|no later than|not later than|in time for|due(?:\s+(?:by|on|before))?)"
_LEAD = re.compile(rf"^(?:{DEADLINE}|for)\s+", re.IGNORECASE)
_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)day"
_PART = r"(?:morning|afternoon|evening|night)"
# What may stand next to a named phrase and belongs to it: a day before it, a time after it.
_DAY_WORD = rf"(?:today|tomorrow|(?:on\s+|this\s+|next\s+)?{_WEEKDAY})"
_CLOCK_WORD = r"at\s+\d{1,2}(?::\d\d)?(?:\s*[ap]\.?m\.?)?"
_TIME_WORD = rf"(?:{_CLOCK_WORD}|at\s+noon|at\s+midnight|noon|midnight|(?:in\s+the\s+)?{_PART})"
_MONTH = rf"(?:{MONTH_NAME})"
# "june 30", "the 5th of may": dateparser's search splits these when a deadline word comes first.
_MONTH_DAY = (
    rf"(?:{_MONTH}\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH})\b"
)
# "before the 20th": that day of this month, or of the next once it is past.
_ORDINAL_DAY = r"(?:on\s+)?the\s+\d{1,2}(?:st|nd|rd|th)\b(?!\s+of\b)"
# "a week from friday", "the first monday of the month": days dateparser cannot count.
_WEEKS_FROM = rf"(?P<count>a|one|two|three|four|\d)\s+weeks?\s+from\s+(?:on\s+)?(?P<start>today|tomorrow|{_WEEKDAY})"
_NTH_WEEKDAY = (
    rf"(?:on\s+)?(?:the\s+)?(?P<nth>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(?P<weekday>{_WEEKDAY})"
    r"\s+of\s+(?P<which>the|this|next)\s+month"
)
_DAY_PREPOSITIONS = frozenset("on at for by before until till after over during this next".split())
_NOT_A_NOUN = frozenset("at on in by and or to for with from this next before after until the a , . ! ?".split())
_PERIODS = (
    r"(?:the\s+)?day\s+after\s+tomorrow|later\s+today|later\s+on|in\s+(?:half\s+an\s+hour|an\s+hour\s+and\s+a\s+half)"
    r"|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+|next\s+)?(?:day|week|month)|close\s+of\s+business|end\s+of\s+business"
    r"|\bcob\b|\beod\b|next\s+(?:week|month|year|weekend)|(?:this\s+|the\s+|over\s+the\s+)?weekend"
    r"|first\s+thing(?:\s+in\s+the\s+morning)?|(?:at|by|before|after|around)\s+lunch(?:\s*time)?|lunchtime|tonight"
    rf"|this\s+{_PART}|in\s+the\s+{_PART}|{_WEEKS_FROM}|{_NTH_WEEKDAY}"
)


def _next_weekday(today: date, weekday: int) -> date:
    """That weekday this week, or next week once it is past (today counts)."""
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _next_monday(today: date) -> date:
    return today + timedelta(days=7 - today.weekday())


def _iso(day: date) -> str:
    return day.isoformat()


def _end_of_week(which: str, now: datetime) -> str:
    friday = _next_weekday(now.date(), 4)
    if friday == now.date() and now.strftime("%H:%M") >= END_OF_DAY:
        friday += timedelta(days=7)
    if "next" in which:
        friday = _next_monday(now.date()) + timedelta(days=4)
    return f"{_iso(friday)} at {END_OF_DAY}"


def _end_of_month(which: str, now: datetime) -> str:
    month = now.date().replace(day=1) + relativedelta(months=1 if "next" in which else 0)
    last = month + relativedelta(months=1) - timedelta(days=1)
    if last == now.date() and now.strftime("%H:%M") >= END_OF_DAY:
        last = month + relativedelta(months=2) - timedelta(days=1)
    return f"{_iso(last)} at {END_OF_DAY}"


def _next_period(which: str, now: datetime) -> str:
    today = now.date()
    if which.endswith("week"):
        return _iso(_next_monday(today))
    if which.endswith("weekend"):
        return _iso(_next_monday(today) + timedelta(days=5))
    if which.endswith("month"):
        return _iso(today.replace(day=1) + relativedelta(months=1))
    return _iso(date(today.year + 1, 1, 1))


def _at(clock_time: str) -> str:
    return f"at {clock_time}"


Rewrite = Callable[[re.Match[str], datetime, LocalCalendar], str]


def _next_day_of_month(day: int, now: datetime) -> str:
    """ "the 20th": the next time that day of the month comes round (today counts)."""
    month = now.date().replace(day=1)
    for _ in range(14):
        if day <= (month + relativedelta(months=1) - timedelta(days=1)).day and month.replace(day=day) >= now.date():
            return _iso(month.replace(day=day))
        month += relativedelta(months=1)
    return f"the {day}th"  # no such day (the 32nd): left for dateparser to refuse


# A clock time said with a part of the day, either way round and with a day between ("tonight at 9", "at 8
# tomorrow morning", "tomorrow night at 10"). Read as one time: the part made into a second clock time of its
# own left dateparser two times, and it took the second number for a month.
_PART_SAID = r"(?:(?P<lead>this|in\s+the)\s+)?(?P<part>morning|afternoon|evening|night|tonight)"
_HOUR_SAID = r"at\s+(?P<hour>\d{1,2})(?::(?P<minute>[0-5]\d))?(?:\s*(?P<half>[ap])\.?m\.?)?(?![\w:])"
_DAY_SAID = rf"(?:(?P<day>{_DAY_WORD})\s+)?"


def _half_of(part: str, hour: int) -> str:
    """A morning hour is am, any later part's pm; 12 at night is midnight."""
    return "a" if part == "morning" or (hour == 12 and part in ("night", "tonight")) else "p"


def _clock_in_part(found: re.Match[str]) -> str:
    """ "tonight at 9" -> "today at 9:00pm", "at 8 tomorrow morning" -> "tomorrow at 8:00am"."""
    part, hour, minute = found["part"], int(found["hour"]), found["minute"] or "00"
    day = found["day"] or ("today" if part == "tonight" or found["lead"] == "this" else "")
    if not 1 <= hour <= 12:  # a 24-hour time says it all
        return f"{day} at {hour:02d}:{minute}".strip()
    return f"{day} at {hour}:{minute}{found['half'] or _half_of(part, hour)}m".strip()


def _part_of_today(part: str, now: datetime, calendar: LocalCalendar) -> str:
    """ "tonight", "this evening": today at the user's hour for it, or, once that has passed, today without
    an hour (later today, as "today" is), never tomorrow."""
    at = calendar.part_of_day(part)
    return f"today at {at:%H:%M}" if now.time() < at else "today"


_WEEKDAYS = (MO, TU, WE, TH, FR, SA, SU)


def _weekday_said(said: str) -> int:
    return ("mon", "tue", "wed", "thu", "fri", "sat", "sun").index(said[:3])


def _nth_weekday_of_month(found: re.Match[str], now: datetime) -> str:
    """ "the first monday of the month": this month's, or the next month's once this one's is past (today counts)."""
    nth = -1 if found["nth"] == "last" else ordinal_value(found["nth"]) or 1
    wanted = relativedelta(day=31 if nth < 0 else 1, weekday=_WEEKDAYS[_weekday_said(found["weekday"])](nth))
    month = now.date().replace(day=1) + relativedelta(months=found["which"] == "next")
    said = month + wanted
    return _iso(said if said >= now.date() else month + relativedelta(months=1) + wanted)


def _weeks_from(found: re.Match[str], now: datetime) -> str:
    """ "a week from friday", "two weeks from tomorrow": counted from that day; a weekday is the coming one, as
    "friday" said on a Friday is next week's."""
    count, start = found["count"], found["start"]
    weeks = int(count) if count.isdigit() else CARDINALS.get(count, 1)  # "a week"
    if start in ("today", "tomorrow"):
        day = now.date() + timedelta(days=start == "tomorrow")
    else:
        day = now.date() + relativedelta(days=1, weekday=_WEEKDAYS[_weekday_said(start)])
    return _iso(day + timedelta(weeks=weeks))


_REWRITES: list[tuple[re.Pattern[str], Rewrite]] = [
    (re.compile(rf"\b{_HOUR_SAID}\s+{_DAY_SAID}{_PART_SAID}\b"), lambda m, now, c: _clock_in_part(m)),
    (re.compile(rf"\b{_DAY_SAID}{_PART_SAID}\s+{_HOUR_SAID}"), lambda m, now, c: _clock_in_part(m)),
    (re.compile(rf"\b{_WEEKS_FROM}\b"), lambda m, now, c: _weeks_from(m, now)),
    (re.compile(rf"\b{_NTH_WEEKDAY}\b"), lambda m, now, c: _nth_weekday_of_month(m, now)),
    (re.compile(r"\bhalf\s+an\s+hour\b"), lambda m, now, c: "30 minutes"),
    (re.compile(r"\ban\s+hour\s+and\s+a\s+half\b"), lambda m, now, c: "90 minutes"),
    (re.compile(r"\b(?:on\s+)?the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\b(?!\s+of\b)"),
     lambda m, now, c: _next_day_of_month(int(m["day"]), now)),
    (re.compile(r"\b(?:the\s+)?day\s+after\s+tomorrow\b"), lambda m, now, c: _iso(now.date() + timedelta(days=2))),
    (re.compile(r"\b(?:the\s+)?end\s+of\s+(?P<which>(?:the\s+|this\s+|next\s+)?)week\b"),
     lambda m, now, c: _end_of_week(m["which"], now)),
    (re.compile(r"\b(?:the\s+)?end\s+of\s+(?P<which>(?:the\s+|this\s+|next\s+)?)month\b"),
     lambda m, now, c: _end_of_month(m["which"], now)),
    (re.compile(r"\b(?:(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?:business\s+)?day|close\s+of\s+business"
                r"|end\s+of\s+business|cob|eod)\b"), lambda m, now, c: _at(END_OF_DAY)),
    (re.compile(r"\bnext\s+(?P<which>week|month|year|weekend)\b"), lambda m, now, c: _next_period(m["which"], now)),
    (re.compile(r"\b(?:this\s+|the\s+|over\s+the\s+)?weekend\b"), lambda m, now, c: _iso(_next_weekday(now.date(), 5))),
    (re.compile(r"\bfirst\s+thing(?:\s+in\s+the\s+morning)?\b"), lambda m, now, c: _at(f"{c.morning:%H:%M}")),
    (re.compile(r"\bafter\s+lunch\b"), lambda m, now, c: _at("13:00")),
    (re.compile(r"\b(?:at\s+)?lunch(?:\s*time)?\b"), lambda m, now, c: _at("12:00")),
    (re.compile(r"\b(?:at\s+)?(?:noon|midday)\b"), lambda m, now, c: _at("12:00")),
    (re.compile(r"\b(?:at\s+)?midnight\b"), lambda m, now, c: _at("00:00")),
    (re.compile(rf"\b(?:this\s+(?P<part>{_PART})|tonight)\b"),
     lambda m, now, c: _part_of_today(m["part"] or "night", now, c)),
    (re.compile(rf"\b(?:in\s+the\s+|at\s+)?(?P<part>{_PART})\b"),
     lambda m, now, c: _at(f"{c.part_of_day(m['part']):%H:%M}")),
]  # fmt: skip


@lru_cache(maxsize=16)
def _named_days(calendar: LocalCalendar, year: int) -> tuple[str, dict[str, tuple[date, ...]]]:
    """A pattern of the named days (an apostrophe may be left out: recognizers drop it), and their dates
    by name without apostrophes."""
    names = calendar.named_days((year, year + 1, year + 2))
    alternatives = "|".join(re.escape(n).replace("'", "'?") for n in sorted(names, key=len, reverse=True))
    return rf"(?:the\s+)?(?P<name>{alternatives})(?!\w)", {n.replace("'", ""): days for n, days in names.items()}


def explicit(phrase: str, now: datetime, calendar: LocalCalendar) -> str | datetime:
    """`phrase` (lower case, naive local `now`) in words dateparser reads as meant, or the moment itself;
    the phrase unchanged when it holds nothing this module knows."""
    phrase = _LEAD.sub("", phrase.strip().lower())
    if re.fullmatch(r"later(?:\s+today|\s+on)?", phrase):
        return (now + LATER_TODAY).replace(second=0, microsecond=0)
    pattern, days = _named_days(calendar, now.year)

    def named_day(found: re.Match[str]) -> str:
        upcoming = [d for d in days[found["name"].replace("'", "")] if d >= now.date()]
        return _iso(upcoming[0]) if upcoming else found.group(0)

    phrase = re.sub(rf"(?:\b(?:at|on|for)\s+)?\b{pattern}", named_day, phrase)  # "at 2027-03-28" is no time
    for rewrite_pattern, rewrite in _REWRITES:
        phrase = rewrite_pattern.sub(_at_now(rewrite, now, calendar), phrase)
    return re.sub(r"\s+", " ", phrase).strip()


def _at_now(rewrite: Rewrite, now: datetime, calendar: LocalCalendar) -> Callable[[re.Match[str]], str]:
    return lambda found: rewrite(found, now, calendar)


def yearly_named_day(text: str, now: datetime, calendar: LocalCalendar) -> tuple[str, str] | None:
    """ "every christmas eve": a named day that falls on one date each year, as a yearly rule and the words
    said. (A movable one, Easter or Thanksgiving, has no such rule here: it is due on its next date, once.)"""
    pattern, days = _named_days(calendar, now.year)
    found = re.search(rf"\b(?:every|each)\s+(?:year\s+on\s+)?{pattern}", text, re.IGNORECASE)
    if found is None:
        return None
    dates = {(day.month, day.day) for day in days[found["name"].lower().replace("'", "")]}
    if len(dates) != 1:
        return None
    [(month, day)] = dates
    return f"FREQ=YEARLY;BYMONTH={month};BYMONTHDAY={day}", found.group(0)


@dataclass(frozen=True)
class DaySaid:
    phrase: str
    names_thing: bool  # "Christmas Eve dinner": the day names the dinner, and is its date only if none other is said


def find_day_phrase(text: str, now: datetime, calendar: LocalCalendar) -> DaySaid | None:
    """The first phrase in `text` that names a day or a part of one the way this module reads it (or a
    month and day, which dateparser's search may split), with the day before it and the time after
    it ("tomorrow after lunch", "on Thanksgiving at noon", "before June 30"). A named day that names a
    thing ("the christmas cards") comes only when there is no other."""
    named = rf"(?:{_named_days(calendar, now.year)[0]}|{_PERIODS}|{_MONTH_DAY}|{_ORDINAL_DAY})"
    around = re.compile(
        rf"(?:\b{DEADLINE}\s+)?(?:\b{_DAY_WORD}\s+)?(?:\b{_CLOCK_WORD}\s+)?(?<!\w)(?P<day>{named})(?!\w)(?:\s+(?:{_TIME_WORD}|{_DAY_WORD})\b)?",
        re.IGNORECASE,
    )
    naming: DaySaid | None = None
    for found in around.finditer(text):
        said = DaySaid(found.group(0), names_thing=found["name"] is not None and _names_a_thing(text, found))
        if not said.names_thing:
            return said
        naming = naming or said
    return naming


def _names_a_thing(text: str, found: re.Match[str]) -> bool:
    """A named day alone before a noun names the thing, not only its date: "thanksgiving dinner", "the
    christmas cards"; "on New Year's Day go swimming" is a date."""
    if found.group(0) != found["day"]:
        return False
    before, after = text[: found.start()].lower().split(), text[found.end() :].lower().split()
    if before and before[-1] in _DAY_PREPOSITIONS:
        return False
    return bool(after) and after[0].strip(",.!?") not in _NOT_A_NOUN
