"""Questions about the list, in phrasings of every day, answered from it and changing nothing; questions
about the world kept as a Question. The list is a week's (week.py), asked about on a Monday morning."""

import pytest

from app.domain.actions import CreateAction
from app.domain.enums import Category
from app.store.models import Entry
from tests.offline.answers.week import (
    ANNA,
    DENTIST,
    DONE,
    GYM,
    HAIRCUT,
    MOM,
    OIL,
    PLANTS,
    PRESCRIPTION,
    REPORT,
    SNOOZED,
    TEAM,
    ask,
)
from tests.support.offline_entries import entry


def answered(question: str) -> str:
    result = ask(question)
    assert result.actions == [] and result.failures == [], f"{question!r} changed the list"
    assert result.answer is not None, f"{question!r} was not answered"
    return result.answer


@pytest.mark.parametrize(
    ("question", "named", "left_out"),
    [
        ("what's on tomorrow", [DENTIST, GYM], [PRESCRIPTION, HAIRCUT]),
        ("got anything on tomorrow?", [DENTIST], [PRESCRIPTION]),
        ("any meetings tomorrow?", [DENTIST], [ANNA]),
        ("show me tomorrow's tasks", [DENTIST], [HAIRCUT]),
        ("have I got anything friday", [REPORT, GYM], [HAIRCUT, ANNA]),
        ("what do I have on wednesday", [ANNA, GYM], [DENTIST, REPORT]),
        ("do i have plans saturday", [HAIRCUT], [REPORT, MOM]),
        ("what are we doing saturday", [HAIRCUT], [REPORT]),
        ("tell me what's due this weekend", [HAIRCUT], [REPORT, PRESCRIPTION]),
        ("what's due next week", [TEAM], [DENTIST, HAIRCUT]),
        ("what's scheduled for next week", [TEAM], [REPORT]),
        ("anything tonight?", [PRESCRIPTION], [DENTIST]),
        ("what are my plans for tonight", [PRESCRIPTION], [HAIRCUT]),
        ("is there anything I need to do today", [PRESCRIPTION, OIL], [HAIRCUT]),
        ("what's on the agenda for today", [PRESCRIPTION], [DENTIST]),
        ("hmm whats due today", [PRESCRIPTION], [TEAM]),
        ("what else is due today", [PRESCRIPTION, OIL], [DENTIST]),
        ("how does my week look", [DENTIST, ANNA, REPORT], [TEAM]),
        ("what's left to do this week", [REPORT, OIL], [TEAM]),
        ("what's due before wednesday", [PRESCRIPTION, DENTIST, ANNA], [REPORT]),
        ("anything due on the 3rd?", [TEAM], [HAIRCUT]),
        ("what's up next", [PRESCRIPTION], [HAIRCUT, TEAM]),
        ("what am I behind on", [OIL], [PRESCRIPTION]),
        ("what did I miss", [OIL], [DENTIST]),
    ],
)
def test_a_question_about_a_period_names_what_falls_in_it(
    question: str, named: list[Entry], left_out: list[Entry]
) -> None:
    answer = answered(question)
    assert [e.summary for e in named if e.summary not in answer] == []
    assert [e.summary for e in left_out if e.summary in answer] == []


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("when am I seeing the dentist", ["Dentist appointment", "tomorrow at 15:00"]),
        ("when's my dentist", ["Dentist appointment", "15:00"]),
        ("what day is my haircut", ["Haircut", "Sat Nov 28 at 10:30"]),
        ("when's the report due", ["Finish the quarterly report", "17:00"]),
        ("when do I see Anna", ["Lunch with Anna", "12:30"]),
        ("which day is lunch with anna", ["Lunch with Anna", "Wed Nov 25"]),
        ("when do I go to the gym", ["Go to the gym", "tomorrow at 07:00", "every Monday, Wednesday and Friday"]),
        ("when do I have to change the oil", ["Change the oil", "overdue since Sat Nov 21 at 09:00"]),
        ("when should I call mom", ["Call mom: no due date"]),
        ("when is the team meeting", ["Team meeting", "Thu Dec 3 at 10:00"]),
        ("when's the landlord email", ["Email the landlord", "snoozed until Thu Nov 26 at 09:00"]),
        ("is lunch with anna still on", ["Yes, Lunch with Anna is on your list", "12:30"]),
        ("have I got the dentist tomorrow", ["Yes, Dentist appointment", "15:00"]),
        ("did I already call mom", ["Not yet: Call mom is still on your list"]),
        ("do I still need to call grandma", ["No, 'call grandma' is not on your list."]),
    ],
)
def test_a_question_about_one_entry_says_when_it_is_due(question: str, words: list[str]) -> None:
    answer = answered(question)
    assert [said for said in words if said not in answer] == []


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("anything on sunday?", "Nothing is due on Sunday."),
        ("anything on saturday", "Due on Saturday: Haircut (Sat 10:30)."),  # no "also overdue" for a weekday
        ("what's overdue", "Overdue: Change the oil (Sat 09:00)."),
        (
            "what's next",
            "Next: Pick up the prescription (18:00), Go to the gym (Tue 07:00), Dentist appointment (Tue 15:00).",
        ),
        (
            "what's left today",
            "Still due today: Pick up the prescription (18:00). Also overdue: Change the oil (Sat 09:00).",
        ),
        ("when's my haircut", "Haircut: Sat Nov 28 at 10:30."),
        ("do I still have to call mom", "Yes, Call mom is on your list (no due date)."),
        ("when is the gym", "Go to the gym: tomorrow at 07:00 (every Monday, Wednesday and Friday)."),
    ],
)
def test_answers_are_one_line_of_summaries_and_short_times(question: str, answer: str) -> None:
    assert answered(question) == answer


def test_a_habit_is_listed_on_each_day_it_comes_round_at_its_own_hour() -> None:
    assert "Go to the gym (Fri 07:00)" in answered("anything on friday")
    assert "Go to the gym" not in answered("anything on thursday")


def test_done_snoozed_and_undated_entries_are_not_listed_for_a_day() -> None:
    answer = answered("what's due today")
    assert all(e.summary not in answer for e in (DONE, SNOOZED, PLANTS, MOM))


def test_an_entry_named_alike_twice_is_answered_for_both() -> None:
    call = entry("100013", "Call the dentist", Category.REMINDER)
    answer = ask("when is the dentist", [DENTIST, MOM, call]).answer
    assert answer is not None and "Dentist appointment: tomorrow at 15:00" in answer
    assert "Call the dentist: no due date" in answer


@pytest.mark.parametrize(
    "question",
    [
        "what time does the pharmacy open on saturday?",
        "when does the dentist open",
        "what's the weather tomorrow",
        "what day is it today",
        "what should I have for dinner tomorrow",
        "is it going to rain on saturday",
        "any good movies this weekend?",
        "how long does it take to get to the airport",
        "why do cats purr",
    ],
)
def test_a_question_about_the_world_is_kept_as_a_question(question: str) -> None:
    result = ask(question)
    assert result.answer is None
    assert len(result.actions) == 1 and isinstance(created := result.actions[0], CreateAction)
    assert created.category is Category.QUESTION and created.due_text is None


@pytest.mark.parametrize("said", ["do the laundry tomorrow", "remind me what the plumber said tomorrow"])
def test_a_sentence_that_opens_like_a_question_but_asks_nothing_is_not_answered(said: str) -> None:
    assert ask(said).answer is None
