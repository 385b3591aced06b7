"""What a new entry's card keeps: deadline words and filler leave it, the time said after a filler is read, a
remembered day gives its date, and only the same task is named as looking alike."""

from dataclasses import replace
from datetime import datetime

import pytest

from app.changes.interpretation import InterpretContext
from app.domain.actions import CreateAction
from app.domain.clock import Clock
from app.domain.dates import resolve_due
from app.domain.enums import Category
from app.domain.local_calendar import personal_days
from app.offline import OfflineInterpreter
from app.offline.vocabulary import without_filler
from app.store.models import Entry
from tests.support.clock import BERLIN, FIXED_CLOCK
from tests.support.offline_entries import entry


def created(said: str, clock: Clock = FIXED_CLOCK, entries: list[Entry] | None = None) -> CreateAction:
    result = OfflineInterpreter().interpret(said, InterpretContext(entries=entries or [], clock=clock))
    [action] = result.actions
    assert isinstance(action, CreateAction), action
    return action


def due_of(action: CreateAction, clock: Clock = FIXED_CLOCK) -> datetime | None:
    moment = resolve_due(action.due_text, clock) if action.due_text else None
    return moment.astimezone(BERLIN).replace(tzinfo=None) if moment else None


# Said on Sunday 2026-11-22 at 18:30 (FIXED_CLOCK).
@pytest.mark.parametrize(
    ("said", "summary", "due"),
    [
        ("mail the tax forms no later than Tuesday", "Mail the tax forms", datetime(2026, 11, 24, 9)),
        ("submit the expenses by Thursday at the latest", "Submit the expenses", datetime(2026, 11, 26, 9)),
        ("send the invoice by Wednesday, at the very latest", "Send the invoice", datetime(2026, 11, 25, 9)),
        ("pick up the dry cleaning by Saturday latest", "Pick up the dry cleaning", datetime(2026, 11, 28, 9)),
        ("renew the insurance sometime before the 15th", "Renew the insurance", datetime(2026, 12, 15, 9)),
        ("pay the rent in time for the 1st", "Pay the rent", datetime(2026, 12, 1, 9)),
        ("um call the bank tomorrow at like 3", "Call the bank", datetime(2026, 11, 23, 15)),
        ("so basically text Jo like Friday", "Text Jo", datetime(2026, 11, 27, 9)),
        ("book the venue at around 11 tomorrow", "Book the venue", datetime(2026, 11, 23, 11)),
        ("you know, clean the oven for like Monday", "Clean the oven", datetime(2026, 11, 23, 9)),
        ("uh defrost the soup at like 8 in the morning", "Defrost the soup", datetime(2026, 11, 23, 8)),
    ],
)
def test_deadline_words_and_filler_leave_the_card_and_the_time_is_read(said: str, summary: str, due: datetime) -> None:
    action = created(said)
    assert (action.summary, due_of(action)) == (summary, due)


def test_a_reminder_said_with_hesitations_keeps_its_time() -> None:
    action = created("remind me to uh feed the cat at um 5")
    assert (action.category, action.summary, due_of(action)) == (
        Category.REMINDER,
        "Feed the cat",
        datetime(2026, 11, 23, 17),
    )


@pytest.mark.parametrize(
    "said", ["get the latest report", "I'd like 2 tickets for the show", "it looks like tomorrow is free"]
)
def test_latest_and_like_that_mean_something_stay(said: str) -> None:
    assert without_filler(said) == said
    assert "latest" not in said or "latest" in created(said).summary


PERSONAL = replace(
    FIXED_CLOCK,
    calendar=replace(
        FIXED_CLOCK.calendar,
        personal=personal_days(["My dad's birthday is August 20", "My sister's wedding anniversary is September 2"]),
    ),
)


@pytest.mark.parametrize(
    ("said", "summary", "due"),
    [
        ("buy a gift for my father's birthday", "Buy a gift", datetime(2027, 8, 20, 9)),
        ("bake a cake before my daddy's birthday", "Bake a cake", datetime(2027, 8, 20, 9)),
        ("call the florist on my dad's birthday", "Call the florist", datetime(2027, 8, 20, 9)),
        ("book a restaurant for my sister's wedding anniversary", "Book a restaurant", datetime(2027, 9, 2, 9)),
        ("frame the photo before my sis's wedding anniversary", "Frame the photo", datetime(2027, 9, 2, 9)),
    ],
)
def test_a_remembered_day_is_a_date_under_any_word_for_the_person(said: str, summary: str, due: datetime) -> None:
    action = created(said, PERSONAL)
    assert (action.summary, due_of(action, PERSONAL)) == (summary, due)


def test_only_the_same_task_is_named_as_looking_alike() -> None:
    note = entry("a0a0a0", "My brother's birthday is May 5", Category.NOTE)
    plumber = entry("b1b1b1", "Call the plumber")
    cake = entry("c2c2c2", "Order the cake for Sam's party")
    listed = [note, plumber, cake]
    assert created("get a card for my brother's birthday", entries=listed).similar_to is None
    assert created("email the plumber", entries=listed).similar_to is None
    assert created("remind me to order the cake", entries=listed).similar_to == cake.id
    assert created("remind me to call the plumber tomorrow", entries=listed).similar_to == plumber.id


@pytest.mark.parametrize(
    ("said", "listed", "alike"),
    [
        # Words everybody says make nothing alike: "a", "new", "the", "buy", "big", "said", "needs".
        ("buy a new phone charger", "The plumber said the boiler needs a new pressure valve", False),
        ("buy a new lamp", "New year's eve party", False),
        ("book the new dentist", "The new neighbours moved in", False),
        ("order a big box", "Big game on Saturday", False),
        ("wash the old car", "Old photos in the attic", False),
        ("buy eggs", "Buy milk", False),
        # The thing itself, in any of its forms, is shared.
        ("buy a new phone charger", "Phone charger", True),
        ("call the dentist", "Dentist appointment", True),
        ("prepare the marketing presentation", "Prepare the sales presentation", True),
        ("fix the leaking tap", "The tap leaks", True),
        ("book flights to Rome", "Flight to Rome for the wedding", True),
    ],
)
def test_a_new_entry_looks_like_a_listed_one_only_by_the_words_that_name_the_thing(
    said: str, listed: str, alike: bool
) -> None:
    other = entry("e5e5e5", listed)
    assert (created(said, entries=[other]).similar_to == other.id) is alike
