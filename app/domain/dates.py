"""Due dates: spoken phrases resolved against "now" in the user's timezone, preferring the future.

Rules a user can predict:
- A phrase with a time ("at 5pm", "friday morning", "in 2 hours") keeps that time; a time that
  has already passed today means tomorrow, unless the phrase wrote out the date ("22 Nov at 5pm" stays today).
- A weekday said with a date and no year ("Fri 20 Nov") is in the year where that date is that weekday.
- A phrase with only a day ("Thursday", "tomorrow", "dec 3") is due at 09:00 that day; "today"
  after 09:00 is due at the next full hour, or at 23:59 once no full hour of the day is left. "Tonight" and
  "this evening" said after their hour are today too, as "today" is.
- A part of the day said with a clock time ("tonight at 9", "at 8 tomorrow morning") says am or pm.
- A bare clock time ("at 5", "at 3:15", "half past six") is the sensible daytime hour: with a day, 7-11
  is the morning and 12-6 the afternoon; alone, the next such time from now ("at 8" said at 10:00 is
  20:00). dateparser alone reads "at 5" as May and "3:15" as the night.
- A span from now ("in 90 seconds", "in half an hour") is counted to the second; a weekday said on that
  weekday with a time still ahead ("thursday at 3pm" on a Thursday morning) is today.
- A phrase dateparser cannot read ("in 3 business days") resolves to None; callers keep the
  phrase as the entry's `due_text`, so nothing the user said is dropped.
Wall-clock arithmetic is done on naive local times and the zone attached last, so a date
across a daylight-saving change keeps its hour.
"""

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from app.domain.clock import Clock
from app.domain.day_phrases import explicit, find_day_phrase
from app.domain.local_calendar import MONTH_NAME, LocalCalendar
from app.domain.spans import find_span, span_from_now
from app.domain.spoken_numbers import CARDINALS, ORDINAL_WORDS, ordinal_value

if TYPE_CHECKING:  # dateparser takes a fifth of a second to import: only a date to read loads it
    from dateparser.date import DateDataParser

DEFAULT_DUE_TIME = time(9, 0)
_LAST_MINUTE = time(23, 59)
ENGLISH = ("en",)  # the offline rules' cue words are English, so their date search is too

# Periods dateparser reports when the phrase itself named a time of day.
_TIMED_PERIODS = {"time", "part_of_day"}
# A written date or clock time: "3/4", "2026-12-25", "5pm", "3:15", "the 1st".
_WRITTEN_DATE = re.compile(r"\d[/.-]\d|\d:\d\d|\d\s*(?:am|pm|a\.m|p\.m)\b|\b\d{1,2}(?:st|nd|rd|th)\b")
_DURATION = re.compile(
    r"(?:for\s+)?(?:an?\s+)?(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|half an?)"
    r"[\s-]+(?:minute|min|hour|hr|day|week|month|year)s?",
    re.IGNORECASE,
)
# A clock time said apart from its day ("Christmas Eve dinner at Grandma's at 6pm"): only with am/pm or
# minutes, so "at Grandma's" or "at 5 Main Street" are not read as one.
_TIME_APART = re.compile(
    r"\bat\s+(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)|\d{1,2}:\d\d|noon|midnight|(?:1[0-2]|[1-9])(?![\d:.,]|\s*%))\b", re.I
)
_HAS_TIME = re.compile(r"\d\s*(?:am|pm)\b|\d:\d\d|\bat\s+\d|noon|midnight|morning|afternoon|evening|night", re.I)
_TIME_ALONE = re.compile(r"(?:at\s+)?(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)?|noon|midnight)", re.IGNORECASE)
_CLOCK_ONLY = re.compile(
    r"(?:at\s+)?(?P<hour>\d{1,2})(?::(?P<minute>\d\d)\s*(?P<half>[ap]\.?m\.?)?|\s*(?P<only>[ap]\.?m\.?))", re.I
)
_TWO_PREPOSITIONS = re.compile(r"^(?:in|on|by|for)\s+(?=(?:at|on|by)\s)", re.IGNORECASE)
_MINUTES_AGO = re.compile(r"\bago\b", re.IGNORECASE)
# A calendar day written out: "22 nov", "nov 22nd", "the 3rd of december", "2026-11-22".
_CALENDAR_DAY = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH_NAME})\b|\b(?:{MONTH_NAME})\s+\d{{1,2}}\b|\b\d{{4}}-\d\d-\d\d\b",
    re.IGNORECASE,
)
_YEAR_WRITTEN = re.compile(r"\b\d{4}\b")
_YEARS_TO_TRY = 7  # a date falls on each weekday within seven years

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


_SPOKEN_TIME = re.compile(
    r"\b(?:at\s+)?(?:(?P<half>half)(?:\s+past)?|(?:a\s+)?(?P<quarter>quarter)\s+(?P<rel>past|to))\s+(?P<spoken>\d{1,2}|"
    + "|".join(CARDINALS)
    + r")\b",
    re.IGNORECASE,
)
# "at 5", "at 3:15", "5:30": a clock time with nothing saying morning or afternoon ("06:30" says it).
_BARE_TIME = re.compile(
    r"(?:\bat\s+(?P<hour>[1-9]\d?)(?::(?P<minute>\d{2}))?|\b(?P<h>[1-9]\d?):(?P<m>\d{2}))"
    r"(?!\s*(?:am|pm|a\.m\.|p\.m\.|h\b|%|percent|(?:min(?:ute)?|hour|hr|day|week|month|year)s?\b))"
    r"(?![\d:])",
    re.IGNORECASE,
)
_DAYTIME = range(7, 22)  # a bare hour is read as one of these
# "at 3" in a sentence: an hour of the clock, not "at 30 percent" or "at 5 minutes past" (read whole elsewhere).
_CLOCK_IN_TEXT = re.compile(r"\bat\s+(?:1[0-2]|[1-9])(?::[0-5]\d)?\b(?![\d:.,]\d|\s*(?:%|percent|minutes?|hours?)\b)")


# "9 o'clock", "by nine o'clock": the hour alone, after "at" unless another word leads it.
_OCLOCK = re.compile(
    rf"\b(?P<lead>(?:at|by|around|before|after|until|till)\s+)?(?P<spoken>\d{{1,2}}|{'|'.join(CARDINALS)})\s+o'?clock\b",
    re.IGNORECASE,
)


# "at ten", "until four": an hour said in words (never a month, never a count of minutes).
_AT_WORD = re.compile(
    rf"\b(?P<lead>at|by|around|until|till)\s+(?P<spoken>{'|'.join(CARDINALS)})\b"
    r"(?!\s+(?:minutes?|hours?|days?|weeks?|months?|years?|people|of|o'?clock|past|to|fifteen|thirty|forty|\d)\b)",
    re.IGNORECASE,
)


_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
# "the tenth of december", "on the first": a day of the month said in words, as the date rules read digits.
_DAY_IN_WORDS = re.compile(
    rf"\b(?:(?P<lead>on|for|by|until|till|before|to)\s+)?the\s+(?P<day>{ORDINAL_WORDS})\b"
    rf"(?=\s+of\s+(?:{_MONTHS})\b|\s*(?:[,.;!?]|$|\s+(?:instead|then|please|at|in)\b))",
    re.IGNORECASE,
)
_MINUTES_PAST = re.compile(
    rf"\b(?:at\s+)?(?P<minutes>five|ten|twenty|twenty[\s-]five)\s+(?P<rel>past|to)\s+(?P<spoken>\d{{1,2}}|{'|'.join(CARDINALS)})\b",
    re.IGNORECASE,
)
_MINUTE_WORDS = {"five": 5, "ten": 10, "twenty": 20, "twenty five": 25}


def _day_in_digits(found: re.Match[str]) -> str:
    day = ordinal_value(found["day"]) or 1
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    lead = f"{found['lead']} " if found["lead"] else ""
    return f"{lead}the {day}{suffix}"


def _minutes_past(found: re.Match[str]) -> str:
    hour, minutes = _hour_said(found["spoken"]), _MINUTE_WORDS[re.sub(r"[\s-]+", " ", found["minutes"].lower())]
    if found["rel"].lower() == "to":
        hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
    return f"at {hour}:{minutes:02d}"


def _hour_said(spoken: str) -> int:
    return int(spoken) if spoken.isdigit() else CARDINALS[spoken.lower()]


def spoken_to_digits(phrase: str) -> str:
    """ "half past six" (or "half six") -> "at 6:30", "at quarter to nine" -> "at 8:45", "nine o'clock" and "at
    nine" -> "at 9"."""
    phrase = _OCLOCK.sub(lambda found: f"{found['lead'] or 'at '}{_hour_said(found['spoken'])}", phrase)
    phrase = _MINUTES_PAST.sub(_minutes_past, _DAY_IN_WORDS.sub(_day_in_digits, phrase))
    phrase = _AT_WORD.sub(lambda found: f"{found['lead']} {_hour_said(found['spoken'])}", phrase)

    def digits(match: re.Match[str]) -> str:
        hour = _hour_said(match.group("spoken"))
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


def _clock_only(phrase: str, now_local: datetime) -> datetime | None:
    """ "at 17:00", "5pm", "at 00:00": the next such time, today or tomorrow. Read here, as dateparser reads
    "at 00:00" said on Dec 31 as the first of December."""
    found = _CLOCK_ONLY.fullmatch(phrase.strip())
    if found is None:
        return None
    hour, minute = int(found["hour"]), int(found["minute"] or 0)
    if half := found["half"] or found["only"]:
        hour = hour % 12 + (12 if half.lower().startswith("p") else 0)
    if hour > 23 or minute > 59:
        return None
    moment = datetime.combine(now_local.date(), time(hour, minute))
    return moment if moment > now_local else moment + timedelta(days=1)


def _later_today(now_local: datetime) -> datetime:
    """The next full hour, or the day's last minute once no full hour of it is left ("today" said at 23:10)."""
    next_hour = now_local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    return min(next_hour, datetime.combine(now_local.date(), _LAST_MINUTE))


def _with_default_time(day_local: datetime, now_local: datetime) -> datetime:
    due = datetime.combine(day_local.date(), DEFAULT_DUE_TIME)
    if due <= now_local and day_local.date() == now_local.date():
        due = _later_today(now_local)
    return due


def resolve_due(phrase: str, clock: Clock, languages: tuple[str, ...] | None = None) -> datetime | None:
    """The moment `phrase` means, said at the clock's now, in its zone and calendar, in one of
    `languages` (the clock's by default); None when unreadable."""
    phrase = phrase.strip()
    if not phrase:
        return None
    if (span := span_from_now(phrase)) is not None:  # elapsed time, not wall-clock: exact across a DST change
        return (clock.now + span).astimezone(clock.tz).replace(microsecond=0)
    now_local = _local_naive(clock.now, clock.tz).replace(second=0, microsecond=0)
    return _resolve_local(phrase, now_local, clock.tz, languages or clock.languages, clock.calendar)


# A batch often repeats a phrase ("tomorrow"), and dateparser takes about a millisecond a call.
@lru_cache(maxsize=256)
def _resolve_local(
    phrase: str, now_local: datetime, tz: ZoneInfo, languages: tuple[str, ...], calendar: LocalCalendar
) -> datetime | None:
    made_explicit = explicit(spoken_to_digits(phrase), now_local, calendar) if "en" in languages else phrase
    if isinstance(made_explicit, datetime):
        return _attach(made_explicit, tz)
    phrase, moment = _bare_time(made_explicit, now_local)
    moment = moment or _clock_only(phrase, now_local)
    if moment is not None:
        return _attach(moment, tz)
    data = _parser(now_local, languages).get_date_data(phrase)
    if data.date_obj is None:
        return None
    parsed = data.date_obj
    if parsed.tzinfo is not None:  # the phrase named a zone ("5pm UTC")
        parsed = _local_naive(parsed, tz)
    dated = _CALENDAR_DAY.search(phrase) is not None
    parsed = _in_the_weekdays_year(phrase, parsed, now_local) if dated else parsed
    if data.period not in _TIMED_PERIODS and not _HAS_TIME.search(phrase):  # it says "day" for 10am said at 10:00
        parsed = _with_default_time(parsed, now_local)
    elif parsed <= now_local and parsed.date() == now_local.date() and not (_MINUTES_AGO.search(phrase) or dated):
        parsed += timedelta(days=1)  # "this evening" said at 23:30: a time of today that has passed
    else:
        parsed = _today_if_ahead(phrase, parsed, now_local)
    return _attach(parsed.replace(microsecond=0), tz)


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _in_the_weekdays_year(phrase: str, parsed: datetime, now_local: datetime) -> datetime:
    """ "Fri 20 Nov" said on 29 Nov 2026 is 20 Nov 2026, a Friday, not the next 20 Nov (dateparser, preferring the
    future, says 2027, a Saturday): the year nearest now in which the date is the weekday said, when no year is."""
    words = re.findall(r"[a-z]+", phrase.lower())
    said = [day for day, name in enumerate(_WEEKDAYS) if any(len(w) >= 3 and name.startswith(w) for w in words)]
    if len(said) != 1 or parsed.weekday() == said[0] or _YEAR_WRITTEN.search(phrase):
        return parsed
    for distance in sorted(range(-_YEARS_TO_TRY, _YEARS_TO_TRY + 1), key=abs):
        try:
            moved = parsed.replace(year=now_local.year + distance)
        except ValueError:  # 29 February in a year without one
            continue
        if moved.weekday() == said[0]:
            return moved
    return parsed


def _today_if_ahead(phrase: str, parsed: datetime, now_local: datetime) -> datetime:
    """ "on thursday at 3pm" said on a Thursday morning is this afternoon, as task apps read it (dateparser,
    preferring the future, says next week); "next thursday" still means next week."""
    if parsed.date() != now_local.date() + timedelta(days=7) or parsed - timedelta(days=7) <= now_local:
        return parsed
    words = re.findall(r"[a-z]+", phrase.lower())
    today = _WEEKDAYS[now_local.weekday()]
    named = any(len(word) >= 3 and today.startswith(word) for word in words)
    return parsed - timedelta(days=7) if named and "next" not in words else parsed


def _looks_like_date(phrase: str) -> bool:
    """Whether a phrase dateparser found in a sentence names a moment: a date word, a clock time or a
    written date. A number alone does not ("room 204", "timer number 21", "a 2 liter bottle")."""
    lowered = phrase.lower()
    words = re.findall(r"[a-z.']+", lowered)
    return any(word in _DATE_WORDS for word in words) or bool(_WRITTEN_DATE.search(lowered))


def _is_duration(text: str, phrase: str) -> bool:
    """ "30 minutes" in "read for 30 minutes", "a week" in "twice a week": how long or how often, not when."""
    if not _DURATION.fullmatch(phrase.strip()):
        return False
    return _lasts(text, phrase)


def _lasts(text: str, phrase: str) -> bool:
    """Whether a duration said at the start of `phrase` is how long, not "in 10 minutes"."""
    before = text[: text.lower().find(phrase.lower())].lower().split()
    return not before or before[-1] != "in"


@dataclass(frozen=True)
class DuePhrase:
    """A due found in a sentence: `text` to keep as the entry's due phrase, the `moment` it means, and
    the `spoken` pieces that leave the summary ("Christmas Eve dinner at Grandma's at 6pm" is due
    "christmas eve at 6pm"; "at 6pm" goes, "Christmas Eve" stays: it names the dinner)."""

    text: str
    moment: datetime
    spoken: tuple[str, ...]


def _is_origin(text: str, phrase: str) -> bool:
    """ "the costs from last year", "since monday": when something began, not when it is due."""
    before = text[: text.lower().find(phrase.lower())].lower().split()
    return phrase.lower().startswith(("from ", "since ")) or bool(before) and before[-1] in ("from", "since")


def find_due_phrase(text: str, clock: Clock) -> DuePhrase | None:
    """The first date phrase inside `text` (English, as the offline rules are) and what it resolves to."""
    if (span := find_span(text)) is not None:
        return DuePhrase(span.said, clock.now + span.length, (span.said,))
    now_local = _local_naive(clock.now, clock.tz).replace(second=0, microsecond=0)
    day = find_day_phrase(text, now_local, clock.calendar)
    if day is not None and not day.names_thing:
        return _with_time_said_apart(text, day.phrase, clock, cut=True)
    # "the christmas cards before december 15": the named day names the cards; a day said besides wins.
    found = _found_by_dateparser(text.replace(day.phrase, " " * len(day.phrase)) if day else text, clock, now_local)
    if day is None or (found is not None and not _TIME_ALONE.fullmatch(found.text)):
        return found
    return _with_time_said_apart(text, day.phrase, clock, cut=False)


def _with_time_said_apart(text: str, day: str, clock: Clock, cut: bool) -> DuePhrase | None:
    """The day phrase, with a clock time said elsewhere in the sentence ("Christmas Eve dinner at 6pm")."""
    spoken = (day,) if cut else ()
    rest = text.replace(day, " ")
    time_said = _TIME_APART.search(rest) if not _HAS_TIME.search(day) else None
    phrase = f"{day} {time_said.group(0)}" if time_said else day
    moment = resolve_due(phrase, clock, ENGLISH)
    if moment is None:
        return None
    return DuePhrase(phrase, moment, spoken + ((time_said.group(0),) if time_said else ()))


def _found_by_dateparser(text: str, clock: Clock, now_local: datetime) -> DuePhrase | None:
    from dateparser.search import search_dates

    found = search_dates(text, languages=list(ENGLISH), settings=_settings(now_local)) or []
    for said, _ in found:
        phrase = _TWO_PREPOSITIONS.sub("", said)  # "put the roast in at 4:15": "in" is the roast's
        if (lasting := _DURATION.match(phrase)) and _lasts(text, phrase) and phrase[lasting.end() :].strip():
            phrase = phrase[lasting.end() :].strip()  # "stretch for 10 minutes at 5pm": due at 5pm
        if not _looks_like_date(phrase) or _is_duration(text, phrase) or _is_origin(text, phrase):
            continue
        if resolve_due(phrase, clock, ENGLISH) is not None and (
            said := _with_time_said_apart(text, phrase, clock, True)
        ):
            return said
    # What dateparser's search misses: "at 3", "half past six".
    for pattern in (_CLOCK_IN_TEXT, _SPOKEN_TIME):
        found_here = pattern.search(text)
        if found_here:
            resolved = resolve_due(found_here.group(0), clock, ENGLISH)
            if resolved is not None:
                return DuePhrase(found_here.group(0), resolved, (found_here.group(0),))
    return None


def moved_due(old: datetime | None, phrase: str, clock: Clock) -> datetime | None:
    """Where a due moves when the user names a new one: a day said alone keeps the entry's time ("move the
    dentist to friday": still at 15:00), a time said alone keeps its day ("change the meeting to 2pm");
    None when `phrase` cannot be read."""
    moment = resolve_due(phrase, clock)
    if moment is None or old is None or span_from_now(phrase) is not None:
        return moment
    before, said = old.astimezone(clock.tz), moment.astimezone(clock.tz)
    if _TIME_ALONE.fullmatch(phrase.strip()):
        moved = datetime.combine(before.date(), said.time(), tzinfo=clock.tz)
    elif not _HAS_TIME.search(phrase):
        now_local = _local_naive(clock.now, clock.tz)
        day = _today_if_ahead(phrase, datetime.combine(said.date(), before.time()), now_local)
        moved = day.replace(tzinfo=clock.tz)
    else:
        return moment
    return moved if moved > clock.now else moment
