"""A list's items by voice: the list found by its name, items added, ticked, taken back and taken off; a list is
never archived for one of its things."""

from datetime import datetime

import pytest

from app.changes.interpretation import InterpretContext
from app.domain.actions import Action, ArchiveAction, CompleteAction, CreateAction, UpdateAction
from app.domain.checklist import ChecklistItem, dump_items
from app.domain.enums import Category
from app.offline import OfflineInterpreter
from app.offline.list_names import lists_named
from app.store.models import Entry
from tests.support.offline_entries import BERLIN, CLOCK, entry


def listed(short_id: str, summary: str, items: list[str], done: tuple[str, ...] = (), **fields: object) -> Entry:
    stored = dump_items([ChecklistItem(text, text in done) for text in items])
    return entry(short_id, summary, Category.LIST, items=stored, **fields)


GROCERIES = listed("a0a0a0", "Groceries", ["rice", "tinned tomatoes", "basil", "parmesan"], done=("parmesan",))
DIY = listed("b1b1b1", "DIY store", ["sandpaper", "wood glue", "masking tape"])
CAMPING = listed("c2c2c2", "Camping trip to Skye", ["tent", "head torch", "midge spray"], done=("head torch",))
GIFTS = listed("d3d3d3", "Gifts for the nieces", ["puzzle for Maya", "paints for Zoe"])
FILMS = listed("e4e4e4", "Films to watch", ["Paris, Texas", "Spirited Away"])
# A misheard todo whose title holds a list's words: never where items go.
MISHEARD = entry(
    "f5f5f5", "Ad blocker to the groceries list", Category.LIST, created_at=datetime(2026, 11, 20, tzinfo=BERLIN)
)
PLUMBER = entry("06f6f6", "Call the plumber")
LISTS = [GROCERIES, DIY, CAMPING, GIFTS, FILMS, MISHEARD, PLUMBER]


def read(said: str, touched: tuple[Entry, ...] = ()) -> list[Action]:
    context = InterpretContext(entries=LISTS, clock=CLOCK, last_touched=tuple(e.id for e in touched))
    return OfflineInterpreter().interpret(said, context).actions


def only(said: str, touched: tuple[Entry, ...] = ()) -> Action:
    [action] = read(said, touched)
    return action


def changes(said: str, touched: tuple[Entry, ...] = ()) -> tuple[str, dict[str, object]]:
    action = only(said, touched)
    assert isinstance(action, UpdateAction), action
    return action.entry_id, dict(action.changes)


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("the groceries list", GROCERIES),
        ("the DIY shop", DIY),  # shop, store and list say the kind of list, not which
        ("my skye camping list", CAMPING),
        ("the gifts list", GIFTS),
        ("the film list", FILMS),
    ],
)
def test_a_list_is_found_by_its_name(name: str, meant: Entry) -> None:
    assert lists_named(name, LISTS)[0] == meant


def test_a_title_holding_a_list_s_words_is_not_that_list() -> None:
    assert lists_named("the groceries list", [MISHEARD]) == []


def test_an_older_title_that_repeats_its_items_is_named_by_the_part_before_the_colon() -> None:
    older = entry("171717", "Garden centre list: compost, bulbs, twine", Category.LIST)
    assert lists_named("the garden centre list", [older, GROCERIES]) == [older]
    assert lists_named("the bulbs list", [older]) == []


@pytest.mark.parametrize(
    ("said", "target", "items"),
    [
        ("pop some oregano on the groceries list", GROCERIES, ["oregano"]),
        ("for the DIY shop, add a stud finder and wall plugs", DIY, ["stud finder", "wall plugs"]),
        ("add Ran, Ikiru and Howl's Moving Castle to the film list", FILMS, ["Ran", "Ikiru", "Howl's Moving Castle"]),
        ("add Pride and Prejudice to the films list", FILMS, ["Pride and Prejudice"]),  # one title, said whole
        ("we've run out of olive oil and capers, stick them on the groceries list", GROCERIES, ["olive oil", "capers"]),
    ],
)
def test_items_are_added_to_the_list_named(said: str, target: Entry, items: list[str]) -> None:
    assert changes(said) == (target.id, {"add_items": tuple(items)})


@pytest.mark.parametrize(
    ("said", "target", "item"),
    [
        ("I still need the parmesan", GROCERIES, "parmesan"),
        ("we haven't really found the head torch yet", CAMPING, "head torch"),
        ("they had no parmesan, put it back on", GROCERIES, None),  # no things named before "it": nothing to untick
        ("put the head torch back on the camping list", CAMPING, "head torch"),
        ("the parmesan isn't bought after all", GROCERIES, "parmesan"),
    ],
)
def test_a_ticked_item_is_taken_back(said: str, target: Entry, item: str | None) -> None:
    actions = read(said)
    unticks = [a for a in actions if isinstance(a, UpdateAction) and "untick_item" in a.changes]
    assert [(a.entry_id, a.changes["untick_item"]) for a in unticks] == ([(target.id, item)] if item else [])


def test_things_run_out_of_are_taken_back_by_a_pronoun_after() -> None:
    assert changes("we ran out of parmesan, put it back on") == (GROCERIES.id, {"untick_item": "parmesan"})


@pytest.mark.parametrize(
    ("said", "target", "items"),
    [
        ("take the basil off the groceries list", GROCERIES, ["basil"]),
        ("remove wood glue from the DIY list", DIY, ["wood glue"]),
        ("get rid of the midge spray from my camping list", CAMPING, ["midge spray"]),
        ("we don't need the masking tape anymore", DIY, ["masking tape"]),
        ("I no longer need to get Zoe paints, her aunt got them", GIFTS, ["paints for Zoe"]),
        ("we won't need the tent after all, take it off", CAMPING, ["tent"]),
    ],
)
def test_an_item_is_taken_off_its_list(said: str, target: Entry, items: list[str]) -> None:
    assert changes(said) == (target.id, {"remove_items": tuple(items)})


def test_an_item_taken_off_a_list_whose_title_repeats_it_leaves_the_list_open() -> None:
    older = entry("282828", "Shopping list: bread, jam, tea", Category.LIST)
    context = InterpretContext(entries=[older], clock=CLOCK)
    [action] = OfflineInterpreter().interpret("take the jam off the shopping list", context).actions
    assert action == UpdateAction(
        older.id, {"remove_items": ("jam",)}, reason='User said: "take the jam off the shopping list"'
    )


def test_a_list_said_as_a_whole_is_still_archived() -> None:
    assert only("delete the DIY store") == ArchiveAction(DIY.id, reason='User said: "delete the DIY store"')


def test_a_thing_not_on_the_list_named_archives_nothing() -> None:
    result = OfflineInterpreter().interpret(
        "take the lentils off the groceries list", InterpretContext(entries=LISTS, clock=CLOCK)
    )
    assert result.actions == [] and result.failures


@pytest.mark.parametrize(
    ("said", "target", "item"),
    [
        ("picked up the rice this morning", GROCERIES, "rice"),
        ("got Maya's puzzle yesterday", GIFTS, "puzzle for Maya"),
        ("we watched Spirited Away", FILMS, "Spirited Away"),
    ],
)
def test_a_thing_done_ticks_the_list_that_has_it(said: str, target: Entry, item: str) -> None:
    action = only(said)
    assert isinstance(action, CompleteAction) and (action.entry_id, action.item) == (target.id, item)


def test_right_after_a_list_changed_one_more_thing_goes_on_it_and_one_taken_back_comes_off() -> None:
    assert changes("oh and pine nuts", touched=(GROCERIES,)) == (GROCERIES.id, {"add_items": ("pine nuts",)})
    assert changes("not the basil actually", touched=(GROCERIES,)) == (GROCERIES.id, {"remove_items": ("basil",)})
    assert isinstance(only("pine nuts"), CreateAction)  # no list just changed: a note as before
    assert not [a for a in read("great", touched=(GROCERIES,)) if isinstance(a, UpdateAction)]
    assert not [a for a in read("missed that", touched=(GROCERIES,)) if isinstance(a, UpdateAction)]


def test_saying_a_list_makes_the_list_by_its_name_with_its_things_as_items() -> None:
    [action] = OfflineInterpreter().interpret("add hiking socks to the trip list", InterpretContext([], CLOCK)).actions
    assert isinstance(action, CreateAction)
    assert (action.summary, action.items) == ("Trip list", ("hiking socks",))
    [headed] = (
        OfflineInterpreter().interpret("beach list: towels, a kite and suncream", InterpretContext([], CLOCK)).actions
    )
    assert isinstance(headed, CreateAction)
    assert (headed.summary, headed.content, headed.items) == (
        "Beach list",
        "Beach list",
        ("towels", "kite", "suncream"),
    )


def test_after_one_list_changed_an_item_of_another_is_still_found() -> None:
    assert changes("we haven't found the head torch yet", touched=(GROCERIES,)) == (
        CAMPING.id,
        {"untick_item": "head torch"},
    )
