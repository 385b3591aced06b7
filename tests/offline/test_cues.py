"""Cues read from a clause that creates an entry: priority, cadence and category."""

import pytest

from app.domain.enums import Category
from app.offline.cues import cut_phrase, is_question, read_category, read_priority


@pytest.mark.parametrize(
    ("text", "level", "rest"),
    [
        ("urgent: pay the bill", 1, "pay the bill"),
        ("pay the bill asap", 1, "pay the bill"),
        ("pay the bill as soon as possible", 1, "pay the bill"),
        ("critical fix the server", 1, "fix the server"),
        ("top priority: fix the server", 1, "fix the server"),
        ("important call the bank", 2, "call the bank"),
        ("high priority call the bank", 2, "call the bank"),
        ("call the bank, it's not urgent", 4, "call the bank"),
        ("low priority clean the garage", 5, "clean the garage"),
        ("clean the garage someday", 5, "clean the garage"),
        ("clean the garage whenever", 5, "clean the garage"),
        ("clean the garage, no rush", 5, "clean the garage"),
        ("P1 ship the release", 1, "ship the release"),
        ("ship the release p5", 5, "ship the release"),
        ("priority three email Sam", 3, "email Sam"),
        ("prepare the important meeting", 2, "prepare the important meeting"),  # an adjective stays
        ("buy a card for Anna", None, "buy a card for Anna"),  # "an" in "Anna" is not a cue word
        ("call mom", None, "call mom"),
    ],
)
def test_priority(text: str, level: int | None, rest: str) -> None:
    assert read_priority(text) == (level, rest)


def test_category_order_puts_reminders_first_and_notes_last() -> None:
    assert read_category("remind me what if we moved", repeats=False).category is Category.REMINDER
    assert read_category("what if we moved", repeats=False).category is Category.IDEA
    assert is_question("when does the market open on sundays") and not is_question("what if we moved")
    assert read_category("I think I should move", repeats=False).category is Category.TODO
    assert read_category("I think we moved", repeats=False).category is Category.THOUGHT
    assert read_category("stretch", repeats=True).category is Category.HABIT
    assert read_category("the desk moved", repeats=False).category is Category.NOTE


@pytest.mark.parametrize(
    ("text", "category", "content"),
    [
        ("remind me to call the vet", Category.REMINDER, "call the vet"),
        ("remind me about the vet", Category.REMINDER, "the vet"),
        ("tomorrow remind me to call the vet", Category.REMINDER, "tomorrow call the vet"),
        ("note that the code is 4711", Category.NOTE, "the code is 4711"),
        ("idea: a podcast", Category.IDEA, "a podcast"),
        ("I need to call the vet", Category.TODO, "call the vet"),
        ("let's plan the trip", Category.TODO, "plan the trip"),
        ("add eggs to the shopping list", Category.LIST, "Shopping list: eggs"),
        ("add eggs to the list", Category.LIST, "List: eggs"),
        ("add call the vet to my todo list", Category.TODO, "call the vet"),
    ],
)
def test_category_and_lead_in(text: str, category: Category, content: str) -> None:
    cue = read_category(text, repeats=False)
    assert (cue.category, cue.rewrite(text)) == (category, content)


def test_cut_phrase_takes_the_hanging_preposition_too() -> None:
    assert cut_phrase("call mom on friday about the trip", "friday") == "call mom about the trip"
    assert cut_phrase("pay the bill by friday", "by friday") == "pay the bill"
