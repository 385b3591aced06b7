"""The tools' calls about checklists become the actions the executor ticks, adds and creates items by."""

from typing import Any

from app.agent.tools import COMPLETE, CREATE, TOOLS, UPDATE, actions_from_arguments
from app.domain.actions import CompleteAction, CreateAction, UpdateAction


def properties(tool: str) -> dict[str, Any]:
    schema = next(t["function"]["parameters"] for t in TOOLS if t["function"]["name"] == tool)
    listed = next(iter(schema["properties"].values()))
    props: dict[str, Any] = listed["items"]["properties"]
    return props["fields"]["properties"] if tool == UPDATE else props


def test_the_tools_offer_items() -> None:
    assert properties(COMPLETE)["item"]["type"] == "string"
    assert properties(UPDATE)["add_items"]["items"] == {"type": "string"}
    assert properties(CREATE)["items"]["type"] == "array"


def test_a_call_ticking_one_item_is_a_completion_of_that_item() -> None:
    parsed = actions_from_arguments(COMPLETE, {"entries": [{"id": "3fa1b2", "reason": "got it", "item": "milk"}]})
    assert parsed.actions == [CompleteAction("3fa1b2", reason="got it", item="milk")]


def test_items_to_add_may_come_as_a_list_or_as_words() -> None:
    updates = [
        {"id": "3fa1b2", "fields": {"add_items": ["jam", "butter"]}, "reason": "asked"},
        {"id": "3fa1b2", "fields": {"add_items": "jam, butter"}, "reason": "asked"},
        {"id": "3fa1b2", "fields": {"add_items": []}, "reason": "asked"},
    ]
    parsed = actions_from_arguments(UPDATE, {"updates": updates})
    assert [a.changes for a in parsed.actions if isinstance(a, UpdateAction)] == [{"add_items": ("jam", "butter")}] * 2
    assert [f.error for f in parsed.failures] == ["add_items needs at least one item"]


def test_a_new_list_keeps_its_items() -> None:
    entry = {"content": "Buy eggs and bread", "category": "todo", "source_text": "x", "items": ["eggs", "bread"]}
    [action] = actions_from_arguments(CREATE, {"entries": [entry]}).actions
    assert isinstance(action, CreateAction) and action.items == ("eggs", "bread")


def test_items_to_take_off_a_list_are_offered_and_parsed_like_those_to_add() -> None:
    assert properties(UPDATE)["remove_items"]["items"] == {"type": "string"}
    updates = [
        {"id": "3fa1b2", "fields": {"remove_items": ["bananas"]}, "reason": "asked"},
        {"id": "3fa1b2", "fields": {"remove_items": " "}, "reason": "asked"},
    ]
    parsed = actions_from_arguments(UPDATE, {"updates": updates})
    assert [a.changes for a in parsed.actions if isinstance(a, UpdateAction)] == [{"remove_items": ("bananas",)}]
    assert [f.error for f in parsed.failures] == ["remove_items needs at least one item"]


def test_a_new_list_the_model_titles_with_its_items_is_called_by_its_name() -> None:
    entry = {"content": "Packing list: boots, map", "summary": "Packing list: boots, map", "category": "list",
             "source_text": "x"}  # fmt: skip
    [action] = actions_from_arguments(CREATE, {"entries": [entry]}).actions
    assert isinstance(action, CreateAction)
    assert (action.summary, action.content, action.items) == ("Packing list", "Packing list", ("boots", "map"))
