"""Every kind of time phrase, said inside ordinary sentences at every hour (on the hour and at :55) of a week,
months' and a year's ends, a 1st and the daylight-saving changes of Berlin and New York, read by the offline
rules: no reading breaks a rule of tests/support/time_phrase_sweep.py. `bench/date_sweep_bench.py` reads
every phrase on every one of those days."""

from datetime import datetime

import pytest

from tests.support.time_phrase_sweep import (
    CLOCK_NOT_DATE,
    DAYS,
    KINDS,
    MINUTES,
    NEAR_DAY_NAMED,
    OUT_OF_TITLE,
    TODAY_STAYS_TODAY,
    TONIGHT_IS_TODAY,
    PhraseKind,
    Reading,
    broken_rules,
    clock_at,
    grid,
    sweep,
)


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_a_time_phrase_reads_right_at_every_hour(kind: PhraseKind) -> None:
    misses = [f"{reading}: {'; '.join(rules)}" for reading, rules in sweep(kind) if rules]
    assert not misses, "\n".join(misses)


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_each_phrase_is_said_at_every_hour_and_on_every_day(kind: PhraseKind) -> None:
    said = list(grid(kind, full=False))
    local = [s.clock.now.astimezone(s.clock.tz) for s in said]
    assert {(moment.date(), s.clock.tz) for s, moment in zip(said, local, strict=True)} == set(DAYS)
    assert len(said) == 24 * len(MINUTES) and {s.number for s in said} == set(kind.numbers)


def _reading(kind_name: str, number: int, due: datetime, summary: str, now: datetime) -> tuple[Reading, list[str]]:
    kind = next(kind for kind in KINDS if kind.name == kind_name)
    clock = clock_at(now.date(), DAYS[0][1], now.hour, now.minute)
    reading = Reading(kind, kind.words(number), f"feed the cat {kind.words(number)}", clock, summary, due)
    return reading, broken_rules(reading, kind.meant(number, reading.now))


def test_the_rules_catch_an_hour_read_as_a_month_and_a_phrase_left_in_the_title() -> None:
    said_at = datetime(2027, 6, 14, 21, 55)
    _, broken = _reading("tonight at N", 9, datetime(2028, 9, 14, 21, 0), "Feed the cat tonight", said_at)
    assert {CLOCK_NOT_DATE, NEAR_DAY_NAMED, TONIGHT_IS_TODAY, OUT_OF_TITLE} <= set(broken)


def test_the_rules_catch_today_at_tomorrows_midnight() -> None:
    _, broken = _reading("today", 0, datetime(2027, 6, 15, 0, 0), "Feed the cat", datetime(2027, 6, 14, 23, 0))
    assert broken == [TODAY_STAYS_TODAY]


def test_the_rules_let_a_right_reading_pass() -> None:
    _, broken = _reading(
        "tonight at N", 11, datetime(2027, 6, 14, 23, 0), "Feed the cat", datetime(2027, 6, 14, 21, 55)
    )
    assert broken == []
