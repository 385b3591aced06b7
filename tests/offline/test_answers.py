"""The rules answer what is due from the list itself, and change nothing doing so."""

from datetime import datetime

import pytest

from tests.support.clock import BERLIN
from tests.support.offline_entries import ENTRIES, entry, interpret

# FIXED_CLOCK is Sunday 22 November 2026, 18:30 in Berlin; the passport is due Friday 09:00.
TONIGHT = entry("111111", "Put the bins out", due_at=datetime(2026, 11, 22, 20, 0, tzinfo=BERLIN))
MONDAY = entry("222222", "Call the bank", due_at=datetime(2026, 11, 23, 10, 0, tzinfo=BERLIN))
LATE = entry("333333", "Return the library books", due_at=datetime(2026, 11, 20, 12, 0, tzinfo=BERLIN))
LIST = [*ENTRIES, TONIGHT, MONDAY, LATE]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "what's due today",
            "Due today: Put the bins out (20:00). Also overdue: Return the library books (Fri 12:00).",
        ),
        ("what do I have to do tomorrow", "Due tomorrow: Call the bank (Mon 10:00). Also overdue:"),
        ("what's overdue?", "Overdue: Return the library books (Fri 12:00)."),
        ("anything due this week", "Due this week: Put the bins out (20:00)."),
    ],
)
def test_questions_about_what_is_due_are_answered(question: str, answer: str) -> None:
    result = interpret(question, LIST)
    assert result.actions == [] and result.failures == []
    assert result.answer is not None and result.answer.startswith(answer)


def test_next_week_s_passport_is_not_due_this_week_but_named_for_the_week_after() -> None:
    # Sunday evening: "this week" ends tonight, so Friday's passport belongs to next week.
    assert "Renew passport" not in (interpret("what's due this week", LIST).answer or "")


def test_nothing_due_says_so() -> None:
    assert interpret("what's due tomorrow", ENTRIES).answer == "Nothing is due tomorrow."


def test_a_task_that_starts_like_a_question_is_still_a_task() -> None:
    result = interpret("remind me what the plumber said tomorrow", LIST)
    assert result.answer is None and result.actions
