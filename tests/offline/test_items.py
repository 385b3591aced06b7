"""The offline rules and checklists: one item of a list ticked, items added to a list, a new list's items."""

import pytest

from app.domain.actions import Action, CompleteAction, CreateAction, UpdateAction
from app.domain.checklist import ChecklistItem, dump_items
from app.domain.enums import Category
from app.store.models import Entry
from tests.support.offline_entries import MILK, PASSPORT, entry, interpret

GROCERIES = entry("6a7b8c", "Buy eggs, bread, milk and coffee")
PACKING = entry(
    "1c2d3e",
    "Packing list: passport, charger",
    Category.LIST,
    items=dump_items([ChecklistItem("passport"), ChecklistItem("charger", done=True), ChecklistItem("sunscreen")]),
)
PLUMBER = entry("4f5a6b", "Call the plumber")
LISTS = [GROCERIES, PACKING, PLUMBER, PASSPORT]


def only(text: str, entries: list[Entry]) -> Action:
    result = interpret(text, entries)
    assert not result.failures, result.failures
    [action] = result.actions
    return action


@pytest.mark.parametrize(
    ("said", "target", "item"),
    [
        ("milk is done", GROCERIES, "milk"),
        ("got the milk", GROCERIES, "milk"),
        ("the coffee's done too", GROCERIES, "coffee"),
        ("cross the bread off the shopping list", GROCERIES, "bread"),
        ("tick off eggs from the grocery list", GROCERIES, "eggs"),
        ("I packed the sunscreen", PACKING, "sunscreen"),  # added to the list: not in its summary
        ("packed my passport", PACKING, "passport"),  # packing names the list, not "Renew passport"
        ("the shopping list is done", GROCERIES, None),  # the list as a whole, by its kind
        ("the plumber is done", PLUMBER, None),
    ],
)
def test_a_completion_ticks_the_item_it_names(said: str, target: Entry, item: str | None) -> None:
    assert only(said, LISTS) == CompleteAction(target.id, reason=f'User said: "{said}"', item=item)


def test_several_items_of_one_list_are_ticked_each() -> None:
    result = interpret("the milk and coffee are done", LISTS)
    assert [(a.entry_id, a.item) for a in result.actions if isinstance(a, CompleteAction)] == [
        (GROCERIES.id, "milk"),
        (GROCERIES.id, "coffee"),
    ]


def test_an_entry_said_by_its_own_words_wins_over_an_item() -> None:
    assert only("milk is done", [*LISTS, MILK]) == CompleteAction(MILK.id, reason='User said: "milk is done"')


def test_an_item_ticked_already_is_still_named_so_the_executor_says_so() -> None:
    action = only("I packed the charger", LISTS)
    assert isinstance(action, CompleteAction) and (action.entry_id, action.item) == (PACKING.id, "charger")


def test_without_a_list_packing_something_is_news_as_before() -> None:
    action = only("I packed the charger", [PLUMBER])
    assert isinstance(action, CreateAction) and action.summary == "I packed the charger"


@pytest.mark.parametrize(
    ("said", "target", "items"),
    [
        ("add butter to the shopping list", GROCERIES, ("butter",)),
        ("put jam and butter on the grocery list", GROCERIES, ("jam", "butter")),
        ("add towels, goggles and flip-flops to my packing list", PACKING, ("towels", "goggles", "flip-flops")),
    ],
)
def test_items_are_added_to_the_list_named(said: str, target: Entry, items: tuple[str, ...]) -> None:
    assert only(said, LISTS) == UpdateAction(target.id, {"add_items": items}, reason=f'User said: "{said}"')


def test_the_newest_of_two_lists_of_a_kind_takes_the_items() -> None:
    older = entry("7e8f9a", "Shopping list: rice", Category.LIST, created_at=GROCERIES.created_at.replace(year=2025))
    newer = entry("8f9a0b", "Shopping list: beans", Category.LIST)
    action = only("add salsa to the shopping list", [older, newer, GROCERIES])
    assert isinstance(action, UpdateAction) and action.entry_id == newer.id


@pytest.mark.parametrize(
    ("said", "category", "items"),
    [
        ("add butter to the shopping list", Category.LIST, ("butter",)),  # no list yet: a new one
        ("add butter to my todo list", Category.TODO, ()),  # the to-do list is the user's whole list
        ("buy eggs, bread, milk and coffee", Category.TODO, ("eggs", "bread", "milk", "coffee")),
        ("packing list: passport, charger and sunscreen", Category.LIST, ("passport", "charger", "sunscreen")),
        ("buy milk", Category.TODO, ()),
    ],
)
def test_a_new_entry_has_the_items_it_names(said: str, category: Category, items: tuple[str, ...]) -> None:
    action = only(said, [PLUMBER])
    assert isinstance(action, CreateAction) and (action.category, action.items) == (category, items)
