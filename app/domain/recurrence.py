"""Repeat rules of habits: iCalendar RRULE bodies (dateutil's rrule) read from speech, checked, stepped, described.

A rule is an RRULE body without DTSTART or the "RRULE:" prefix ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"), its
parts in one order (FREQ, INTERVAL unless 1, BYMONTH, BYMONTHDAY, BYDAY), so equal rules are equal strings.
Occurrences are worked out on naive local wall-clock times and the zone attached last, so a habit keeps its
hour across a daylight-saving change. A monthly or yearly day past the 28th falls on the last day of a
shorter month ("monthly" from 31 October is next due 30 November) where RFC 5545 would skip the month.
"""

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from dateutil.rrule import rrule, rrulestr

from app.domain.dates import DEFAULT_DUE_TIME
from app.domain.enums import Cadence
from app.domain.local_calendar import MONTHS
from app.domain.spoken_numbers import CARDINALS, ORDINAL_WORDS, ordinal_value
from app.errors import InvalidActionError

_PART_ORDER = ("FREQ", "INTERVAL", "BYMONTH", "BYMONTHDAY", "BYDAY")
# No hourly rules: a habit's time of day is its due time.
_FREQ_OF_UNIT = {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}
_UNIT_OF_FREQ = {freq: unit for unit, freq in _FREQ_OF_UNIT.items()}
_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # 29 February comes round in leap years
_WEEK_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_WEEK_ORDINALS |= {"fifth": 5, "5th": 5, "last": -1}
_ORDINAL_NAMES = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last"}
_CHECK_START = datetime(2000, 1, 1)  # a leap year, so a rule for 29 February is seen to come round

WEEKDAYS_RULE = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
_CADENCE_RULES = {
    Cadence.DAILY: "FREQ=DAILY",
    Cadence.WEEKDAYS: WEEKDAYS_RULE,
    Cadence.WEEKLY: "FREQ=WEEKLY",
    Cadence.MONTHLY: "FREQ=MONTHLY",
}


@dataclass(frozen=True)
class SpokenRecurrence:
    rule: str
    phrase: str  # the words as said, to cut from the summary
    day_part: str | None  # "morning", "afternoon", "evening" or "night" when the phrase names one


def rule_for_cadence(cadence: Cadence) -> str:
    """The rule for one of the four old cadence words (the LLM tools' first vocabulary)."""
    return _CADENCE_RULES[cadence]


# --- the rule's text ------------------------------------------------------------------------------


def _day_order(code: str) -> tuple[int, bool, int]:
    """MO before TU; within one weekday 1MO before 2MO before -1MO."""
    n = int(code[:-2] or 0)
    return _DAY_CODES.index(code[-2:]), n < 0, n


def _rule(
    freq: str,
    interval: int = 1,
    months: Sequence[int] = (),
    monthdays: Sequence[int] = (),
    days: Sequence[str] = (),
) -> str:
    parts = [f"FREQ={freq}"]
    if interval != 1:
        parts.append(f"INTERVAL={interval}")
    if months:
        parts.append("BYMONTH=" + ",".join(map(str, sorted(set(months)))))
    if monthdays:
        parts.append("BYMONTHDAY=" + ",".join(map(str, sorted(set(monthdays), key=lambda d: (d < 0, d)))))
    if days:
        parts.append("BYDAY=" + ",".join(sorted(set(days), key=_day_order)))
    return ";".join(parts)


def _parts(rule: str) -> dict[str, str]:
    return dict(piece.partition("=")[::2] for piece in rule.split(";") if piece)


def _ints(value: str | None) -> list[int]:
    return [int(n) for n in value.split(",")] if value else []


def _check_ranges(body: str, parts: Mapping[str, str]) -> None:
    """What dateutil lets through but never comes round: INTERVAL=0, BYMONTH=13, BYMONTHDAY=40."""
    limits = {"INTERVAL": (1, 999), "BYMONTH": (1, 12), "BYMONTHDAY": (-31, 31)}
    for name, (low, high) in limits.items():
        try:
            values = _ints(parts.get(name))
        except ValueError:
            raise InvalidActionError(f"can't read the repeat rule {body!r}: {name} takes whole numbers") from None
        if any(not low <= n <= high or n == 0 for n in values):
            raise InvalidActionError(f"can't read the repeat rule {body!r}: {name} goes from {low} to {high}")


def canonical_rule(body: str) -> str:
    """`body` (an RRULE body in any case and part order, "RRULE:" allowed) in the canonical form; an
    InvalidActionError in one line when dateutil cannot read it or it has parts a habit does not use."""
    text = re.sub(r"\s+", "", body).upper().removeprefix("RRULE:")
    if not all("=" in piece for piece in text.split(";") if piece):
        raise InvalidActionError(f"can't read the repeat rule {body!r}: expected parts like FREQ=WEEKLY;BYDAY=MO")
    parts = _parts(text)
    unused = [name for name in parts if name not in _PART_ORDER]
    if unused:
        raise InvalidActionError(
            f"the repeat rule {body!r} has {', '.join(unused)}; a habit's rule has only {', '.join(_PART_ORDER)}"
        )
    if parts.get("FREQ") not in _UNIT_OF_FREQ:
        raise InvalidActionError(f"the repeat rule {body!r} needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY")
    _check_ranges(body, parts)
    try:
        rrulestr(text, dtstart=_CHECK_START)  # dateutil's reading is the judge of the rest (BYDAY)
    except ValueError as error:
        raise InvalidActionError(f"can't read the repeat rule {body!r}: {error}") from None
    canonical = _rule(
        parts["FREQ"],
        int(parts.get("INTERVAL", 1)),
        _ints(parts.get("BYMONTH")),
        _ints(parts.get("BYMONTHDAY")),
        [day.lstrip("+") for day in parts["BYDAY"].split(",")] if "BYDAY" in parts else (),
    )
    _after(canonical, _rrule(canonical, _CHECK_START), _CHECK_START)  # 30 February never comes round
    return canonical


def rule_from(said: str) -> str | None:
    """A rule from what a model or the user wrote: an RRULE body, an old cadence word or spoken words
    ("every other monday"); None when it names no repeat, InvalidActionError for a malformed RRULE."""
    said = said.strip()
    if "=" in said:
        return canonical_rule(said)
    try:
        return rule_for_cadence(Cadence(said.lower()))
    except ValueError:
        found = find_recurrence(said)
        return None if found is None else found.rule


# --- occurrences ----------------------------------------------------------------------------------


def _rrule(rule: str, start: datetime) -> rrule:
    parts = _parts(rule)
    parsed = rrulestr(rule, dtstart=start)
    assert isinstance(parsed, rrule)  # a body alone is one rule, never a set
    monthdays = _ints(parts.get("BYMONTHDAY")) or [start.day]
    months = _ints(parts.get("BYMONTH")) or [start.month]
    freq = parts["FREQ"]
    if freq in ("MONTHLY", "YEARLY") and "BYDAY" not in parts and len(monthdays) == 1 and monthdays[0] > 28:
        if freq == "MONTHLY" or len(months) == 1:
            # The 31st in a 30-day month (29 February in other years) is the month's last day, not skipped.
            bymonth = months if freq == "YEARLY" else _ints(parts.get("BYMONTH")) or None
            return parsed.replace(bymonth=bymonth, bymonthday=range(28, monthdays[0] + 1), bysetpos=-1)
    return parsed


def _after(rule: str, occurrences: rrule, moment: datetime, inclusive: bool = False) -> datetime:
    found = occurrences.after(moment, inc=inclusive)
    if found is None:
        raise InvalidActionError(f"the repeat rule {rule!r} never comes round")
    return found


def first_occurrence(rule: str, after_local: datetime, at: time) -> datetime:
    """The rule's first time strictly after `after_local` (naive local wall-clock), at clock time `at`.

    A rule naming its days (BYDAY, BYMONTHDAY, BYMONTH) falls on the first such day, its interval counted
    from there ("every other monday" said on a Friday: the coming Monday). One that names none ("every
    week", "every 10 days") starts at the next `at`: today if still ahead, else tomorrow.
    """
    start = datetime.combine(after_local.date(), at)
    if start <= after_local:
        start += timedelta(days=1)
    if not {"BYMONTH", "BYMONTHDAY", "BYDAY"} & set(_parts(rule)):
        return start
    return _after(rule, _rrule(rule, start).replace(interval=1), start, inclusive=True)


def next_occurrence(rule: str, due: datetime | None, now: datetime, tz: ZoneInfo) -> datetime:
    """The habit's next time after both its due time and `now`, at the due's clock time: done early it
    still moves on one step, done late it skips what was missed. The rule counts from the due (its
    DTSTART), so "every other monday" keeps its fortnight; with no due it counts from today at 09:00."""
    now_local = now.astimezone(tz).replace(tzinfo=None)
    if due is None:
        start = datetime.combine(now_local.date(), DEFAULT_DUE_TIME)
    else:
        start = due.astimezone(tz).replace(tzinfo=None)
    return _after(rule, _rrule(rule, start), max(start, now_local)).replace(tzinfo=tz)


# --- in words -------------------------------------------------------------------------------------


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _every(unit: str, interval: int) -> str:
    """ "every month", "every other month", "every 3 months"."""
    return {1: f"every {unit}", 2: f"every other {unit}"}.get(interval, f"every {interval} {unit}s")


def _nth(day: int) -> str:
    if day == -1:
        return "last day"
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _weekday_words(days: Sequence[str], freq: str, interval: int) -> str | None:
    """ "every Monday and Thursday", "every other Monday", "on the first Monday of every month"."""
    names = [_DAY_NAMES[_DAY_CODES.index(code[-2:])].capitalize() for code in days]
    counts = [int(code[:-2] or 0) for code in days]
    if any(counts):
        if freq != "MONTHLY" or not all(n in _ORDINAL_NAMES for n in counts):
            return None
        nth = [f"{_ORDINAL_NAMES[n]} {name}" for n, name in zip(counts, names, strict=True)]
        return f"on the {_listed(nth)} of {_every('month', interval)}"
    if interval == 1:
        return {"MO,TU,WE,TH,FR": "every weekday", "SA,SU": "every weekend"}.get(
            ",".join(days), f"every {_listed(names)}"
        )
    if freq != "WEEKLY":
        return None
    return f"every other {_listed(names)}" if interval == 2 else f"every {interval} weeks on {_listed(names)}"


def describe(rule: str) -> str:
    """The rule in plain words for a list or a card ("every other Monday", "on the 15th of every month");
    one these words cannot say is shown as it is."""
    parts = _parts(rule)
    freq, interval = parts["FREQ"], int(parts.get("INTERVAL", 1))
    months, monthdays = _ints(parts.get("BYMONTH")), _ints(parts.get("BYMONTHDAY"))
    days = parts["BYDAY"].split(",") if "BYDAY" in parts else []
    words: str | None = None
    if days and not months and not monthdays:
        words = _weekday_words(days, freq, interval)
    elif freq == "MONTHLY" and monthdays and not months and not days:
        words = f"on the {_listed([_nth(d) for d in monthdays])} of {_every('month', interval)}"
    elif freq == "YEARLY" and len(months) == 1 and len(monthdays) == 1 and monthdays[0] > 0 and not days:
        words = f"{_every('year', interval)} on {MONTHS[months[0] - 1].capitalize()} {monthdays[0]}"
    elif not (days or months or monthdays):
        words = _every(_UNIT_OF_FREQ[freq], interval)
    return words or rule


# --- from speech ----------------------------------------------------------------------------------

_DAY_NAME = "(?:" + "|".join(_DAY_NAMES) + ")"
_DAY = rf"{_DAY_NAME}s?\b"
_DAYS = rf"{_DAY}(?:(?:\s*,)?\s+(?:and\s+)?(?:every\s+|each\s+|on\s+)?{_DAY})*"
_PLURAL_DAYS = rf"{_DAY_NAME}s\b(?:(?:\s*,)?\s+(?:and\s+)?{_DAY_NAME}s\b)*"
_NUMBER = r"(?:\d{1,3}|" + "|".join(CARDINALS) + r")\b"
_DOM_SAID = rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{ORDINAL_WORDS}|last\s+day)\b"  # "the 15th", "the fifteenth"
_DOM = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?|{ORDINAL_WORDS}|last(?:\s+day)?)\b"
_DOMS = rf"{_DOM}(?:\s+and\s+(?:the\s+)?{_DOM})*"
_MONTH = r"\b(?:" + "|".join(MONTHS) + r")\b"
_DATE = rf"(?:{_MONTH}\s+(?:the\s+)?{_DOM}|(?:the\s+)?{_DOM}\s+of\s+{_MONTH}|{_DOM_SAID}\s+{_MONTH})"
_EVERY = r"\b(?:every|each)\s+"
_OTHER = r"(?P<other>other|second|2nd|alternate)"
_SOME = rf"(?:{_OTHER}\s+|(?P<n>{_NUMBER})\s+)?"  # "every other month", "every 3 months"
_WEEK_ORDINAL = "(?P<ord>" + "|".join(_WEEK_ORDINALS) + r")\b"
_TIME_WORD = rf"(?:{_DAY_NAME}|day|week|month|year|weekend|weekday|time)"
_DAY_PART_AFTER = re.compile(r"\s+(?:in\s+the\s+|at\s+)?(morning|afternoon|evening|night)s?\b", re.IGNORECASE)


def _number(said: str) -> int:
    return int(said) if said.isdigit() else CARDINALS[said.lower()]


def _weekday_codes(said: str) -> list[str]:
    return [_DAY_CODES[_DAY_NAMES.index(name)] for name in re.findall(_DAY_NAME, said.lower())]


def _monthdays(said: str) -> list[int]:
    """ "15th and the last day" -> [15, -1]."""
    found = re.findall(rf"\d{{1,2}}(?:st|nd|rd|th)?|{ORDINAL_WORDS}|last", said.lower())
    return [-1 if token == "last" else ordinal_value(token) or 0 for token in found]


def _month_day(said: str) -> tuple[int, int] | None:
    """ "may 5th", "the 5th of may" -> (5, 5); None for a day the month does not have."""
    lowered = said.lower()
    month = next(n for n, name in enumerate(MONTHS, start=1) if re.search(rf"\b{name}\b", lowered))
    days = re.findall(rf"\d{{1,2}}(?:st|nd|rd|th)?|{ORDINAL_WORDS}", re.sub(_MONTH, " ", lowered))
    day = (ordinal_value(days[0]) or 0) if days else 0
    return (month, day) if 1 <= day <= _MONTH_DAYS[month - 1] else None


def _from_groups(found: re.Match[str], freq: str) -> str | None:
    """The rule a pattern's named groups spell: ord+days, date, doms, days or a unit, with an interval."""
    said = {name: value for name, value in found.groupdict().items() if value}
    interval = 2 if "other" in said else _number(said["n"]) if "n" in said else 1
    if interval < 1:
        return None
    if "unit" in said:
        freq = _FREQ_OF_UNIT[said["unit"].lower()]
    if "date" in said:
        month_day = _month_day(said["date"])
        return None if month_day is None else _rule("YEARLY", interval, [month_day[0]], [month_day[1]])
    if "ord" in said:
        code = _weekday_codes(said["days"])[0]
        return _rule("MONTHLY", interval, days=[f"{_WEEK_ORDINALS[said['ord'].lower()]}{code}"])
    if "doms" in said and freq == "MONTHLY":
        monthdays = _monthdays(said["doms"])
        return _rule("MONTHLY", interval, monthdays=monthdays) if all(-1 <= d <= 31 and d for d in monthdays) else None
    if "days" in said and freq == "WEEKLY":
        return _rule("WEEKLY", interval, days=_weekday_codes(said["days"]))
    return _rule(freq, interval)


def _groups(freq: str) -> Callable[[re.Match[str]], str | None]:
    return lambda found: _from_groups(found, freq)


# "twice a week": days spread over the week; "twice a day" is every day (a habit has one due time).
_TIMES_A = {
    ("week", 1): "FREQ=WEEKLY",
    ("week", 2): "FREQ=WEEKLY;BYDAY=MO,TH",
    ("week", 3): "FREQ=WEEKLY;BYDAY=MO,WE,FR",
    ("week", 4): "FREQ=WEEKLY;BYDAY=MO,TU,TH,FR",
    ("week", 5): WEEKDAYS_RULE,
    ("week", 6): "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA",
    ("week", 7): "FREQ=DAILY",
    ("month", 1): "FREQ=MONTHLY",
    ("month", 2): "FREQ=MONTHLY;BYMONTHDAY=1,15",
    ("month", 4): "FREQ=WEEKLY",
    ("year", 1): "FREQ=YEARLY",
    ("year", 2): "FREQ=MONTHLY;INTERVAL=6",
    ("year", 4): "FREQ=MONTHLY;INTERVAL=3",
    ("year", 12): "FREQ=MONTHLY",
}


def _times_a(found: re.Match[str]) -> str | None:
    count_said = re.sub(r"\s+times$", "", found.group("count").lower())
    count = {"once": 1, "twice": 2}.get(count_said) or _number(count_said)
    unit = found.group("unit").lower()
    return "FREQ=DAILY" if unit == "day" and count else _TIMES_A.get((unit, count))


_WORD_RULES = {
    **dict.fromkeys(("day", "everyday", "daily", "morning", "afternoon", "evening", "night", "nightly"), "FREQ=DAILY"),
    **dict.fromkeys(("weekday", "weekdays"), WEEKDAYS_RULE),
    **dict.fromkeys(("weekend", "weekends"), "FREQ=WEEKLY;BYDAY=SA,SU"),
    **dict.fromkeys(("week", "weekly"), "FREQ=WEEKLY"),
    **dict.fromkeys(("month", "monthly"), "FREQ=MONTHLY"),
    **dict.fromkeys(("year", "yearly", "annually"), "FREQ=YEARLY"),
}


def _word(found: re.Match[str]) -> str:
    return _WORD_RULES[(found.group("unit") or found.group("word")).lower()]


_ORD_DAY = rf"{_WEEK_ORDINAL}\s+(?P<days>{_DAY})"  # "first monday"
_UNIT = r"(?P<unit>day|week|month|year)s?\b"
_ON_DAYS_OR_DOMS = rf"(?:\s+on\s+(?:(?P<days>{_DAYS})|the\s+(?P<doms>{_DOMS})))?"  # "... on monday", "... on the 1st"
_EVERY_MONTHS = rf"(?:every|each)\s+{_SOME}months?\b"  # "every month", "every other month", "every 3 months"
_TIMES = rf"(?P<count>once|twice|{_NUMBER}\s+times)"
_EVERY_WORD = (
    rf"{_EVERY}(?:single\s+)?(?P<unit>day|morning|afternoon|evening|night|weekday|weekend|week|month|year)s?\b"
    r"|\b(?:on\s+)?(?P<word>everyday|daily|nightly|weekly|monthly|yearly|annually|weekdays|(?<=on\s)weekends)\b"
)

# Tried in this order, each over the whole clause: the more particular first ("every other monday"
# before "every monday", "the second monday of every month" before "every second monday").
_PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str | None]]] = [
    (re.compile(pattern, re.IGNORECASE), build)
    for pattern, build in [
        (rf"(?:{_EVERY}(?:the\s+)?|\b(?:on\s+)?the\s+){_ORD_DAY}\s+of\s+(?:every|each)\s+month\b", _groups("MONTHLY")),
        (rf"{_EVERY}(?:the\s+)?{_ORD_DAY}\s+of\s+the\s+month\b", _groups("MONTHLY")),
        (rf"\b(?:monthly|(?:every|each)\s+month)\s+on\s+the\s+{_ORD_DAY}", _groups("MONTHLY")),
        (rf"{_EVERY}{_SOME}years?\s+on\s+(?:the\s+)?(?P<date>{_DATE})", _groups("YEARLY")),
        (rf"\b(?:yearly|annually)\s+on\s+(?:the\s+)?(?P<date>{_DATE})", _groups("YEARLY")),
        (rf"{_EVERY}(?:the\s+)?(?P<date>{_DATE})", _groups("YEARLY")),
        (rf"\b(?:on\s+)?(?:the\s+)?(?P<date>{_DATE})\s+(?:every|each)\s+year\b", _groups("YEARLY")),
        (rf"{_EVERY}{_OTHER}\s+(?P<days>{_DAYS})", _groups("WEEKLY")),
        (rf"{_EVERY}{_OTHER}\s+{_UNIT}{_ON_DAYS_OR_DOMS}", _groups("DAILY")),
        (rf"\b(?P<other>bi-?weekly|fortnightly|every\s+fortnight)\b(?:\s+on\s+(?P<days>{_DAYS}))?", _groups("WEEKLY")),
        (rf"{_EVERY}(?:the\s+)?{_ORD_DAY}", _groups("MONTHLY")),
        (rf"{_EVERY}(?P<n>{_NUMBER})\s+{_UNIT}{_ON_DAYS_OR_DOMS}", _groups("DAILY")),
        (rf"\b(?:on\s+)?the\s+(?P<doms>{_DOMS})\s+(?:day\s+)?of\s+{_EVERY_MONTHS}", _groups("MONTHLY")),
        (rf"\b(?:{_EVERY_MONTHS}|monthly)\s+on\s+the\s+(?P<doms>{_DOMS})", _groups("MONTHLY")),
        (rf"{_EVERY}(?:the\s+)?(?P<doms>{_DOM_SAID})\s+(?:day\s+)?of\s+the\s+month\b", _groups("MONTHLY")),
        # "every 15th"; not "every second", "every 2nd week"
        (rf"{_EVERY}(?:the\s+)?(?P<doms>\d{{1,2}}(?:st|nd|rd|th))\b(?!\s+{_TIME_WORD})", _groups("MONTHLY")),
        (rf"{_EVERY}(?:single\s+)?(?P<days>{_DAYS})", _groups("WEEKLY")),
        (rf"\bon\s+(?P<days>{_PLURAL_DAYS})", _groups("WEEKLY")),
        (rf"\b{_TIMES}\s+(?:a|per|each|every)\s+(?P<unit>day|week|month|year)\b", _times_a),
        (_EVERY_WORD, _word),
    ]
]  # fmt: skip


def find_recurrence(text: str) -> SpokenRecurrence | None:
    """The first spoken repeat in a clause ("every other monday", "twice a week", "on the 15th of every
    month"), as a rule and the words said; None when there is none ("every single item", "for 10 minutes")."""
    for pattern, build in _PATTERNS:
        for found in pattern.finditer(text):
            rule = build(found)
            if rule is None:
                continue
            end = found.end()
            named = re.search(r"\b(morning|afternoon|evening|night)s?\b|\bnightly\b", found.group(0), re.IGNORECASE)
            day_part = named.group(1) or "night" if named else None
            if part_after := _DAY_PART_AFTER.match(text, end):
                day_part, end = part_after.group(1), part_after.end()
            return SpokenRecurrence(rule, text[found.start() : end], day_part and day_part.lower())
    return None
