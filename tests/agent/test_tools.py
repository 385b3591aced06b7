"""The tools' calls about checklists become the actions the executor ticks, adds and creates items by; a question's
readings become the choices offered back."""

from dataclasses import replace
from typing import Any

import pytest

from app.agent.tools import (
    ARCHIVE,
    ASK,
    COMPLETE,
    CREATE,
    SNOOZE,
    TOOLS,
    UPDATE,
    actions_from_arguments,
    question_from_arguments,
)
from app.domain.actions import Action, ArchiveAction, Choice, CompleteAction, CreateAction, UpdateAction
from app.errors import EntryNotFoundError, InvalidActionError


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


def reading(label: str, tool: str, item: Any) -> dict[str, Any]:
    return {"label": label, "tool": tool, "item": item}


def test_a_question_offers_only_the_readings_its_tools_parse_and_each_is_resolved() -> None:
    offered = [
        reading(" Tick off 'Pay the gas bill' ", COMPLETE, {"id": "3fa1b2", "reason": "paid"}),
        reading("Set it to done", UPDATE, {"id": "3fa1b2", "fields": {"status": "done"}, "reason": "paid"}),
        reading("Archive it", ARCHIVE, {"id": "9c0d1e"}),
        reading("", ARCHIVE, {"id": "9c0d1e"}),
    ]
    question = question_from_arguments(
        {"question": "Which bill? ", "choices": offered},
        lambda action: (
            replace(action, entry_id=action.entry_id + "0" * 26) if isinstance(action, ArchiveAction) else action
        ),
    )
    assert question.text == "Which bill?"
    assert question.choices == (
        Choice("Tick off 'Pay the gas bill'", (CompleteAction("3fa1b2", reason="paid"),)),
        Choice("Archive it", (ArchiveAction("9c0d1e" + "0" * 26),)),
    )
    assert question.dropped == (
        "choice 2: update_entries: unknown status 'done'; expected one of active, snoozed, completed, archived",
        "choice 4: a reading needs a label, the words its button shows",
    )


def test_a_question_without_enough_readings_is_refused() -> None:
    def unknown(action: Action) -> Action:
        raise EntryNotFoundError("no entry has ID 'abcdef'")

    one = [reading("Gas", COMPLETE, {"id": "abcdef"}), reading("Phone", "delete_entries", {"id": "abcdef"})]
    with pytest.raises(InvalidActionError, match="^choice 1: no entry has ID 'abcdef'; choice 2: unknown tool"):
        question_from_arguments({"question": "Which?", "choices": one}, unknown)
    with pytest.raises(InvalidActionError, match="2 to 4 readings"):
        question_from_arguments({"question": "Which?", "choices": one * 3}, unknown)
    with pytest.raises(InvalidActionError, match="'question' must be"):
        question_from_arguments({"choices": one}, unknown)


def test_the_question_tool_takes_the_changing_tools_items() -> None:
    schema = next(t["function"]["parameters"] for t in TOOLS if t["function"]["name"] == ASK)
    choice = schema["properties"]["choices"]
    assert (choice["minItems"], choice["maxItems"]) == (2, 4)
    assert choice["items"]["properties"]["tool"]["enum"] == [CREATE, UPDATE, COMPLETE, ARCHIVE, SNOOZE]
