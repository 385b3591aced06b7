"""Named days, the day's parts and the ends of periods, read against the user's calendar."""

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from app.assembly import local_calendar
from app.config import LocaleSettings, Settings, with_value
from app.domain.clock import Clock
from app.domain.dates import find_due_phrase, resolve_due
from app.domain.local_calendar import LocalCalendar, day_names
from app.errors import UsageError

BERLIN = ZoneInfo("Europe/Berlin")
US = LocalCalendar(country="US")
MONDAY_MORNING = datetime(2026, 11, 23, 9, 12, tzinfo=BERLIN)


def clock(now: datetime = MONDAY_MORNING, calendar: LocalCalendar = US) -> Clock:
    return Clock(now=now, tz=now.tzinfo, calendar=calendar)  # type: ignore[arg-type]


def local(year: int, month: int, day: int, hour: int = 9, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("on Christmas Day", local(2026, 12, 25)),
        ("christmas", local(2026, 12, 25)),
        ("on christmas eve at 6pm", local(2026, 12, 24, 18)),
        ("at Easter", local(2027, 3, 28)),
        ("on mothers day", local(2027, 5, 9)),  # a recognizer drops the apostrophe
        ("on Mother's Day", local(2027, 5, 9)),
        ("on Halloween", local(2027, 10, 31)),
        ("for thanksgiving", local(2026, 11, 26)),
        ("on the fourth of july", local(2027, 7, 4)),
        ("on new year's eve", local(2026, 12, 31)),
    ],
)
def test_named_days_are_dates(phrase: str, expected: datetime) -> None:
    assert resolve_due(phrase, clock()) == expected


def test_a_named_day_already_past_this_year_is_next_years() -> None:
    after_christmas = local(2026, 12, 27, 10)
    assert resolve_due("on christmas day", clock(after_christmas)) == local(2027, 12, 25)


def test_named_days_follow_the_country() -> None:
    germany = LocalCalendar(country="DE")
    assert resolve_due("on thanksgiving", clock(calendar=germany)) is None  # not a day there
    assert resolve_due("at easter", clock(calendar=germany)) == local(2027, 3, 28)  # named everywhere
    assert "boxing day" in day_names("GB", (2026,))
    assert "christmas day" in day_names("XX", (2026,))  # an unknown country still has the widely named days


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("this evening", local(2026, 11, 23, 19)),
        ("tonight", local(2026, 11, 23, 21)),
        ("tomorrow morning", local(2026, 11, 24, 8)),
        ("friday afternoon", local(2026, 11, 27, 14)),
        ("after lunch", local(2026, 11, 23, 13)),
        ("later today", local(2026, 11, 23, 12, 12)),
        ("first thing tomorrow", local(2026, 11, 24, 8)),
        ("by close of business", local(2026, 11, 23, 17)),
        ("by the end of the week", local(2026, 11, 27, 17)),
        ("by the end of next week", local(2026, 12, 4, 17)),
        ("end of the month", local(2026, 11, 30, 17)),
        ("next week", local(2026, 11, 30)),
        ("next month", local(2026, 12, 1)),
        ("this weekend", local(2026, 11, 28)),
        ("the day after tomorrow", local(2026, 11, 25)),
        ("before june 30", local(2027, 6, 30)),
        ("no later than friday", local(2026, 11, 27)),
        ("midnight", local(2026, 11, 24, 0)),
        ("a week from friday", local(2026, 12, 4)),
        ("two weeks from tomorrow", local(2026, 12, 8)),
        ("on the first monday of the month", local(2026, 12, 7)),  # this month's was Nov 2
        ("the last friday of the month", local(2026, 11, 27)),
        ("the second tuesday of next month", local(2026, 12, 8)),
    ],
)
def test_parts_of_the_day_and_ends_of_periods(phrase: str, expected: datetime) -> None:
    assert resolve_due(phrase, clock()) == expected


def test_a_part_of_today_already_past_is_later_today_as_today_is() -> None:
    assert resolve_due("this evening", clock(local(2026, 11, 23, 21, 10))) == local(2026, 11, 23, 22)
    assert resolve_due("tonight", clock(local(2026, 11, 23, 23, 30))) == local(2026, 11, 23, 23, 59)
    assert resolve_due("today", clock(local(2026, 11, 23, 23, 30))) == local(2026, 11, 23, 23, 59)


def test_the_hours_of_the_day_are_the_users() -> None:
    early = local_calendar(LocaleSettings(country="us", morning="06:30", evening="18:00"))
    assert early.country == "US" and early.morning == time(6, 30)
    assert resolve_due("tomorrow morning", clock(calendar=early)) == local(2026, 11, 24, 6, 30)
    assert resolve_due("this evening", clock(calendar=early)) == local(2026, 11, 23, 18)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("pay the rent before june 30", "before june 30"),
        ("send the report by close of business", "by close of business"),
        ("buy a turkey for thanksgiving", "thanksgiving"),
        ("call grandma on thanksgiving at noon", "thanksgiving at noon"),
        ("book the table tomorrow after lunch", "tomorrow after lunch"),
        ("finish the slides by the end of next week", "by the end of next week"),
    ],
)
def test_day_phrases_are_found_in_sentences(text: str, phrase: str) -> None:
    found = find_due_phrase(text, clock())
    assert found is not None and found.text == phrase


@pytest.mark.parametrize(
    "text",
    [
        "read for 30 minutes",
        "go running twice a week",
        "book room 204",
        "set the oven timer number 21",
        "stretch for an hour",
    ],
)
def test_durations_frequencies_and_numbers_in_names_are_not_due_dates(text: str) -> None:
    assert find_due_phrase(text, clock()) is None


def test_the_hours_of_the_day_are_checked_when_set() -> None:
    assert with_value(Settings(), "locale.evening", "18:30").locale.evening == "18:30"
    for bad in ("6am", "25:00", "7"):
        with pytest.raises(UsageError, match="time of day like 08:00"):
            with_value(Settings(), "locale.morning", bad)
