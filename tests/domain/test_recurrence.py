"""Repeat rules: read from speech, checked, stepped across months and daylight-saving changes, described."""

from datetime import datetime, time

import pytest

from app.domain.enums import Cadence
from app.domain.recurrence import (
    canonical_rule,
    describe,
    find_recurrence,
    first_occurrence,
    next_occurrence,
    rule_for_cadence,
    rule_from,
)
from app.errors import InvalidActionError
from tests.support.clock import BERLIN, FIXED_NOW

WEEKDAYS = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
FORTNIGHTLY_MONDAY = "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"


@pytest.mark.parametrize(
    ("text", "rule", "phrase"),
    [
        ("stretch daily", "FREQ=DAILY", "daily"),
        ("stretch every day", "FREQ=DAILY", "every day"),
        ("each day read a page", "FREQ=DAILY", "each day"),
        ("floss nightly", "FREQ=DAILY", "nightly"),
        ("stand-up every weekday at 7am", WEEKDAYS, "every weekday"),
        ("stand-up on weekdays", WEEKDAYS, "on weekdays"),
        ("stand-up weekdays", WEEKDAYS, "weekdays"),
        ("lie in every weekend", "FREQ=WEEKLY;BYDAY=SA,SU", "every weekend"),
        ("weekly review", "FREQ=WEEKLY", "weekly"),
        ("call grandma every week", "FREQ=WEEKLY", "every week"),
        ("call grandma once a week", "FREQ=WEEKLY", "once a week"),
        ("pay the cleaner monthly", "FREQ=MONTHLY", "monthly"),
        ("pay rent every month", "FREQ=MONTHLY", "every month"),
        ("back up once a month", "FREQ=MONTHLY", "once a month"),
        ("service the boiler yearly", "FREQ=YEARLY", "yearly"),
        ("service the boiler annually", "FREQ=YEARLY", "annually"),
        ("service the boiler every year", "FREQ=YEARLY", "every year"),
        ("bins every monday", "FREQ=WEEKLY;BYDAY=MO", "every monday"),
        ("bins each Monday", "FREQ=WEEKLY;BYDAY=MO", "each Monday"),
        ("bins on mondays", "FREQ=WEEKLY;BYDAY=MO", "on mondays"),
        ("bins every single monday", "FREQ=WEEKLY;BYDAY=MO", "every single monday"),
        ("gym every monday and thursday", "FREQ=WEEKLY;BYDAY=MO,TH", "every monday and thursday"),
        ("gym every monday wednesday and friday", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "every monday wednesday and friday"),
        ("team sync every other monday", FORTNIGHTLY_MONDAY, "every other monday"),
        ("team sync every second monday", FORTNIGHTLY_MONDAY, "every second monday"),
        ("team sync every 2 weeks on monday", FORTNIGHTLY_MONDAY, "every 2 weeks on monday"),
        ("team sync biweekly", "FREQ=WEEKLY;INTERVAL=2", "biweekly"),
        ("water the cactus every other day", "FREQ=DAILY;INTERVAL=2", "every other day"),
        ("change the filter every 10 days", "FREQ=DAILY;INTERVAL=10", "every 10 days"),
        ("change the filter every ten days", "FREQ=DAILY;INTERVAL=10", "every ten days"),
        ("haircut every 6 weeks", "FREQ=WEEKLY;INTERVAL=6", "every 6 weeks"),
        ("check the tyres every three months", "FREQ=MONTHLY;INTERVAL=3", "every three months"),
        ("run twice a week", "FREQ=WEEKLY;BYDAY=MO,TH", "twice a week"),
        ("swim three times a week", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "three times a week"),
        ("brush twice a day", "FREQ=DAILY", "twice a day"),
        ("pay the nanny twice a month", "FREQ=MONTHLY;BYMONTHDAY=1,15", "twice a month"),
        ("pay rent on the 15th of every month", "FREQ=MONTHLY;BYMONTHDAY=15", "on the 15th of every month"),
        ("pay rent the 15th of each month", "FREQ=MONTHLY;BYMONTHDAY=15", "the 15th of each month"),
        ("pay rent every month on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "every month on the 15th"),
        ("pay rent on the fifteenth of every month", "FREQ=MONTHLY;BYMONTHDAY=15", "on the fifteenth of every month"),
        ("invoice monthly on the 1st", "FREQ=MONTHLY;BYMONTHDAY=1", "monthly on the 1st"),
        ("invoice the last day of every month", "FREQ=MONTHLY;BYMONTHDAY=-1", "the last day of every month"),
        ("card for mum every year on May 5th", "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=5", "every year on May 5th"),
        ("card for mum every May 5th", "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=5", "every May 5th"),
        ("card for mum every 5th of May", "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=5", "every 5th of May"),
        ("card for mum annually on may 5", "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=5", "annually on may 5"),
        ("book club every first monday of the month", "FREQ=MONTHLY;BYDAY=1MO", "every first monday of the month"),
        ("book club every last friday of the month", "FREQ=MONTHLY;BYDAY=-1FR", "every last friday of the month"),
    ],
)
def test_spoken_repeats_become_rules(text: str, rule: str, phrase: str) -> None:
    found = find_recurrence(text)
    assert found is not None and (found.rule, found.phrase) == (rule, phrase)
    assert canonical_rule(rule) == rule


@pytest.mark.parametrize(
    ("text", "phrase", "day_part"),
    [
        ("water the ferns every morning", "every morning", "morning"),
        ("walk every afternoon", "every afternoon", "afternoon"),
        ("pills every evening", "every evening", "evening"),
        ("floss every night", "every night", "night"),
        ("floss nightly", "nightly", "night"),
        ("yoga every monday evening", "every monday evening", "evening"),
        ("stretch every day in the morning", "every day in the morning", "morning"),
        ("stretch every day at 7", "every day", None),
    ],
)
def test_a_named_part_of_the_day_is_kept_apart(text: str, phrase: str, day_part: str | None) -> None:
    found = find_recurrence(text)
    assert found is not None and (found.phrase, found.day_part) == (phrase, day_part)


@pytest.mark.parametrize(
    "text",
    ["check every single item", "tell everyone", "read for 10 minutes", "call mom on monday", "every second counts"],
)
def test_words_that_are_not_repeats(text: str) -> None:
    assert find_recurrence(text) is None


def test_the_old_cadences_are_rules() -> None:
    assert [rule_for_cadence(c) for c in Cadence] == ["FREQ=DAILY", WEEKDAYS, "FREQ=WEEKLY", "FREQ=MONTHLY"]


def test_rules_are_written_one_way() -> None:
    assert canonical_rule("rrule:byday=th,mo;interval=1;freq=weekly") == "FREQ=WEEKLY;BYDAY=MO,TH"
    assert canonical_rule("BYDAY=MO;FREQ=WEEKLY;INTERVAL=2") == FORTNIGHTLY_MONDAY


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("FREQ=FORTNIGHTLY", "needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY"),
        ("FREQ=WEEKLY;BYDAY=XX", "can't read the repeat rule 'FREQ=WEEKLY;BYDAY=XX': invalid 'BYDAY': XX"),
        ("FREQ=WEEKLY;COUNT=3", "has COUNT; a habit's rule has only FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL goes from 1 to 999"),
        ("FREQ=MONTHLY;BYMONTHDAY=40", "BYMONTHDAY goes from -31 to 31"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30,31", "never comes round"),
        ("FREQ", "expected parts like FREQ=WEEKLY;BYDAY=MO"),
    ],
)
def test_a_bad_rule_is_refused_in_one_line(body: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message.replace("(", r"\(")) as raised:
        canonical_rule(body)
    assert "\n" not in str(raised.value)


def test_what_a_model_writes_for_a_repeat() -> None:
    assert rule_from("weekdays") == WEEKDAYS
    assert rule_from("every other monday") == FORTNIGHTLY_MONDAY
    assert rule_from("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO") == FORTNIGHTLY_MONDAY
    assert rule_from("now and then") is None


def local(day: int, hour: int, minute: int = 0, month: int = 11, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute)


FRIDAY_NOON = local(20, 12)


@pytest.mark.parametrize(
    ("rule", "after", "expected"),
    [
        (FORTNIGHTLY_MONDAY, FRIDAY_NOON, local(23, 9)),  # the coming Monday, the fortnight counted from there
        ("FREQ=WEEKLY;BYDAY=MO,TH", FRIDAY_NOON, local(23, 9)),
        (WEEKDAYS, local(23, 8), local(23, 9)),  # still ahead today
        ("FREQ=WEEKLY", FRIDAY_NOON, local(21, 9)),  # no day named: the next 09:00
        ("FREQ=DAILY;INTERVAL=10", local(20, 8), local(20, 9)),
        ("FREQ=MONTHLY;BYMONTHDAY=15", FRIDAY_NOON, local(15, 9, month=12)),
        ("FREQ=MONTHLY;BYMONTHDAY=31", FRIDAY_NOON, local(30, 9)),  # no 31 November: its last day
        ("FREQ=MONTHLY;BYDAY=1MO", FRIDAY_NOON, local(7, 9, month=12)),
        ("FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=5", FRIDAY_NOON, local(5, 9, month=5, year=2027)),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", FRIDAY_NOON, local(28, 9, month=2, year=2027)),
    ],
)
def test_the_first_occurrence(rule: str, after: datetime, expected: datetime) -> None:
    assert first_occurrence(rule, after, time(9, 0)) == expected


def at(day: int, hour: int, minute: int = 0, month: int = 11, year: int = 2026) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=BERLIN)


# FIXED_NOW is Sunday 22 November 2026, 18:30.
@pytest.mark.parametrize(
    ("rule", "due", "expected"),
    [
        ("FREQ=DAILY", at(22, 7), at(23, 7)),
        ("FREQ=DAILY", at(10, 7), at(23, 7)),  # long overdue: the next one after now, not a backlog
        ("FREQ=DAILY", None, at(23, 9)),
        (WEEKDAYS, at(20, 7), at(23, 7)),  # Friday -> Monday
        ("FREQ=WEEKLY", at(19, 18), at(26, 18)),
        ("FREQ=MONTHLY", at(30, 8, month=10), at(30, 8)),
        ("FREQ=MONTHLY", at(31, 8, month=10), at(30, 8)),  # no 31 November: the month's last day
        ("FREQ=MONTHLY;BYMONTHDAY=-1", at(31, 8, month=10), at(30, 8)),
        ("FREQ=MONTHLY;BYMONTHDAY=31", at(31, 8, month=10), at(30, 8)),
        (FORTNIGHTLY_MONDAY, at(16, 9), at(30, 9)),  # done late: still on its fortnight
        (FORTNIGHTLY_MONDAY, at(30, 9), at(14, 9, month=12)),  # done early: one step on
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", at(19, 9), at(30, 9)),
        ("FREQ=DAILY;INTERVAL=10", at(20, 7), at(30, 7)),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", at(29, 9, month=2, year=2024), at(28, 9, month=2, year=2027)),
        ("FREQ=YEARLY", at(29, 9, month=2, year=2024), at(28, 9, month=2, year=2027)),
    ],
)
def test_a_habit_rolls_to_its_next_occurrence(rule: str, due: datetime | None, expected: datetime) -> None:
    assert next_occurrence(rule, due, FIXED_NOW, BERLIN) == expected


def test_the_clock_time_is_kept_across_daylight_saving() -> None:
    """Berlin springs forward on Sunday 29 March 2026 and falls back on Sunday 25 October 2026."""
    spring = next_occurrence("FREQ=DAILY", at(28, 7, month=3), at(28, 8, month=3), BERLIN)
    assert spring == at(29, 7, month=3) and spring.utcoffset() != at(28, 7, month=3).utcoffset()
    autumn = next_occurrence("FREQ=WEEKLY;BYDAY=SA", at(24, 7, month=10), at(24, 8, month=10), BERLIN)
    assert autumn == at(31, 7, month=10) and autumn.hour == 7


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("FREQ=DAILY", "every day"),
        ("FREQ=DAILY;INTERVAL=2", "every other day"),
        ("FREQ=DAILY;INTERVAL=10", "every 10 days"),
        (WEEKDAYS, "every weekday"),
        ("FREQ=WEEKLY;BYDAY=SA,SU", "every weekend"),
        ("FREQ=WEEKLY", "every week"),
        ("FREQ=WEEKLY;BYDAY=MO,TH", "every Monday and Thursday"),
        ("FREQ=WEEKLY;BYDAY=MO,WE,FR", "every Monday, Wednesday and Friday"),
        (FORTNIGHTLY_MONDAY, "every other Monday"),
        ("FREQ=WEEKLY;INTERVAL=3;BYDAY=MO", "every 3 weeks on Monday"),
        ("FREQ=MONTHLY", "every month"),
        ("FREQ=MONTHLY;BYMONTHDAY=15", "on the 15th of every month"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", "on the 1st and 15th of every month"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "on the last day of every month"),
        ("FREQ=MONTHLY;BYDAY=1MO", "on the first Monday of every month"),
        ("FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=5", "every year on May 5"),
        ("FREQ=YEARLY", "every year"),
    ],
)
def test_a_rule_in_words_reads_back_as_itself(rule: str, words: str) -> None:
    """What the list shows can be typed back into it (the Repeats column is edited in words)."""
    assert describe(rule) == words
    found = find_recurrence(words)
    assert found is not None and found.rule == rule


def test_a_rule_words_cannot_say_is_shown_as_it_is() -> None:
    assert describe("FREQ=MONTHLY;BYMONTH=1,7;BYDAY=MO") == "FREQ=MONTHLY;BYMONTH=1,7;BYDAY=MO"
