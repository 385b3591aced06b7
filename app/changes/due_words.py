"""An entry's text moved with its due: words of the text that named the old due ("7pm", "19:00", "Thursday",
"tomorrow", "3 Dec") are rewritten to name the new one, in the same style, so "Call mom at 7pm" moved to 8pm
does not still say 7pm (in the list's text, and in the description a calendar shows). Only words that named the
old due change: "at 7pm, before the 6pm film" keeps its 6pm, and a text without due words is left as it is."""

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from dateutil import parser as dateutil_parser

from app.domain.local_calendar import MONTH_NAME

_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_WEEK = 7  # a day within the week after the text was written is said by its weekday

_TIME = re.compile(
    r"(?<![\w:.])(?P<hour>\d{1,2})(?::(?P<minute>[0-5]\d))?(?:(?P<space>\s?)(?P<half>[ap]\.?m\.?))?(?![\w:])",
    re.IGNORECASE,
)
_WEEKDAY = re.compile(
    r"\b(?P<name>mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?P<rest>day|nesday|sday|rsday|urday)?\b", re.IGNORECASE
)
_NEAR_DAY = re.compile(r"\b(?:today|tonight|tomorrow)\b", re.IGNORECASE)
_ORDINAL = r"\d{1,2}(?:st|nd|rd|th)?"
_DATE = re.compile(
    rf"\b(?:(?P<day>{_ORDINAL})(?P<of>\s+(?:of\s+)?)(?P<month>{MONTH_NAME})|(?P<month2>{MONTH_NAME})(?P<gap>\s+)"
    rf"(?P<day2>{_ORDINAL}))\b",
    re.IGNORECASE,
)


def redated_text(text: str, old: datetime, new: datetime, tz: ZoneInfo, written_on: date) -> str:
    """`text` with the words that named `old` naming `new`; `written_on` is the day the text was written, which its
    "today" and "tomorrow" count from."""
    before, after = old.astimezone(tz), new.astimezone(tz)
    if before.time() != after.time():
        text = _TIME.sub(lambda found: _time_said(found, after) if _time_of(found, before) else found[0], text)
    if before.date() == after.date():
        return text
    dated = any(_date_of(found, before) for found in _DATE.finditer(text))  # "Thursday 26 Nov": a weekday stays one
    text = _DATE.sub(lambda found: _date_said(found, after) if _date_of(found, before) else found[0], text)

    def new_day(found: re.Match[str], named_old: bool) -> str:
        return _day_said(found, after, written_on, dated) if named_old else found[0]

    text = _WEEKDAY.sub(lambda found: new_day(found, _weekday_of(found) == before.weekday()), text)
    return _NEAR_DAY.sub(lambda found: new_day(found, _near_day(found, written_on) == before.date()), text)


def _time_of(found: re.Match[str], old: datetime) -> bool:
    """Whether a clock time of the text is the old due's: "7pm", "7:00" (an hour of either half), "19:00"."""
    if not (found["minute"] or found["half"]):
        return False  # a number alone: "2 tickets", "room 7"
    try:
        read = dateutil_parser.parse(found.group(0).replace(".", ""), default=old.replace(tzinfo=None))
    except (ValueError, OverflowError):
        return False
    same_minute = read.minute == old.minute
    return same_minute and (read.hour == old.hour or (not found["half"] and read.hour % 12 == old.hour % 12))


def _time_said(found: re.Match[str], new: datetime) -> str:
    """The new time in the style of the old: "8pm", "8:30 p.m.", "8:00", "20:00"."""
    minutes = f":{new.minute:02d}" if found["minute"] or new.minute else ""
    if half := found["half"]:
        hour = new.hour % 12 or 12
        ours = ("p" if new.hour >= 12 else "a") + half[1:]
        return f"{hour}{minutes}{found['space']}{ours.upper() if half[0].isupper() else ours}"
    twelve_hours = int(found["hour"]) <= 12 and not found["hour"].startswith("0")
    hour = (new.hour % 12 or 12) if twelve_hours and new.hour != 12 else new.hour
    return f"{hour:0{len(found['hour'])}d}{minutes or ':00'}"


def _weekday_of(found: re.Match[str]) -> int:
    short = found["name"].lower()
    return next(day for day, name in enumerate(_WEEKDAY_NAMES) if name.startswith(short[:3]))


def _near_day(found: re.Match[str], written_on: date) -> date:
    return written_on + timedelta(days=1 if found.group(0).lower() == "tomorrow" else 0)


def _day_said(found: re.Match[str], new: datetime, written_on: date, dated: bool) -> str:
    """The new day as the text said the old: "today"/"tomorrow" while it is one, else its weekday within the
    week (or beside a date), else its date ("5 Dec"); a weekday's name keeps its length."""
    said, ahead = found.group(0), (new.date() - written_on).days
    if ahead in (0, 1) and said.lower() in ("today", "tonight", "tomorrow"):
        return _cased_as("tomorrow" if ahead else ("tonight" if said.lower() == "tonight" else "today"), said)
    if 0 <= ahead < _WEEK or dated:
        name = _WEEKDAY_NAMES[new.weekday()].capitalize()
        return _cased_as(name if len(said) > 3 else name[:3], said)
    return _cased_as(f"{new.day} {_MONTH_NAMES[new.month - 1][:3].capitalize()}", said)


def _date_of(found: re.Match[str], old: datetime) -> bool:
    day, month = _day_and_month(found)
    return (day, month) == (old.day, old.month)


def _day_and_month(found: re.Match[str]) -> tuple[int, int]:
    day = int(re.sub(r"\D", "", found["day"] or found["day2"]))
    month = found["month"] or found["month2"]
    return day, next(number for number, name in enumerate(_MONTH_NAMES, 1) if name.startswith(month.lower()[:3]))


def _date_said(found: re.Match[str], new: datetime) -> str:
    """The new date as the old was written: "5 Dec", "December 5th", "the 5th of December"."""
    said_day, said_month = found["day"] or found["day2"], found["month"] or found["month2"]
    day = f"{new.day}{_suffix(new.day) if not said_day.isdigit() else ''}"
    full = _MONTH_NAMES[new.month - 1].capitalize()
    month = _cased_as(full if len(said_month) > 3 and said_month.lower() != "sept" else full[:3], said_month)
    return f"{day}{found['of']}{month}" if found["day"] else f"{month}{found['gap']}{day}"


def _suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _cased_as(word: str, said: str) -> str:
    """`word` in the capitals of `said` ("TOMORROW", "Tomorrow"); a name ("Friday", "Dec") keeps its own."""
    if said.isupper() and len(said) > 1:
        return word.upper()
    return word[:1].upper() + word[1:] if said[:1].isupper() else word
