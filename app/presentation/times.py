"""Moments in words: the one place that writes a date or a time for people, so every view, the toast and the
command line say a moment alike. A day is said relative to today where that is shorter ("Today", "Tomorrow",
"Yesterday"), else as "Thu 3 Dec", with the year only when it is not this one; a time is always "08:00".

The variants mean different things: `moment_words` stands alone ("Tomorrow 08:00"), `in_sentence` goes
inside one ("done today 14:02") and `when` is a due there ("overdue yesterday 09:00"); `relative` is the
list's short chip ("in 20 min"), `in_full` a tooltip's whole date, `written` words that read back as the
moment any day (the year always there: what a due picked on a calendar is saved as), `day_title` heads a
section of days and `period_words` names a day or a month of usage.
English names, whatever the system's locale: the app's words are English.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
NEAR_DAYS = {-1: "Yesterday", 0: "Today", 1: "Tomorrow"}
WEEK_AHEAD = 7  # days ahead (and behind) that the list's chip names by weekday alone


def time_of_day(moment: datetime) -> str:
    """'08:00', in the moment's own zone."""
    return f"{moment.hour:02d}:{moment.minute:02d}"


def _date(day: date, weekday: str, with_year: bool) -> str:
    year = f" {day.year}" if with_year else ""
    return f"{weekday} {day.day} {MONTHS[day.month - 1][:3]}{year}"


def short_day(day: date, today: date) -> str:
    """'Thu 3 Dec', 'Thu 3 Dec 2027' (not this year)."""
    return _date(day, WEEKDAYS[day.weekday()][:3], with_year=day.year != today.year)


def day_title(day: date) -> str:
    """A section of the list, one of the week ahead: 'Thursday 3 Dec' (so near, no year is worth saying)."""
    return _date(day, WEEKDAYS[day.weekday()], with_year=False)


def period_words(period: str, today: date) -> str:
    """What a usage period reads as: 'Thu 26 Nov' for a day ('2026-11-26'), 'November 2026' for a month ('2026-11')."""
    numbers = [int(part) for part in period.split("-")]
    if len(numbers) == 3:
        return short_day(date(*numbers), today)
    year, month = numbers
    return f"{MONTHS[month - 1]} {year}"


def _day_and_time(moment: datetime, now: datetime, tz: ZoneInfo, capital: bool) -> str:
    local, today = moment.astimezone(tz), now.astimezone(tz).date()
    near = NEAR_DAYS.get((local.date() - today).days)
    day = (near if capital else near.lower()) if near else short_day(local.date(), today)
    return f"{day} {time_of_day(local)}"


def moment_words(moment: datetime, now: datetime, tz: ZoneInfo) -> str:
    """On its own: 'Today 17:00', 'Tomorrow 08:00', 'Yesterday 09:10', 'Thu 3 Dec 15:00', 'Thu 3 Dec 2027 15:00'."""
    return _day_and_time(moment, now, tz, capital=True)


def in_sentence(moment: datetime, now: datetime, tz: ZoneInfo) -> str:
    """Inside a sentence: 'done today 14:02', 'until Thu 3 Dec 15:00'."""
    return _day_and_time(moment, now, tz, capital=False)


def when(moment: datetime | None, now: datetime, tz: ZoneInfo) -> str:
    """A due inside a sentence: 'tomorrow 08:00', 'Thu 3 Dec 15:00', with 'overdue' when past; '' for none."""
    if moment is None:
        return ""
    text = in_sentence(moment, now, tz)
    return f"overdue {text}" if moment < now else text


def relative(moment: datetime, now: datetime, tz: ZoneInfo) -> str:
    """The list's chip: minutes when close, the day's name within the week, the date alone beyond."""
    minutes = round((moment - now).total_seconds() / 60)
    if 0 <= minutes < 60:
        return f"in {minutes} min" if minutes else "now"
    if -60 < minutes < 0:
        return f"{-minutes} min ago"
    local, today = moment.astimezone(tz), now.astimezone(tz).date()
    days = (local.date() - today).days
    if days in NEAR_DAYS:
        return moment_words(moment, now, tz)
    if -WEEK_AHEAD < days <= WEEK_AHEAD:
        return f"{WEEKDAYS[local.weekday()][:3]} {time_of_day(local)}"
    return short_day(local.date(), today)


def in_full(moment: datetime, tz: ZoneInfo) -> str:
    """A tooltip's whole date: 'Thursday 3 December 2026, 15:00'."""
    local = moment.astimezone(tz)
    return f"{WEEKDAYS[local.weekday()]} {local.day} {MONTHS[local.month - 1]} {local.year}, {time_of_day(local)}"


def written(moment: datetime, tz: ZoneInfo) -> str:
    """Words that read back as this moment any day: 'Thu 3 Dec 2026 15:00', the year always."""
    local = moment.astimezone(tz)
    return f"{_date(local.date(), WEEKDAYS[local.weekday()][:3], with_year=True)} {time_of_day(local)}"
