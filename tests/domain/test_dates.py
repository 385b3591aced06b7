"""Due-date resolution relative to a fixed "now" (Sunday 22 Nov 2026, 18:30, Europe/Berlin)."""

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.assembly import build_service
from app.config import Settings, SpeechSettings
from app.domain.clock import Clock
from app.domain.dates import find_due_phrase, resolve_due
from tests.support.clock import BERLIN, FIXED_NOW


def at(day: int, hour: int, minute: int = 0, month: int = 11, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("Thursday", at(26, 9)),  # the next Thursday, at the default 09:00
        ("thursday at 3pm", at(26, 15)),
        ("at 5pm", at(23, 17)),  # 17:00 has passed today: tomorrow
        ("5pm", at(23, 17)),
        ("at 8pm", at(22, 20)),  # still to come today
        ("tomorrow", at(23, 9)),
        ("tomorrow at 3pm", at(23, 15)),
        ("today", at(22, 19)),  # 09:00 has passed: the next full hour
        ("in 2 hours", at(22, 20, 30)),
        ("in 3 days", at(25, 9)),
        ("next week", at(23, 9)),  # its Monday: said on a Sunday, tomorrow
        ("Sunday", at(29, 9)),  # today is Sunday: the next one
        ("friday morning", at(27, 8)),  # the morning hour of the calendar
        ("dec 3", at(3, 9, month=12)),
        ("on the 1st", at(1, 9, month=12)),
        ("the 22nd", at(22, 19)),  # today's date, 09:00 passed: the next full hour
        ("March 29 at 10am", datetime(2027, 3, 29, 10, tzinfo=BERLIN)),  # across the DST change, still 10:00
        ("yesterday", at(21, 9)),  # said explicitly: kept, even though it is past
    ],
)
def test_phrases_resolve_preferring_the_future(phrase: str, expected: datetime) -> None:
    assert resolve_due(phrase, Clock(now=FIXED_NOW, tz=BERLIN)) == expected


MONDAY_MORNING = datetime(2026, 11, 23, 10, 0, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        # With a day: 7-11 is the morning, 12 noon, 1-6 the afternoon (dateparser alone read "at 5" as May).
        ("friday at 5", at(27, 17)),
        ("thursday at 10", at(26, 10)),
        ("tomorrow at 4", at(24, 16)),
        ("at 4 tomorrow", at(24, 16)),  # was 09:00: the time said was dropped
        ("at 3:15 tomorrow", at(24, 15, 15)),  # was 03:15 in the night
        ("tomorrow at 12", at(24, 12)),
        # Alone: the next such time of day from now (10:00 on a Monday).
        ("at 5", at(23, 17)),
        ("at 3:15", at(23, 15, 15)),
        ("at 8", at(23, 20)),  # 08:00 has passed: 20:00
        ("at 11", at(23, 11)),
        ("5:30", at(23, 17, 30)),
        ("half past six", at(23, 18, 30)),
        ("quarter to nine", at(23, 20, 45)),
        ("quarter past eleven", at(23, 11, 15)),
        # Said in full: kept as said.
        ("at 5am", at(24, 5)),
        ("tomorrow at 17:00", at(24, 17)),
    ],
)
def test_a_bare_clock_time_is_the_sensible_daytime_hour(phrase: str, expected: datetime) -> None:
    assert resolve_due(phrase, Clock(now=MONDAY_MORNING, tz=BERLIN)) == expected


def test_a_bare_clock_time_late_in_the_evening_is_the_next_morning() -> None:
    late = datetime(2026, 11, 23, 22, 30, tzinfo=BERLIN)
    assert resolve_due("at 9", Clock(now=late, tz=BERLIN)) == at(24, 9)


@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        ("pick up the kids at 3", "at 3", at(23, 15)),
        ("meeting at half past six", "at half past six", at(23, 18, 30)),
        ("call mom friday at 5", "friday at 5", at(27, 17)),
    ],
)
def test_clock_times_are_found_in_sentences(text: str, phrase: str, expected: datetime) -> None:
    found = find_due_phrase(text, Clock(now=MONDAY_MORNING, tz=BERLIN))
    assert found is not None and (found.text, found.moment) == (phrase, expected)


@pytest.mark.parametrize("text", ["sale at 30 percent off", "room 204 needs cleaning", "stretch at 5 minutes past"])
def test_numbers_that_are_not_clock_times_stay_numbers(text: str) -> None:
    found = find_due_phrase(text, Clock(now=MONDAY_MORNING, tz=BERLIN))
    assert found is None or found.moment.hour != 17


@pytest.mark.parametrize("phrase", ["in 3 business days", "the day after my birthday", "", "   ", "purple"])
def test_unreadable_phrases_resolve_to_none(phrase: str) -> None:
    assert resolve_due(phrase, Clock(now=FIXED_NOW, tz=BERLIN)) is None


def test_resolution_keeps_wall_clock_time_across_daylight_saving() -> None:
    # 09:00 in Berlin is 08:00 UTC in winter and 07:00 UTC in summer.
    summer = resolve_due("april 10", Clock(now=FIXED_NOW, tz=BERLIN))
    assert summer is not None
    assert summer.hour == 9 and summer.utcoffset() is not None and summer.utcoffset().total_seconds() == 7200


def test_other_timezones_resolve_in_their_own_wall_clock() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    now = datetime(2026, 11, 23, 2, 30, tzinfo=tokyo)  # the same instant as FIXED_NOW
    assert now == FIXED_NOW
    assert resolve_due("tomorrow", Clock(now=now, tz=tokyo)) == datetime(2026, 11, 24, 9, tzinfo=tokyo)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("remind me to call the dentist Thursday", "Thursday"),
        ("buy milk and call mom tomorrow", "tomorrow"),
        ("meeting at 5pm on friday", "at 5pm on friday"),
        ("pay rent on the 1st", "on the 1st"),
        ("call mom in 2 weeks", "in 2 weeks"),
    ],
)
def test_due_phrases_are_found_inside_sentences(text: str, phrase: str) -> None:
    found = find_due_phrase(text, Clock(now=FIXED_NOW, tz=BERLIN))
    assert found is not None
    assert found.text == phrase
    assert found.moment == resolve_due(phrase, Clock(now=FIXED_NOW, tz=BERLIN))


@pytest.mark.parametrize(
    "text",
    [
        "may I ask a question",
        "buy milk now",
        "call mom",
        "second thoughts on the plan",
        "water the plants every morning",
    ],
)
def test_words_that_only_look_like_dates_are_ignored(text: str) -> None:
    assert find_due_phrase(text, Clock(now=FIXED_NOW, tz=BERLIN)) is None


def test_the_dictation_language_reads_due_phrases(clock: Clock) -> None:
    german = ("de", "en")
    assert resolve_due("in zwei Wochen", clock) is None
    assert resolve_due("in zwei Wochen", clock, german) == datetime(2026, 12, 6, 9, 0, tzinfo=clock.tz)
    assert resolve_due("Thursday", clock, german) == datetime(2026, 11, 26, 9, 0, tzinfo=clock.tz)


def test_the_settings_language_reaches_the_service(tmp_path: Path) -> None:
    settings = Settings(speech=SpeechSettings(language="de-AT"))
    service = build_service(tmp_path / "m.db", settings, offline=True)
    assert service.clock().languages == ("de", "en")
    assert build_service(tmp_path / "n.db", Settings(), offline=True).clock().languages == ("en",)


@pytest.mark.parametrize(
    ("phrase", "seconds"),
    [
        ("in 90 seconds", 90),
        ("in 1 minute", 60),
        ("in a minute", 60),
        ("in half an hour", 1800),
        ("in an hour and a half", 5400),
        ("in 2 and a half hours", 9000),
        ("in a couple of minutes", 120),
        ("in 10 mins", 600),
        ("in 1.5 hours", 5400),
        ("in ten seconds", 10),
    ],
)
def test_a_span_from_now_is_counted_to_the_second(phrase: str, seconds: int) -> None:
    said_at = Clock(now=datetime(2026, 11, 26, 10, 0, 41, tzinfo=BERLIN), tz=BERLIN)
    assert resolve_due(phrase, said_at) == said_at.now + timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("thursday at 3pm", datetime(2026, 11, 26, 15)),  # still ahead today
        ("on thu at 11", datetime(2026, 11, 26, 11)),
        ("thursday at 9am", datetime(2026, 12, 3, 9)),  # already past: next week
        ("next thursday at 3pm", datetime(2026, 12, 3, 15)),
        ("friday at 3pm", datetime(2026, 11, 27, 15)),
    ],
)
def test_a_weekday_said_on_that_weekday_is_today_while_its_time_is_ahead(phrase: str, expected: datetime) -> None:
    thursday_morning = Clock(now=datetime(2026, 11, 26, 10, 0, 41, tzinfo=BERLIN), tz=BERLIN)
    assert resolve_due(phrase, thursday_morning) == expected.replace(tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("Sun 22 Nov 2026 17:00", at(22, 17)),  # its date named: earlier today stays today, overdue
        ("Sunday 22 Nov at 5pm", at(22, 17)),
        ("2026-11-22 17:00", at(22, 17)),
        ("Fri 20 Nov 08:00", at(20, 8)),  # a Friday this year, not 20 Nov 2027 (a Saturday)
        ("Fri 20 Nov", at(20, 9)),
        ("Fri 3 Dec 2027 15:00", datetime(2027, 12, 3, 15, tzinfo=BERLIN)),  # its year written: as written
        ("20 Nov 08:00", datetime(2027, 11, 20, 8, tzinfo=BERLIN)),  # no weekday: the next 20 Nov
    ],
)
def test_a_date_written_out_is_that_date(phrase: str, expected: datetime) -> None:
    """Words that name a calendar day are read as that day, past or not: a due shown in a field reads back as
    itself, and a weekday said with a date picks the year they agree in."""
    assert resolve_due(phrase, Clock(now=FIXED_NOW, tz=BERLIN)) == expected
