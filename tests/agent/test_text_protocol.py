"""Models without native tool calls, through the real agent, the real openai client and the local test server:
the text protocol end to end, and auto finding out which protocol a model needs and remembering it."""

import json
import re
from typing import Any

import pytest
from sqlmodel import col, select

from app.agent import ledger
from app.agent.provider import ToolProtocol
from app.domain.enums import Status
from app.errors import LlmError
from app.store import Store
from app.store.models import LlmRequest
from tests.support.agent_service import ServiceFactory, add_entries, all_entries
from tests.support.llm_server import Fail, FakeLlmServer, Reply, Step, call

MILK_ARGS = {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo", "source_text": "milk"}]}
MILK_BLOCK = f'Adding it. <execute>[{{"name": "create_entries", "args": {json.dumps(MILK_ARGS)}}}]</execute>'


def results_sent(body: dict[str, Any]) -> bool:
    return "<results>" in (body["messages"][-1].get("content") or "")


def text_model(body: dict[str, Any]) -> Step:
    """A model that knows only the text protocol: tool blocks, then words once it has the results."""
    if "tools" in body:
        return Fail(500, "tools param requires --jinja flag")
    return Reply("Added milk.") if results_sent(body) else Reply(MILK_BLOCK, chunk_size=3)


def protocols(store: Store) -> list[tuple[str | None, bool]]:
    """Each request's protocol, and whether it failed."""
    with store.read() as session:
        rows = session.exec(select(LlmRequest).order_by(col(LlmRequest.id))).all()
        return [(r.protocol, r.error is not None) for r in rows]


def test_the_text_protocol_end_to_end(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer(text_model) as server:
        result = agent_service(server, tool_protocol=ToolProtocol.TEXT).submit("buy milk")
    assert [entry.summary for entry in all_entries(store)] == ["Buy milk"]
    assert result.message == "Added milk." and result.undo_id is not None
    first, second = server.requests
    assert "tools" not in first and "</execute>" in first["stop"]
    assert "<execute>" in first["messages"][0]["content"] and "create_entries" in first["messages"][0]["content"]
    assert len([m for m in first["messages"] if m["role"] == "system"]) == 1
    roles = [m["role"] for m in second["messages"]]
    assert roles == ["system", "user", "assistant", "user"]  # roles alternate: no tool role, no tool_calls
    results = json.loads(second["messages"][-1]["content"].removeprefix("<results>").removesuffix("</results>"))
    assert results[0]["name"] == "create_entries" and "Buy milk" in results[0]["result"]
    assert protocols(store) == [("text", False), ("text", False)]


def test_a_text_call_can_change_entries_the_context_shows(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")  # only to reach the store; the real one follows
    [milk] = add_entries(service, "Buy oat milk")

    def model(body: dict[str, Any]) -> Step:
        if results_sent(body):
            return Reply("Done.")
        found = re.search(r"\[([0-9a-f]{4,})\][^\n]*Buy oat milk", body["messages"][0]["content"])
        assert found, "the context shows the entry with its short ID"
        short = found.group(1)
        block = json.dumps([{"name": "complete_entries", "args": {"entries": [{"id": short, "reason": "bought"}]}}])
        return Reply(f"<execute>{block}</execute>", chunk_size=5)

    with FakeLlmServer(model) as server:
        agent_service(server, tool_protocol=ToolProtocol.TEXT).submit("milk is done")
    assert {e.id: e.status for e in all_entries(store)}[milk] is Status.COMPLETED


def test_auto_switches_when_the_server_refuses_tools_and_remembers(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer(text_model) as server:
        result = agent_service(server).submit("buy milk")
        assert [entry.summary for entry in all_entries(store)] == ["Buy milk"] and result.message == "Added milk."
        assert protocols(store) == [("native", True), ("text", False), ("text", False)]
        learned = ledger.learned_protocol(store, server.base_url, "test-model")
        assert learned is not None and learned.protocol == "text" and "jinja" in learned.reason
        agent_service(server).submit("buy bread")  # a new agent, as the next start of the app
        assert "tools" not in server.requests[3]  # straight to the text protocol: no refused request first


def test_auto_reads_calls_a_model_wrote_as_text_and_switches(agent_service: ServiceFactory, store: Store) -> None:
    """A template that drops the tools: the model writes a bare JSON call as its answer."""
    bare = json.dumps({"name": "create_entries", "arguments": MILK_ARGS})

    def model(body: dict[str, Any]) -> Step:
        return (
            Reply("Added milk.")
            if body["messages"][-1]["role"] in ("tool", "user") and len(body["messages"]) > 2
            else Reply(f"```json\n{bare}\n```")
        )

    with FakeLlmServer(model) as server:
        result = agent_service(server).submit("buy milk")
        assert [entry.summary for entry in all_entries(store)] == ["Buy milk"] and result.message == "Added milk."
        assert "tools" in server.requests[0] and "tools" not in server.requests[1]
    learned = ledger.learned_protocol(store, server.base_url, "test-model")
    assert learned is not None and learned.protocol == "text"


def test_auto_believes_a_llama_cpp_server_that_says_its_template_takes_no_tools(
    agent_service: ServiceFactory, store: Store
) -> None:
    props = {"chat_template_caps": {"supports_tool_calls": False}}
    with FakeLlmServer(text_model, props=props) as server:
        agent_service(server).submit("buy milk")
    assert protocols(store) == [("text", False), ("text", False)]


def test_native_stays_native_when_set(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer(text_model) as server:
        with pytest.raises(LlmError, match="tools param requires --jinja flag"):
            agent_service(server, tool_protocol=ToolProtocol.NATIVE).submit("buy milk")
    assert all_entries(store) == []
    assert protocols(store) == [("native", True)]
    assert ledger.learned_protocol(store, server.base_url, "test-model") is None


def test_native_calls_still_work_in_auto(agent_service: ServiceFactory, store: Store) -> None:
    milk = call("create_entries", MILK_ARGS)
    with FakeLlmServer([Reply(tool_calls=[milk]), Reply("Added milk.")]) as server:
        agent_service(server).submit("buy milk")
    assert [entry.summary for entry in all_entries(store)] == ["Buy milk"]
    assert protocols(store) == [("native", False), ("native", False)]
    assert ledger.learned_protocol(store, server.base_url, "test-model") is None
