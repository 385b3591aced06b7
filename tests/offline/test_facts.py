"""Facts the user asks to remember: about them or their people, a memory; anything else "remember that", a note."""

import pytest

from app.domain.actions import CreateAction
from app.domain.enums import Category
from tests.support.offline_entries import interpret


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember that my wife is allergic to shellfish", "My wife is allergic to shellfish"),
        ("Remember that I'm left-handed.", "I'm left-handed"),
        ("remember that our landlord is Mr. Brown", "Our landlord is Mr. Brown"),
        ("remember that Priya's birthday is the 9th of July", "Priya's birthday is the 9th of July"),
        ("keep in mind that I prefer window seats", "I prefer window seats"),
        ("um remember that my son's school is St. Mary's", "My son's school is St. Mary's"),
    ],
)
def test_a_fact_about_the_user_or_their_people_is_a_memory(said: str, kept: str) -> None:
    result = interpret(said, [])
    assert (result.remember, result.actions) == ((kept,), [])


@pytest.mark.parametrize(
    "said",
    [
        "remember that I need to call the bank",  # a task
        "remember that my flight is at 6am tomorrow",  # one day, not a fact
        "remember that I parked on level 2",  # what happened
        "remember that my wifi password is hunter2",  # a secret never goes to a model's prompt
        "remember that it's recycling day",  # about no one
        "remember that the keys are in the drawer",
    ],
)
def test_other_things_to_remember_are_not_memories(said: str) -> None:
    result = interpret(said, [])
    assert result.remember == ()
    [action] = result.actions
    assert isinstance(action, CreateAction) and action.category in (Category.NOTE, Category.REMINDER, Category.TODO)


def test_a_fact_taken_back_is_not_remembered() -> None:
    assert interpret("remember that I'm vegan, scratch that", []).remember == ()
