"""Reading a sentence by the open entry it names first, then what the rest of it asks: by kind, with sentences of
this file's own (the blind corpus in tests/data/followups_blind/ is a yardstick, never a source of these)."""

from datetime import datetime, timedelta

import pytest

from app.changes.interpretation import InterpretContext
from app.domain.actions import ArchiveAction, CompleteAction, CreateAction, ParseResult, UpdateAction
from app.domain.enums import Category, FailureKind
from app.offline import OfflineInterpreter
from app.store.models import Entry
from tests.support.offline_entries import CLOCK, entry

SATURDAY_7PM = datetime(2026, 11, 28, 19, 0, tzinfo=CLOCK.tz)
DRY_CLEANING = entry("111111", "Collect the dry cleaning")
GYM_CLASS = entry("222222", "Spin class", Category.REMINDER, due_at=SATURDAY_7PM, due_text="saturday at 7pm")
STRETCH = entry("333333", "Stretch for 15 minutes", Category.HABIT, recurrence="FREQ=DAILY")
GAS = entry("444444", "Pay the gas bill")
WATER = entry("555555", "Pay the water bill")
PARCEL = entry("666666", "Return the shoes parcel")
QUARTERLY = entry("777777", "Finish the quarterly report")
NIECE = entry("888888", "Birthday card for Maya")
SHED = entry("999999", "Paint the shed")
LIST = [DRY_CLEANING, GYM_CLASS, STRETCH, GAS, WATER, PARCEL, QUARTERLY, NIECE, SHED]


def read(text: str, touched: tuple[Entry, ...] = ()) -> ParseResult:
    context = InterpretContext(LIST, CLOCK, last_touched=tuple(e.id for e in touched))
    return OfflineInterpreter().interpret(text, context)


def only(result: ParseResult) -> object:
    assert len(result.actions) == 1 and not result.failures, result
    return result.actions[0]


@pytest.mark.parametrize(
    ("said", "done"),
    [
        ("I did my stretching for fifteen minutes", STRETCH),  # any form, spoken numbers as digits
        ("picked up the dry cleaning on the way home", DRY_CLEANING),  # a verb that does the same task
        ("we finally sent back the shoes parcel", PARCEL),
        ("the shed's been painted", SHED),  # the task itself, in the past
    ],
)
def test_the_past_tense_of_what_the_user_did_completes_the_entry_it_names(said: str, done: Entry) -> None:
    action = only(read(said))
    assert isinstance(action, CompleteAction) and action.entry_id == done.id


def test_someone_elses_doing_completes_nothing() -> None:
    result = read("the gym rang about spin class, they moved it to sunday")
    assert not any(isinstance(action, CompleteAction) for action in result.actions)


@pytest.mark.parametrize(
    ("said", "when"),
    [
        ("could we do spin class on tuesday instead", SATURDAY_7PM - timedelta(days=4)),  # the time it had stays
        ("spin class can wait till monday", SATURDAY_7PM - timedelta(days=5)),
        ("push spin class a couple of hours later", SATURDAY_7PM + timedelta(hours=2)),
    ],
)
def test_a_day_or_a_span_beside_an_entry_moves_it(said: str, when: datetime) -> None:
    action = only(read(said))
    assert isinstance(action, UpdateAction) and action.entry_id == GYM_CLASS.id
    assert action.changes["due_date"] == f"{when:%Y-%m-%d %H:%M}"


def test_priority_and_title_words_change_those() -> None:
    urgent = only(read("oh the quarterly report is urgent"))
    assert isinstance(urgent, UpdateAction) and urgent.changes == {"priority": 1}
    renamed = only(read("the birthday card is for Mila, not Maya"))
    assert isinstance(renamed, UpdateAction) and renamed.changes == {"summary": "Birthday card for Mila"}


@pytest.mark.parametrize(
    "said",
    [
        "buy a spin class voucher",  # another verb: a task of its own
        "finish the annual report",  # another thing of the entry's kind
        "water the shed plants tonight",
    ],
)
def test_words_shared_with_an_entry_do_not_make_a_new_task_about_it(said: str) -> None:
    assert isinstance(only(read(said)), CreateAction)


def test_a_correction_changes_what_was_just_touched() -> None:
    later = only(read("actually make that 8", touched=(GYM_CLASS,)))
    assert isinstance(later, UpdateAction) and later.changes["due_date"] == f"{SATURDAY_7PM:%Y-%m-%d} 20:00"
    dropped = read("no wait, forget it", touched=(GYM_CLASS,))  # which change to take back is the user's to say
    assert dropped.actions == [] and [type(c.actions[0]) for c in dropped.choices] == [ArchiveAction]


def test_two_entries_named_alike_are_asked_about_with_a_reading_for_each() -> None:
    result = read("settled the bill")
    assert result.actions == [] and [f.cause.kind for f in result.failures] == [FailureKind.AMBIGUOUS]
    chosen = {choice.actions[0].entry_id for choice in result.choices if isinstance(choice.actions[0], CompleteAction)}
    assert chosen == {GAS.id, WATER.id}


def test_it_with_nothing_said_before_asks_instead_of_filing_the_words() -> None:
    result = read("move it to thursday")
    assert result.actions == [] and result.failures and result.failures[0].cause.kind is FailureKind.NOT_FOUND
