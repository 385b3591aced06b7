"""The agentic loop end to end: tool calls applied, real tool results fed back, turns, undo."""

import time
from typing import Any

from sqlalchemy import text

from app.domain.enums import Category, Status, UtteranceOutcome, UtteranceSource
from app.domain.events import (
    MessageEvent,
    PipelineEvent,
    RunEnd,
    RunStart,
    ThinkingEvent,
    ToolCallEvent,
    ToolResultEvent,
    TranscriptEvent,
)
from app.run.conductor import Stages, drive
from app.run.run import Run
from app.store import Store
from tests.support.agent_service import ServiceFactory, add_entries, all_entries, tool_messages, utterance
from tests.support.llm_server import FakeLlmServer, Reply, call


def create(*items: dict[str, Any]) -> Any:
    return call("create_entries", {"entries": list(items)})


def item(content: str, **fields: Any) -> dict[str, Any]:
    return {"content": content, "summary": content, "category": "todo", "source_text": content.lower(), **fields}


def test_each_item_is_parsed_on_its_own_and_bad_fields_are_mended_or_reported(
    agent_service: ServiceFactory, store: Store
) -> None:
    script = [
        Reply(
            tool_calls=[
                create(
                    item("Paint the shed", category="chore", repeat="now and then"),  # -> note, repeat dropped
                    item("Pay taxes", priority=99),  # clamped to 5
                    item("Stretch", category="habit", repeat="every other monday"),  # spoken: read as a rule
                    {"content": "Call Anna", "category": "todo", "summary": "Call Anna", "source_text": ""},
                )
            ]
        ),
        Reply("Added four entries."),
    ]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("paint the shed, pay taxes, stretch, call anna")
    by_summary = {e.summary: e for e in all_entries(store)}
    assert by_summary["Paint the shed"].category is Category.NOTE and by_summary["Paint the shed"].recurrence is None
    assert by_summary["Pay taxes"].priority == 5
    stretch = by_summary["Stretch"]
    assert (stretch.recurrence, stretch.category) == ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", Category.HABIT)
    assert by_summary["Call Anna"].source_text == "Call Anna"  # empty source_text becomes the content
    assert result.summary == "4 created" and result.message == "Added four entries." and result.turns == 2


def test_unknown_status_is_refused_and_an_empty_reason_is_filled(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    milk, bread = add_entries(service, "Buy milk", "Buy bread")
    script = [
        Reply(
            tool_calls=[
                call("update_entries", {"updates": [{"id": milk[:6], "fields": {"status": "done"}, "reason": "x"}]}),
                call("complete_entries", {"entries": [{"id": bread[:6], "reason": ""}]}),
            ]
        ),
        Reply("Done."),
    ]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("milk and bread are done")
    assert [f.error for f in result.failures] == [
        "unknown status 'done'; expected one of active, snoozed, completed, archived"
    ]
    assert [(f.kind) for f in result.failures] == ["update_entries"]
    assert {e.summary: e.status for e in all_entries(store)} == {
        "Buy milk": Status.ACTIVE,
        "Buy bread": Status.COMPLETED,
    }
    assert result.applied[0].action.reason == "No reason provided"  # type: ignore[union-attr]
    results = tool_messages(server.requests[1])
    assert results[0].startswith("Error: update_entries: unknown status") and results[1].startswith("completed [")


def test_a_mixed_batch_applies_the_good_and_reports_the_bad(agent_service: ServiceFactory, store: Store) -> None:
    script = [
        Reply(
            tool_calls=[
                create(item("Buy stamps")),
                call("complete_entries", {"entries": [{"id": "abcdef", "reason": "r"}]}),
            ]
        ),
        Reply("Added stamps; I could not find the other one."),
    ]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("buy stamps and the thing is done")
    assert [e.summary for e in all_entries(store)] == ["Buy stamps"]
    assert result.summary == "1 created (1 couldn't be processed)"
    assert "no entry has ID 'abcdef'" in result.failures[0].error
    created, failed = tool_messages(server.requests[1])
    assert created.startswith("created [") and failed.startswith("Error: complete [abcdef] failed: no entry has ID")


def test_unknown_tools_and_bad_json_never_run_and_are_reported(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    (milk,) = add_entries(service, "Buy milk")
    script = [
        Reply(
            tool_calls=[
                call("delete_entries", {"entries": [{"id": milk[:6]}]}),
                call("complete_entries", '{"entries": [{"id": "' + milk[:6] + '", "reason": "do'),  # truncated JSON
                call("archive_entries", "[1, 2]"),
            ]
        ),
        Reply("Sorry, nothing changed."),
    ]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("delete the milk")
    assert [e.status for e in all_entries(store)] == [Status.ACTIVE]
    unknown, truncated, not_object = tool_messages(server.requests[1])
    assert unknown.startswith("Error: unknown tool 'delete_entries'; the tools are create_entries")
    assert truncated.startswith("Error: the arguments are not valid JSON")
    assert not_object == "Error: the arguments must be a JSON object; nothing done"
    assert [f.kind for f in result.failures] == ["delete_entries", "complete_entries", "archive_entries"]
    assert result.applied == [] and utterance(store, result.utterance_id).outcome is UtteranceOutcome.FAILED


def test_a_call_cut_off_by_the_length_limit_is_not_run(agent_service: ServiceFactory, store: Store) -> None:
    # The arguments happen to be complete JSON, but the server says the answer was cut: not trusted.
    script = [
        Reply(tool_calls=[create(item("Buy milk")), create(item("Buy eggs"))], finish_reason="length"),
        Reply("Added milk."),
    ]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("buy milk and eggs")
    assert [e.summary for e in all_entries(store)] == ["Buy milk"]
    assert tool_messages(server.requests[1])[1].startswith("Error: the answer was cut off")
    assert result.summary == "1 created (1 couldn't be processed)"


def test_an_unknown_id_is_fed_back_and_corrected_in_a_later_turn(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    (oat_milk,) = add_entries(service, "Buy oat milk")
    short = oat_milk[:6]

    def model(body: dict[str, Any]) -> Reply:
        results = tool_messages(body)
        if not results:
            return Reply(tool_calls=[call("complete_entries", {"entries": [{"id": "fedcba", "reason": "milk done"}]})])
        if results[-1].startswith("Error:"):
            return Reply(tool_calls=[call("search_entries", {"query": "milk"})])
        if results[-1].startswith("Entries 1-"):
            return Reply(tool_calls=[call("complete_entries", {"entries": [{"id": short, "reason": "milk done"}]})])
        return Reply("Marked the oat milk done.")

    with FakeLlmServer(model) as server:
        result = agent_service(server).submit("milk is done")
    assert [e.status for e in all_entries(store)] == [Status.COMPLETED]
    assert result.turns == 4 and result.message == "Marked the oat milk done."
    assert f"[{short}]" in tool_messages(server.requests[2])[-1]  # the search result named the entry


def test_an_ambiguous_short_id_is_an_error_naming_it(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    first, _ = add_entries(service, "Buy milk", "Buy bread")
    with store.write() as session:  # make the two IDs share their first six digits
        session.execute(text("UPDATE entries SET id = :new WHERE summary = 'Buy bread'"), {"new": first[:6] + "f" * 26})
    script = [Reply(tool_calls=[call("complete_entries", {"entries": [{"id": first[:6], "reason": "r"}]})]), Reply("?")]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("the milk is done")
    assert f"ID '{first[:6]}' is ambiguous" in result.failures[0].error
    assert "ambiguous" in tool_messages(server.requests[1])[0]
    assert {e.status for e in all_entries(store)} == {Status.ACTIVE}


def test_a_repeated_identical_call_runs_once(agent_service: ServiceFactory, store: Store) -> None:
    same = item("Buy milk")
    script = [
        Reply(tool_calls=[create(same)]),
        Reply(tool_calls=[call("create_entries", {"entries": [dict(reversed(list(same.items())))]})]),  # same call
        Reply("Added milk."),
    ]
    with FakeLlmServer(script) as server:
        result = agent_service(server).submit("buy milk")
    assert [e.summary for e in all_entries(store)] == ["Buy milk"] and result.summary == "1 created"
    assert tool_messages(server.requests[2])[-1].startswith("Already done: this exact call ran earlier")


def test_the_loop_stops_at_max_turns(agent_service: ServiceFactory, store: Store) -> None:
    def model(body: dict[str, Any]) -> Reply:
        turn = len(tool_messages(body))
        return Reply(tool_calls=[call("search_entries", {"query": f"thing number{turn}"})])

    with FakeLlmServer(model) as server:
        result = agent_service(server, max_turns=3).submit("find my things")
    assert len(server.requests) == 3 and result.turns == 3
    assert result.message is not None and result.message.startswith("Stopped after 3 turns")


def test_events_tell_the_story_in_order(agent_service: ServiceFactory, events: list[PipelineEvent]) -> None:
    script = [Reply(tool_calls=[create(item("Buy milk"))]), Reply("Added milk.")]
    with FakeLlmServer(script) as server:
        drive(Run(UtteranceSource.CLI, events.append, text="buy milk"), Stages(agent_service(server)))
    kinds = [type(e) for e in events]
    assert kinds == [
        RunStart,
        TranscriptEvent,
        ThinkingEvent,
        ToolCallEvent,
        ToolResultEvent,
        ThinkingEvent,
        MessageEvent,
        RunEnd,
    ]
    result, done = events[4], events[-1]
    assert isinstance(result, ToolResultEvent) and result.ok and result.name == "create_entries"
    assert isinstance(done, RunEnd) and done.summary == "1 created" and done.undo_id is not None


def test_a_tool_call_runs_while_the_model_is_still_writing(agent_service: ServiceFactory, store: Store) -> None:
    slow = Reply(tool_calls=[create(item("Buy milk")), create(item("Buy eggs"), item("Buy flour"))], chunk_delay=0.02)
    applied_at: list[float] = []

    def watch(event: PipelineEvent) -> None:
        if isinstance(event, ToolResultEvent) and not applied_at:
            applied_at.append(time.monotonic())
            assert [e.summary for e in all_entries(store)] == ["Buy milk"]  # already in the store

    with FakeLlmServer([slow, Reply("Added three.")]) as server:
        agent_service(server).submit("buy milk, eggs and flour", on_event=watch)
    assert applied_at[0] < server.state.stream_ends[0]  # the first change landed before the stream ended


def test_a_non_streaming_server_works_too(agent_service: ServiceFactory, store: Store) -> None:
    script = [Reply(tool_calls=[create(item("Buy milk"))]), Reply("Added milk.")]
    with FakeLlmServer(script, stream_capable=False) as server:
        result = agent_service(server).submit("buy milk")
    assert result.summary == "1 created" and server.requests[0]["stream"] is True
    with FakeLlmServer(script) as server:
        agent_service(server, stream=False).submit("buy eggs")
    assert "stream" not in server.requests[0] and len(all_entries(store)) == 2


def test_one_undo_reverts_every_turn_of_an_utterance(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    (bread,) = add_entries(service, "Buy bread")
    script = [
        Reply(tool_calls=[create(item("Buy milk"))]),
        Reply(tool_calls=[call("complete_entries", {"entries": [{"id": bread[:6], "reason": "bought"}]})]),
        Reply(tool_calls=[call("update_entries", {"updates": [{"id": "x", "fields": {}, "reason": "r"}]})]),
        Reply("Added milk and completed bread."),
    ]
    with FakeLlmServer(script) as server:
        service = agent_service(server)
        result = service.submit("buy milk, bread is done")
    assert result.summary == "1 created, 1 completed (1 couldn't be processed)" and result.turns == 4
    undone = service.undo()
    assert undone.batch.id == result.undo_id and len(undone.reverted) == 2
    assert [(e.summary, e.status) for e in all_entries(store)] == [("Buy bread", Status.ACTIVE)]


def test_the_context_is_fresh_every_turn(agent_service: ServiceFactory) -> None:
    script = [Reply(tool_calls=[create(item("Buy milk"))]), Reply("Added milk.")]
    with FakeLlmServer(script) as server:
        agent_service(server).submit("buy milk")
    first, second = (r["messages"][0]["content"].split("Current context:")[1] for r in server.requests)
    assert first.startswith("\n- Time: Sunday, 22 November 2026, 18:30 (Europe/Berlin")
    assert [m["role"] for m in server.requests[0]["messages"]] == ["system", "user"]  # one system message
    assert "none yet" in first and '"Buy milk"' in second  # the new entry is in the next turn's context
    assert sum(1 for m in server.requests[1]["messages"] if m["content"] and "Current context" in m["content"]) == 1


def test_the_model_is_told_what_the_previous_utterance_changed(agent_service: ServiceFactory) -> None:
    script = [Reply(tool_calls=[create(item("Dinner with Sam"))]), Reply("Added."), Reply("Which time?")]
    with FakeLlmServer(script) as server:
        service = agent_service(server)
        service.submit("dinner with Sam on saturday at 7pm")
        service.submit("actually make that 8pm")
    before = server.requests[0]["messages"][0]["content"]
    told = server.requests[-1]["messages"][0]["content"]
    assert "Changed by the previous utterance" not in before
    line = next(line for line in told.splitlines() if line.startswith("- Changed by the previous utterance"))
    assert line.endswith("Dinner with Sam") and '"that", "it"' in line
