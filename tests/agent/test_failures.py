"""When the server fails, the budget is spent or the model overreaches: one clear line, nothing lost,
nothing half-applied, and `retry` works later."""

from datetime import timedelta
from typing import Any

import pytest

from app.agent import ledger
from app.changes.interpretation import RunOptions
from app.config import PrivacySettings
from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceOutcome
from app.errors import BudgetExceededError, LlmError, MurmurError
from app.store import Store
from app.store.models import LlmRequest
from tests.support.agent_service import ServiceFactory, add_entries, all_entries, logged_requests, usage_of, utterance
from tests.support.llm_server import Empty, Fail, FakeLlmServer, Hang, Reply, Step, call, closed_port_url

MILK = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})
GOOD = [Reply(tool_calls=[MILK]), Reply("Added milk.")]


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([Fail(401, "invalid api key")], "refused the API key (HTTP 401)"),
        ([Fail(404, "no such model")], "has no model 'test-model' (HTTP 404)"),
        (
            [Fail(400, "Conversation roles must\nalternate user/assistant")],
            "refused the request (HTTP 400): Conversation roles must alternate user/assistant",
        ),
        ([Fail(429), Fail(429)], "rate-limiting requests (HTTP 429)"),  # the client retries once
        ([Fail(503), Fail(503)], "failed (HTTP 503)"),
        ([Empty()], "sent an empty or unreadable answer"),
        ([Reply(tool_calls=[MILK], cut_after_chunks=4)], "cut off in the middle"),
        ([Hang(3.0), Hang(3.0)], "did not answer within 0.5 s (llm.first_token_seconds)"),
    ],
    ids=["401", "404", "400-says-why", "429", "5xx", "empty", "stream-cut", "timeout"],
)
def test_each_server_failure_is_one_line_and_the_utterance_waits(
    agent_service: ServiceFactory, store: Store, steps: list[Step], message: str
) -> None:
    with FakeLlmServer(steps) as server:
        service = agent_service(server, timeout_seconds=0.5, first_token_seconds=0.5)
        with pytest.raises(LlmError) as raised:
            service.submit("buy milk")
    assert message in str(raised.value) and "\n" not in str(raised.value)
    assert all_entries(store) == []
    [waiting] = service.inbox()
    assert (
        waiting.text == "buy milk" and waiting.outcome is UtteranceOutcome.FAILED and message in (waiting.error or "")
    )
    with FakeLlmServer(GOOD) as server:
        retried = agent_service(server).retry(waiting.id)
    assert retried.summary == "1 created" and service.inbox() == []


def test_a_dead_server_is_reported_quickly(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service(closed_port_url())
    with pytest.raises(LlmError, match="cannot reach the model server at http://127.0.0.1:"):
        service.submit("buy milk")
    assert [u.text for u in service.inbox()] == ["buy milk"]


def test_a_stream_cut_after_a_change_reverts_it(agent_service: ServiceFactory, store: Store) -> None:
    two_calls = Reply(tool_calls=[MILK, call("create_entries", {"entries": [{"content": "Buy eggs"}]})])
    cut = Reply(tool_calls=two_calls.tool_calls, cut_after_chunks=len(MILK.arguments) // 7 + 6)
    with FakeLlmServer([cut]) as server:
        service = agent_service(server)
        with pytest.raises(LlmError, match="cut off"):
            service.submit("buy milk and eggs")
    assert all_entries(store) == []  # the milk created mid-stream was reverted
    [batch] = service.history()
    assert batch.batch.undone_at is not None and batch.batch.label.startswith("abandoned: ")
    assert service.inbox()[0].text == "buy milk and eggs"


def spend(store: Store, clock: Clock, dollars: float) -> None:
    request = LlmRequest(created_at=clock.now, base_url="x", model="test-model", turn=1, request="[]", cost_usd=dollars)
    ledger.record_request(store, request)


def test_a_spent_budget_refuses_before_sending(agent_service: ServiceFactory, store: Store, clock: Clock) -> None:
    spend(store, clock, 1.00)
    with FakeLlmServer(GOOD) as server:
        service = agent_service(server, monthly_budget=1.0)
        with pytest.raises(BudgetExceededError, match=r"monthly LLM budget of \$1.00 is spent \(\$1.00 used"):
            service.submit("buy milk")
        assert server.requests == []
        result = agent_service(server, monthly_budget=2.0).retry(service.inbox()[0].id)
    assert result.summary == "1 created"
    assert result.usage.prompt_tokens == 200 and result.usage.cost_usd == pytest.approx((200 * 1 + 40 * 5) / 1e6)


def test_usage_is_recorded_per_request(agent_service: ServiceFactory, store: Store, clock: Clock) -> None:
    with FakeLlmServer(GOOD) as server:
        agent_service(server).submit("buy milk")
    summary = usage_of(store, clock.now, clock.tz, monthly_budget=1.0)
    [month] = summary.by_month
    assert (month.period, month.requests, month.prompt_tokens, month.completion_tokens) == ("2026-11", 2, 200, 40)
    assert summary.budget_left == pytest.approx(1.0 - month.cost_usd)
    log = logged_requests(store)
    assert [r.turn for r in log] == [2, 1] and all(r.total_ms is not None for r in log)


def test_too_many_changes_wait_for_confirmation(agent_service: ServiceFactory, store: Store) -> None:
    many = call("create_entries", {"entries": [{"content": f"Item {n}"} for n in range(5)]})
    with FakeLlmServer([Reply(tool_calls=[MILK]), Reply(tool_calls=[many])]) as server:
        service = agent_service(server, max_mutations=3)
        with pytest.raises(MurmurError, match=r"that would make 6 changes at once \(more than 3\); nothing was"):
            service.submit("a long list")
    assert all_entries(store) == []  # the milk of the first turn was taken back too
    with FakeLlmServer([Reply(tool_calls=[MILK, many]), Reply("Added six.")]) as server:
        result = agent_service(server, max_mutations=3).retry(service.inbox()[0].id, options=RunOptions(confirmed=True))
    assert result.summary == "6 created"


def test_secrets_never_leave_the_machine(agent_service: ServiceFactory, store: Store) -> None:
    said = "pay the rent with card 4242 4242 4242 4242 and the wifi password is hunter2"

    def model(body: dict[str, Any]) -> Reply:
        if len(body["messages"]) > 3:
            return Reply("Added it.")
        user = body["messages"][-1]["content"]
        return Reply(tool_calls=[call("create_entries", {"entries": [{"content": user, "summary": "Pay the rent"}]})])

    with FakeLlmServer(model) as server:
        agent_service(server, privacy=PrivacySettings(keep_unredacted=True)).submit(said)
    sent = repr(server.requests)
    assert "4242" not in sent and "hunter2" not in sent and "[card number]" in sent and "[password]" in sent
    [entry] = all_entries(store)
    assert entry.content == said  # the user chose to keep what they said (privacy.keep_unredacted)
    assert "4242" not in repr([r.request for r in logged_requests(store)])  # the log shows what was sent


def test_by_default_entries_keep_the_placeholders(agent_service: ServiceFactory, store: Store) -> None:
    said = "my card is 4242 4242 4242 4242"
    model = [Reply(tool_calls=[call("create_entries", {"entries": [{"content": "Card is [card number]"}]})]), Reply("")]
    with FakeLlmServer(model) as server:
        agent_service(server).submit(said)
    assert all_entries(store)[0].content == "Card is [card number]"


def test_a_question_is_answered_by_the_next_input(agent_service: ServiceFactory, store: Store) -> None:
    service = agent_service("http://127.0.0.1:9/v1")
    oat, regular = add_entries(service, "Buy oat milk", "Buy milk")

    def model(body: dict[str, Any]) -> Reply:
        said = [m["content"] for m in body["messages"] if m["role"] == "user"]
        if said == ["milk is done"]:
            return Reply("Which milk, the oat milk or the regular one?")
        if said == ["milk is done", "the oat one"] and body["messages"][-1]["role"] == "user":
            return Reply(tool_calls=[call("complete_entries", {"entries": [{"id": oat[:6], "reason": "oat milk"}]})])
        return Reply("Marked the oat milk done.")

    with FakeLlmServer(model) as server:
        service = agent_service(server)
        asked = service.submit("milk is done")
        assert asked.question and asked.message == "Which milk, the oat milk or the regular one?"
        assert utterance(store, asked.utterance_id).error == f"the assistant asked: {asked.message}"
        answered = service.submit("the oat one")
    assert answered.summary == "1 completed" and not answered.question
    assert {e.id: e.status for e in all_entries(store)} == {oat: Status.COMPLETED, regular: Status.ACTIVE}
    assert service.inbox() == []  # the question was answered, so the first utterance left the inbox
    assert (
        utterance(store, answered.utterance_id).conversation_id == utterance(store, asked.utterance_id).conversation_id
    )


def test_a_late_answer_starts_a_new_conversation(agent_service: ServiceFactory, store: Store, clock: Clock) -> None:
    with FakeLlmServer([Reply("Which one?"), Reply("Noted.")]) as server:
        agent_service(server).submit("milk is done")
        later = Clock(now=clock.now.replace(hour=19), tz=clock.tz)  # an hour on: the window has closed
        service = agent_service(server)
        service.clock = lambda: later
        service.session_gap = timedelta(hours=2)  # the same session: no synthesis request in between
        service.submit("the oat one")
    assert [m["content"] for m in server.requests[1]["messages"] if m["role"] == "user"] == ["the oat one"]
