"""The stretch a question asks about, read against the clock: weekends under way, weeks ending, a day that
is an hour longer, deadlines."""

from datetime import UTC, datetime

from app.domain.clock import Clock
from app.offline.answers.periods import Ask, read_period
from tests.offline.answers.week import MONDAY, at
from tests.support.clock import BERLIN


def test_this_weekend_said_on_sunday_is_what_is_left_of_it() -> None:
    sunday = Clock(now=at(29, 10), tz=BERLIN)
    period = read_period("anything this weekend", sunday)
    assert period is not None and (period.start, period.end) == (at(29, 0), at(30, 0))


def test_next_weekend_is_the_one_after_next_monday_as_a_due_said_so() -> None:
    period = read_period("what's on next weekend", MONDAY)
    assert period is not None and (period.start, period.end) == (at(5, 0, month=12), at(7, 0, month=12))


def test_this_week_ends_with_sunday_and_next_week_is_monday_to_sunday() -> None:
    this_week, next_week = read_period("what's due this week", MONDAY), read_period("what's due next week", MONDAY)
    assert this_week is not None and (this_week.start, this_week.end) == (at(23, 0), at(30, 0))
    assert next_week is not None and (next_week.start, next_week.end) == (at(30, 0), at(7, 0, month=12))


def test_a_weekday_falls_where_a_due_said_so_would() -> None:
    # Said on a Monday morning, "on monday" is next week's, as "call mom on monday" would be due then.
    period = read_period("anything on monday", MONDAY)
    assert period is not None and period.label == "on Mon Nov 30" and period.start == at(30, 0)
    thursday = read_period("is anything due on thursday", MONDAY)
    assert thursday is not None and thursday.label == "on Thursday" and thursday.start == at(26, 0)


def test_by_a_weekday_runs_from_today_to_its_end_and_hears_what_is_late() -> None:
    period = read_period("what do I need to get done by friday", MONDAY)
    assert period is not None and (period.start, period.end) == (at(23, 0), at(28, 0)) and period.with_overdue


def test_left_starts_now() -> None:
    period = read_period("what have I got left today", MONDAY)
    assert period is not None and period.start == MONDAY.now and period.still


def test_tomorrow_on_the_day_the_clocks_go_back_has_twenty_five_hours() -> None:
    saturday = Clock(now=datetime(2026, 10, 24, 12, 0, tzinfo=BERLIN), tz=BERLIN)
    period = read_period("what's due tomorrow", saturday)
    assert period is not None and period.end is not None
    assert (period.end.astimezone(UTC) - period.start.astimezone(UTC)).total_seconds() == 25 * 3600


def test_what_is_next_and_what_is_late_have_no_window_of_days() -> None:
    following, late = read_period("what's next", MONDAY), read_period("what's overdue", MONDAY)
    assert following is not None and following.ask is Ask.NEXT and following.end is None
    assert late is not None and late.ask is Ask.OVERDUE


def test_a_question_naming_no_period_has_none() -> None:
    assert read_period("when is the dentist", MONDAY) is None
