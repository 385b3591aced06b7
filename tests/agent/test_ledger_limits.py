"""A request whose tool calls were stopped by the change limit (llm.max_mutations) was still paid for: its
answer is read to the end and it is in the ledger, with its tokens and cost, before the run asks to confirm."""

import json

import pytest

from app.agent import ledger
from app.domain.clock import Clock
from app.domain.enums import UtteranceOutcome
from app.errors import ConfirmationNeeded
from app.store import Store
from tests.support.agent_service import TEST_PRICE, ServiceFactory, all_entries, logged_requests, usage_of
from tests.support.llm_server import FakeLlmServer, Reply, ToolCallSpec, call


def one_entry(content: str) -> ToolCallSpec:
    return call("create_entries", {"entries": [{"content": content, "summary": content, "category": "todo"}]})


def test_a_request_stopped_by_the_change_limit_is_recorded_with_its_cost(
    agent_service: ServiceFactory, store: Store, clock: Clock
) -> None:
    # Four one-entry calls against a limit of two: the third is refused while the fourth is still being written.
    calls = [one_entry(f"Item {n}") for n in range(4)]
    reply = Reply(tool_calls=calls, prompt_tokens=1234, completion_tokens=567)
    with FakeLlmServer([reply]) as server:
        service = agent_service(server, max_mutations=2)
        with pytest.raises(ConfirmationNeeded, match=r"that would make 3 changes at once \(more than 2\)"):
            service.submit("four things")
        assert len(server.requests) == 1
    assert all_entries(store) == []  # the two applied before the limit were taken back
    [waiting] = service.inbox()
    assert waiting.outcome is UtteranceOutcome.FAILED

    cost = TEST_PRICE.cost(1234, 567)
    assert cost > 0
    [record] = logged_requests(store)
    assert (record.utterance_id, record.turn, record.model) == (waiting.id, 1, "test-model")
    assert (record.prompt_tokens, record.completion_tokens) == (1234, 567)
    assert record.cost_usd == pytest.approx(cost)
    assert record.error is None and record.total_ms is not None
    answer = json.loads(record.response or "null")
    # The whole answer was read, past the refused call: every call, each with its arguments complete.
    assert [(c["function"]["name"], c["function"]["arguments"]) for c in answer["tool_calls"]] == [
        (spec.name, spec.arguments) for spec in calls
    ]

    summary = usage_of(store, clock.now, clock.tz, monthly_budget=1.0)
    [month] = summary.by_month
    assert (month.requests, month.prompt_tokens, month.completion_tokens) == (1, 1234, 567)
    assert month.cost_usd == pytest.approx(cost) and summary.spent_this_month == pytest.approx(cost)
    assert ledger.spent_since(store, ledger.month_start(clock.now, clock.tz)) == pytest.approx(cost)


def test_the_limit_reached_after_the_answer_ends_is_recorded_too(agent_service: ServiceFactory, store: Store) -> None:
    # One call of three entries: complete only when the stream ends, so it is refused after the answer is read.
    many = call("create_entries", {"entries": [{"content": f"Item {n}"} for n in range(3)]})
    with FakeLlmServer([Reply(tool_calls=[many], prompt_tokens=300, completion_tokens=90)]) as server:
        service = agent_service(server, max_mutations=2)
        with pytest.raises(ConfirmationNeeded, match=r"that would make 3 changes at once"):
            service.submit("three things")
    [record] = logged_requests(store)
    assert (record.prompt_tokens, record.completion_tokens) == (300, 90)
    assert record.cost_usd == pytest.approx(TEST_PRICE.cost(300, 90))
    assert all_entries(store) == [] and [u.text for u in service.inbox()] == ["three things"]
