"""The model asks back with readings instead of guessing: nothing changes, the utterance waits in the inbox with
them, and the one the user picks is applied as an undoable run of its own."""

import json
from typing import Any

import pytest

from app.agent.provider import ToolProtocol
from app.changes.interpretation import RunOptions
from app.domain.enums import Status, UtteranceOutcome
from app.domain.events import MessageEvent, PipelineEvent, ToolResultEvent
from app.errors import UsageError
from app.store import Store
from app.store.models import Entry
from tests.support.agent_service import ServiceFactory, add_entries, all_entries, tool_messages, utterance
from tests.support.llm_server import FakeLlmServer, Reply, ToolCallSpec, call

GAS, PHONE = "Pay the gas bill", "Pay the phone bill"
QUESTION = "Which bill did you pay?"


def tick(entry_id: str, label: str) -> dict[str, Any]:
    return {"label": label, "tool": "complete_entries", "item": {"id": entry_id[:6], "reason": "paid it"}}


def ask(*choices: dict[str, Any]) -> ToolCallSpec:
    return call("ask_which", {"question": QUESTION, "choices": list(choices)})


def statuses(store: Store) -> dict[str, Status]:
    return {entry.summary: entry.status for entry in all_entries(store)}


def test_the_model_asks_which_bill_and_the_reading_picked_is_applied_and_undone(
    agent_service: ServiceFactory, store: Store, events: list[PipelineEvent]
) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    gas, phone = add_entries(service, GAS, PHONE)
    labels = (f"Tick off '{GAS}'", f"Tick off '{PHONE}'")
    with FakeLlmServer([Reply(tool_calls=[ask(tick(gas, labels[0]), tick(phone, labels[1]))])]) as server:
        service = agent_service(server)
        asked = service.submit("paid the bill", on_event=events.append)
        assert len(server.requests) == 1  # the question ends the run: no second turn
        assert f"[{gas[:6]}]" in server.requests[0]["messages"][0]["content"]  # both bills were listed to it
        assert f"[{phone[:6]}]" in server.requests[0]["messages"][0]["content"]

        assert (asked.message, asked.question, asked.choices) == (QUESTION, True, labels)
        assert asked.applied == [] and asked.undo_id is None
        assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.ACTIVE}
        assert [u.id for u in service.inbox()] == [asked.utterance_id]
        assert service.choices_of(utterance(store, asked.utterance_id)) == list(labels)
        assert [(e.text, e.question) for e in events if isinstance(e, MessageEvent)] == [(QUESTION, True)]

        chosen = service.retry(asked.utterance_id, options=RunOptions(choice=2))
        assert len(server.requests) == 1  # the pick is applied as kept: the model is not asked again
    assert [item.entry.summary for item in chosen.applied] == [PHONE]
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.COMPLETED}
    assert utterance(store, asked.utterance_id).outcome is UtteranceOutcome.DONE and service.inbox() == []

    undone = service.undo()
    assert undone.batch.id == chosen.undo_id and len(undone.reverted) == 1
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.ACTIVE}


def test_the_reading_picked_changes_the_entry_meant_though_its_short_id_came_to_match_another(
    agent_service: ServiceFactory, store: Store
) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    gas, phone = add_entries(service, GAS, PHONE)
    with FakeLlmServer([Reply(tool_calls=[ask(tick(gas, "The gas bill"), tick(phone, "The phone bill"))])]) as server:
        asked = agent_service(server).submit("paid the bill")
    with store.write() as session:  # an entry made since (synced in, say) whose ID begins as the phone bill's
        lookalike = phone[:6] + ("0" if phone[6] != "0" else "1") * 26
        session.add(Entry(id=lookalike, content="Lookalike", summary="Lookalike", category="todo", source_text="x"))
    service.retry(asked.utterance_id, options=RunOptions(choice=2))
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.COMPLETED, "Lookalike": Status.ACTIVE}


def test_a_malformed_reading_is_never_offered_and_the_model_is_told_why(
    agent_service: ServiceFactory, store: Store, events: list[PipelineEvent]
) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    gas, phone = add_entries(service, GAS, PHONE)
    delete = {"label": "Delete both bills", "tool": "delete_entries", "item": {"id": gas[:6]}}
    script = [Reply(tool_calls=[ask(tick(gas, "The gas bill"), delete, tick(phone, "The phone bill"))])]
    with FakeLlmServer(script) as server:
        asked = agent_service(server).submit("paid the bill", on_event=events.append)
    assert asked.choices == ("The gas bill", "The phone bill")
    [told] = [e.content for e in events if isinstance(e, ToolResultEvent)]
    assert "Not offered: choice 2: unknown tool 'delete_entries'" in told
    with pytest.raises(UsageError, match="^choose 1 to 2"):
        service.retry(asked.utterance_id, options=RunOptions(choice=3))
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.ACTIVE}
    service.retry(asked.utterance_id, options=RunOptions(choice=2))
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.COMPLETED}


def test_a_question_left_with_one_reading_is_refused_and_the_model_asks_in_words(
    agent_service: ServiceFactory, store: Store
) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    gas, _ = add_entries(service, GAS, PHONE)
    unknown = {"label": "The water bill", "tool": "complete_entries", "item": {"id": "abcdef", "reason": "paid"}}
    script = [Reply(tool_calls=[ask(tick(gas, "The gas bill"), unknown)]), Reply("Which bill did you mean?")]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("paid the bill")
    [refused] = tool_messages(server.requests[1])
    assert refused.startswith("Error: choice 2: no entry has ID 'abcdef'; fewer than 2 readings are left")
    assert (result.question, result.choices, result.applied) == (True, (), [])
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.ACTIVE}


def test_asking_changes_nothing_else_in_its_turn_and_comes_too_late_after_a_change(
    agent_service: ServiceFactory, store: Store
) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    gas, phone = add_entries(service, GAS, PHONE)
    complete_gas = call("complete_entries", {"entries": [{"id": gas[:6], "reason": "paid"}]})
    with FakeLlmServer([Reply(tool_calls=[ask(tick(gas, "Gas"), tick(phone, "Phone")), complete_gas])]) as server:
        asked = agent_service(server).submit("paid the bill")
    assert asked.applied == [] and asked.choices == ("Gas", "Phone")
    assert [f.kind for f in asked.failures] == ["complete_entries"]  # the user hears what was not done
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.ACTIVE}

    script = [Reply(tool_calls=[complete_gas, ask(tick(gas, "Gas"), tick(phone, "Phone"))]), Reply("Paid the gas.")]
    with FakeLlmServer(script) as server:
        done = agent_service(server).submit("paid the gas bill")
    assert tool_messages(server.requests[1])[-1].startswith("Error: changes were already made")
    assert (done.choices, done.question, statuses(store)[GAS]) == ((), False, Status.COMPLETED)


def test_an_answer_in_words_continues_the_talk_from_the_question(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    gas, phone = add_entries(service, GAS, PHONE)
    complete_phone = call("complete_entries", {"entries": [{"id": phone[:6], "reason": "paid"}]})
    script = [
        Reply(tool_calls=[ask(tick(gas, "Gas"), tick(phone, "Phone"))]),
        Reply(tool_calls=[complete_phone]),
        Reply("Ticked off the phone bill."),
    ]
    with FakeLlmServer(script) as server:
        service = agent_service(server)
        asked = service.submit("paid the bill")
        service.submit("the phone one")
    talk = [(m["role"], m["content"]) for m in server.requests[1]["messages"][1:]]
    assert talk[-2:] == [("assistant", QUESTION), ("user", "the phone one")]
    assert statuses(store) == {GAS: Status.ACTIVE, PHONE: Status.COMPLETED}
    assert utterance(store, asked.utterance_id).outcome is UtteranceOutcome.DONE and service.inbox() == []


def test_a_model_without_native_tool_calls_asks_the_same_way(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    gas, phone = add_entries(service, GAS, PHONE)
    asking = {"question": QUESTION, "choices": [tick(gas, "Gas"), tick(phone, "Phone")]}
    block = f'<execute>[{{"name": "ask_which", "args": {json.dumps(asking)}}}]</execute>'
    with FakeLlmServer([Reply(block), Reply("Ticked off the gas bill.")]) as server:
        service = agent_service(server, tool_protocol=ToolProtocol.TEXT)
        asked = service.submit("paid the bill")
        assert (asked.message, asked.choices) == (QUESTION, ("Gas", "Phone"))
        service.submit("the gas one")
    roles = [m["role"] for m in server.requests[1]["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]  # the question, then the answer
    assert server.requests[1]["messages"][-2]["content"] == QUESTION
