"""An entry's text moved with its due: the words that named the old due name the new one, in their own style;
words that named something else, and texts without any, stay as they are."""

from datetime import date, datetime

import pytest

from app.changes.due_words import redated_text
from tests.support.clock import BERLIN

WRITTEN_ON = date(2026, 11, 23)  # a Monday
SEVEN_PM_THURSDAY = datetime(2026, 11, 26, 19, 0, tzinfo=BERLIN)


def at(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("text", "new", "rewritten"),
    [
        ("Call mom at 7pm", at(26, 20), "Call mom at 8pm"),
        ("Call mom at 7 PM", at(26, 20, 30), "Call mom at 8:30 PM"),
        ("Call mom at 7:00 p.m.", at(26, 8), "Call mom at 8:00 a.m."),
        ("Call mom at 19:00", at(26, 20), "Call mom at 20:00"),
        ("Call mom at 7:00", at(26, 20), "Call mom at 8:00"),
        ("Call mom Thursday at 7pm", at(27, 20), "Call mom Friday at 8pm"),
        ("Call mom on thu at 7pm", at(27, 19), "Call mom on Fri at 7pm"),
        ("call mom thursday", at(3, 19, month=12), "call mom 3 Dec"),  # beyond the week: its date
        ("Call mom on 26 Nov at 7pm", at(5, 20, month=12), "Call mom on 5 Dec at 8pm"),
        ("Call mom on November 26th", at(3, 19, month=12), "Call mom on December 3rd"),
        ("Call mom Thursday 26 Nov at 7pm", at(5, 20, month=12), "Call mom Saturday 5 Dec at 8pm"),
    ],
)
def test_the_words_of_the_old_due_name_the_new_one_in_their_style(text: str, new: datetime, rewritten: str) -> None:
    assert redated_text(text, SEVEN_PM_THURSDAY, new, BERLIN, WRITTEN_ON) == rewritten


@pytest.mark.parametrize(
    ("text", "new", "rewritten"),
    [
        ("Call mom tomorrow at 7pm", at(24, 20), "Call mom tomorrow at 8pm"),
        ("Call mom tomorrow at 7pm", at(26, 19), "Call mom Thursday at 7pm"),
        ("Call mom today", at(24, 19), "Call mom tomorrow"),
    ],
)
def test_today_and_tomorrow_count_from_the_day_the_text_was_written(text: str, new: datetime, rewritten: str) -> None:
    old = at(24, 19) if "tomorrow" in text else at(23, 19)
    assert redated_text(text, old, new, BERLIN, WRITTEN_ON) == rewritten


@pytest.mark.parametrize(
    "text",
    [
        "Call mom",  # no due words at all
        "Call mom about the 6pm film",  # another time
        "Buy 7 apples for Friday's party",  # a number, and another day
        "Call mom at 7pm",  # moved a day, same hour: the time still holds
    ],
)
def test_words_that_named_something_else_stay(text: str) -> None:
    assert redated_text(text, SEVEN_PM_THURSDAY, at(27, 19), BERLIN, WRITTEN_ON) == text


def test_a_due_that_did_not_move_changes_nothing() -> None:
    assert (
        redated_text("Call mom at 7pm", SEVEN_PM_THURSDAY, SEVEN_PM_THURSDAY, BERLIN, WRITTEN_ON) == "Call mom at 7pm"
    )
