"""Checklists: spoken lists split into items, items read from a list-like summary, an item named by a phrase."""

import pytest

from app.domain.checklist import (
    ChecklistItem,
    checklist_text,
    derived_items,
    dump_items,
    find_item,
    items_of,
    load_items,
    parse_checklist_text,
    split_items,
)


@pytest.mark.parametrize(
    ("phrase", "items"),
    [
        ("eggs, bread, milk and coffee", ("eggs", "bread", "milk", "coffee")),
        ("eggs, bread, and milk.", ("eggs", "bread", "milk")),
        ("eggs bread milk and coffee", ("eggs", "bread", "milk", "coffee")),
        ("bread and milk", ("bread", "milk")),
        ("oat milk and coffee", ("oat milk", "coffee")),  # two words before "and" are most often one thing
        ("passport, charger", ("passport", "charger")),
        ("salt and pepper, eggs", ("salt and pepper", "eggs")),  # an "and" inside a comma list stays
        ("jam & butter", ("jam", "butter")),
        ("sunscreen", ("sunscreen",)),
        ("", ()),
    ],
)
def test_a_spoken_list_is_split_into_items(phrase: str, items: tuple[str, ...]) -> None:
    assert split_items(phrase) == items


@pytest.mark.parametrize(
    ("summary", "texts"),
    [
        ("Buy eggs bread milk and coffee", ["eggs", "bread", "milk", "coffee"]),
        ("Buy eggs, bread, milk and coffee", ["eggs", "bread", "milk", "coffee"]),
        ("Packing list: passport, charger, sunscreen", ["passport", "charger", "sunscreen"]),
        ("Books to read: Dune, Piranesi", ["Dune", "Piranesi"]),
        ("Shopping list: eggs", ["eggs"]),  # a list by name, one item so far
        ("Call the plumber", []),
        ("Buy milk", []),  # one thing to buy is no list
        ("Call mom and dad", []),
        ("Wi-Fi password: taped, under the router", []),
    ],
)
def test_items_are_read_from_a_list_like_summary(summary: str, texts: list[str]) -> None:
    assert [item.text for item in items_of(summary, None)] == texts


def test_stored_items_win_over_the_summary() -> None:
    stored = dump_items([ChecklistItem("eggs", done=True), ChecklistItem("jam")])
    assert items_of("Buy eggs, bread and milk", stored) == (ChecklistItem("eggs", True), ChecklistItem("jam"))


@pytest.mark.parametrize("raw", [None, "", "not json", '{"text": "eggs"}', '[1, {"done": true}, {"text": " "}]'])
def test_unreadable_stored_items_read_as_none(raw: str | None) -> None:
    assert load_items(raw) == ()


def test_items_survive_storing() -> None:
    items = (ChecklistItem("crème fraîche"), ChecklistItem("eggs", done=True))
    assert load_items(dump_items(items)) == items
    assert dump_items(()) is None


@pytest.mark.parametrize(
    ("phrase", "index"),
    [
        ("the milk", 2),
        ("milk", 2),
        ("coffees", 3),
        ("my bread", 1),
        ("the tomatoes", 4),
        ("the sunscreen lotion", 5),  # more words than the item: the only item they hold
        ("tea", None),
        ("the", None),
    ],
)
def test_a_phrase_names_one_item(phrase: str, index: int | None) -> None:
    items = [ChecklistItem(t) for t in ("eggs", "bread", "oat milk", "coffee", "tomato", "sunscreen")]
    assert find_item(items, phrase) == index


def test_a_phrase_naming_several_items_names_none() -> None:
    items = [ChecklistItem("oat milk"), ChecklistItem("almond milk")]
    assert find_item(items, "milk") is None
    assert find_item([ChecklistItem("milk"), *items], "milk") == 0  # the item of exactly those words


def test_the_checklist_text_form_reads_back() -> None:
    items = (ChecklistItem("eggs"), ChecklistItem("bread", done=True))
    assert checklist_text(items) == "- [ ] eggs\n- [x] bread"
    read, rest = parse_checklist_text(f"Before the trip\n{checklist_text(items)}\n* [X] passport\n- [ ]\nThanks")
    assert read == (*items, ChecklistItem("passport", done=True))
    assert rest == "Before the trip\n- [ ]\nThanks"


@pytest.mark.parametrize(
    ("summary", "texts"),
    [
        ("Party supplies: balloons, candles, napkins", ["balloons", "candles", "napkins"]),
        ("Packing list for the cabin: boots, headlamp and a rain jacket", ["boots", "headlamp", "rain jacket"]),
        ("Camping gear list: a tent, the stove", ["tent", "stove"]),
        ("Note: call mom, buy milk", []),  # the head names no things
        ("Wi-Fi password: taped, under the router", []),
    ],
)
def test_a_short_head_naming_things_gives_its_items(summary: str, texts: list[str]) -> None:
    assert [item.text for item in derived_items(summary)] == texts
