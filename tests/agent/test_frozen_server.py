"""One clock per utterance (llm.deadline_seconds), from the connection to the last byte: a server that takes the
request and never answers, one that sends its headers only with its first word (llama.cpp), and one whose
/props hangs are all cut on it, and the message says how long it really took."""

import json
import re
import time
from dataclasses import replace
from zoneinfo import ZoneInfo

import pytest

from app.errors import LlmError
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from tests.support.agent_service import ServiceFactory, all_entries, logged_requests, usage_of
from tests.support.llm_server import FakeLlmServer, Hang, Reply, call

# Left out of `make test-fast`: each test waits a deadline out in real seconds.
pytestmark = pytest.mark.slow

DEADLINE = 1.5
MARGIN = 3.0  # generous: the deadline is what is checked, not the speed of the machine
MILK = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})


def with_fallback(service: MurmurService) -> MurmurService:
    rules = OfflineInterpreter()
    return replace(service, rules=rules, fallback=rules)


def stopped_after(message: str) -> float:
    found = re.search(r"did not finish within 1\.5 s \(llm\.deadline_seconds\); stopped after (\d+\.\d) s$", message)
    assert found, message
    return float(found.group(1))


def test_a_server_that_never_sends_its_headers_is_cut_at_the_deadline(
    agent_service: ServiceFactory, store: Store
) -> None:
    with FakeLlmServer([Hang(60)]) as server:
        service = agent_service(server, deadline_seconds=DEADLINE, first_token_seconds=90.0)
        started = time.monotonic()
        with pytest.raises(LlmError) as raised:
            service.submit("buy milk")
        elapsed = time.monotonic() - started
    assert elapsed < DEADLINE + MARGIN, f"held for {elapsed:.1f} s"
    assert DEADLINE <= stopped_after(str(raised.value)) <= elapsed + 0.1
    assert len(server.requests) == 1  # not sent again once the time was up


def test_the_rules_file_what_a_frozen_server_never_answered_within_the_deadline(
    agent_service: ServiceFactory, store: Store
) -> None:
    with FakeLlmServer([Hang(60)]) as server:
        service = with_fallback(agent_service(server, deadline_seconds=DEADLINE))
        started = time.monotonic()
        result = service.submit("buy milk")
    assert time.monotonic() - started < DEADLINE + MARGIN
    assert stopped_after(result.fallback_reason or "") >= DEADLINE
    assert [entry.summary for entry in all_entries(store)] == ["Buy milk"]


def test_a_slow_first_word_counts_on_the_same_clock_as_the_rest(agent_service: ServiceFactory, store: Store) -> None:
    """The headers come with the first word, after 0.9 s each: the first turn fits, the second does not."""
    slow = [Reply(tool_calls=[MILK], headers_delay=0.9), Reply("Added milk.", headers_delay=0.9)]
    with FakeLlmServer(slow) as server:
        service = agent_service(server, deadline_seconds=DEADLINE, first_token_seconds=90.0)
        with pytest.raises(LlmError) as raised:
            service.submit("buy milk")
    assert stopped_after(str(raised.value)) >= DEADLINE
    assert all_entries(store) == []  # the first turn's change was taken back with the run


def test_a_slow_server_within_the_deadline_is_waited_for(agent_service: ServiceFactory, store: Store) -> None:
    slow = [Reply(tool_calls=[MILK], headers_delay=0.3), Reply("Added milk.", headers_delay=0.3)]
    with FakeLlmServer(slow) as server:
        result = agent_service(server, deadline_seconds=5.0, timeout_seconds=0.2).submit("buy milk")
    assert result.message == "Added milk." and [e.summary for e in all_entries(store)] == ["Buy milk"]


def test_the_server_properties_look_up_is_on_the_utterance_s_clock(agent_service: ServiceFactory, store: Store) -> None:
    props = {"chat_template_caps": {"supports_tool_calls": True}}
    with FakeLlmServer([Reply("never sent")], props=props, get_delay=30.0) as server:
        service = agent_service(server, deadline_seconds=1.0)
        started = time.monotonic()
        with pytest.raises(LlmError, match=r"did not finish within 1 s \(llm.deadline_seconds\); stopped after"):
            service.submit("buy milk")
        assert time.monotonic() - started < 1.0 + MARGIN
    assert server.requests == []  # no time was left to send it


def test_a_cut_request_is_logged_with_its_time_and_estimated_tokens(
    agent_service: ServiceFactory, store: Store
) -> None:
    with FakeLlmServer([Hang(60)]) as server:
        with pytest.raises(LlmError):
            agent_service(server, deadline_seconds=DEADLINE).submit("buy milk")
        sent = server.requests[0]
    [request] = logged_requests(store)
    assert request.error and "stopped after" in request.error
    assert request.tokens_estimated and request.completion_tokens == 0
    assert request.prompt_tokens >= len(json.dumps(sent["messages"])) // 5  # about four characters a token
    # It waited all the time the deadline left it (less than the whole deadline when building the context was slow).
    limit = json.loads(request.sent_with or "{}")["time_limit_seconds"]
    assert 0 < limit <= DEADLINE and (request.total_ms or 0) >= limit * 1000
    assert request.cost_usd > 0  # the test server has a price: the budget counts what the cut request cost
    usage = usage_of(store, request.created_at, ZoneInfo("UTC"))
    assert usage.by_month[0].prompt_tokens == request.prompt_tokens
