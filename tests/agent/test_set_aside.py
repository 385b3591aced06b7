"""A model that cannot do the work is set aside, with a note, and the rules file what is said without asking it
first, until `murmur config test` finds it working: after three failed utterances in a row, or when the test
finds it cannot call tools. A server that cannot be reached is not the model's failure. Real agent, real openai
client, the local test server; the set-aside is kept in the database."""

from dataclasses import replace
from pathlib import Path
from typing import Any

from app.agent import ledger
from app.agent.connection import test_connection as check_connection
from app.config import LlmSettings
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from tests.support.agent_service import ServiceFactory, all_entries
from tests.support.llm_server import FakeLlmServer, Reply, Step, call, closed_port_url
from tests.support.murmur_cli import Murmur

MILK = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})
SAYS_SO = "Sure! I will add that."  # and does nothing


def with_fallback(service: MurmurService) -> MurmurService:
    rules = OfflineInterpreter()
    return replace(service, rules=rules, fallback=rules)


def words_only(body: dict[str, Any]) -> Step:
    return Reply(SAYS_SO)


def test_three_failed_utterances_in_a_row_set_the_model_aside_until_it_is_tested(
    agent_service: ServiceFactory, store: Store
) -> None:
    with FakeLlmServer(words_only) as server:
        service = with_fallback(agent_service(server))
        first, second, third = (service.submit(f"buy {what}") for what in ("milk", "bread", "eggs"))
        assert "set aside" not in (first.fallback_reason or "") + (second.fallback_reason or "")
        assert "the model 'test-model' is set aside: it failed 3 utterances in a row" in (third.fallback_reason or "")
        asked = len(server.requests)
        fourth = service.submit("buy butter")
        assert len(server.requests) == asked  # not asked again: the rules filed it at once
    assert fourth.interpreter == "offline"
    assert (fourth.fallback_reason or "").startswith("the model 'test-model' is set aside: it failed 3 utterances")
    assert "a connection test that finds it working takes it back" in (fourth.fallback_reason or "")
    assert len(all_entries(store)) == 4

    def tool_model(body: dict[str, Any]) -> Step:
        return Reply("Added milk.") if body["messages"][-1]["role"] == "tool" else Reply(tool_calls=[MILK])

    with FakeLlmServer(tool_model) as working:
        tested = check_connection(LlmSettings(base_url=working.base_url, model="test-model"), None, store=store)
        assert tested.ok
        assert ledger.set_aside_reason(store, working.base_url, "test-model") is None
        assert with_fallback(agent_service(working)).submit("buy milk").interpreter == "llm"


def test_a_success_between_failures_starts_the_count_again(agent_service: ServiceFactory, store: Store) -> None:
    script = [Reply(SAYS_SO), Reply(SAYS_SO), Reply(tool_calls=[MILK]), Reply("Added."), Reply(SAYS_SO)]
    with FakeLlmServer(script) as server:
        service = with_fallback(agent_service(server))
        results = [service.submit(text) for text in ("buy bread", "buy eggs", "buy milk", "buy butter")]
    assert [r.interpreter for r in results] == ["offline", "offline", "llm", "offline"]
    assert ledger.set_aside_reason(store, server.base_url, "test-model") is None


def test_a_server_that_cannot_be_reached_is_not_the_model_s_failure(
    agent_service: ServiceFactory, store: Store
) -> None:
    url = closed_port_url()
    service = with_fallback(agent_service(url))
    for what in ("milk", "bread", "eggs", "butter"):
        assert "cannot reach" in (service.submit(f"buy {what}").fallback_reason or "")
    assert ledger.set_aside_reason(store, url, "test-model") is None


def test_a_model_the_test_finds_unable_to_call_tools_is_set_aside_at_once(tmp_path: Path) -> None:
    prose = Reply("Sure, milk is a great choice! Anything else?")
    with FakeLlmServer([prose, prose]) as server:
        murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="m")
        tested = murmur.run("config", "test")
        assert tested.returncode == 1, tested.stdout
        assert "set aside: the built-in rules file what you say until a test finds it working" in tested.stdout
        done = murmur.run("add", "buy milk")
        assert len(server.requests) == 2  # the test's two tries; the utterance did not ask it
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("The built-in rules filed this: the model 'm' is set aside: ")
    assert "this model does not follow tool instructions" in done.stdout.splitlines()[0]
