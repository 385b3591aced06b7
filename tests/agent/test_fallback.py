"""When the model fails an utterance, the built-in rules file it (llm.fallback = offline): the model's partial
work is taken back first, the result says why, and a question the model answered is not a failure. Also the
cap on bulk archive and complete, which no fallback gets around. Real agent, real openai client, local server."""

import json
import time
from dataclasses import replace

import pytest
from sqlmodel import col, select

from app.changes.interpretation import RunOptions
from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceOutcome
from app.errors import ConfirmationNeeded, LlmError
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from app.store.models import Conversation
from tests.support.agent_service import ServiceFactory, add_entries, all_entries, logged_requests, utterance
from tests.support.llm_server import Fail, FakeLlmServer, Reply, Step, call

BREAD = call("create_entries", {"entries": [{"content": "Bake bread", "summary": "Bake bread", "category": "todo"}]})


def with_fallback(service: MurmurService) -> MurmurService:
    """As built for llm.fallback = offline (app/assembly.py)."""
    rules = OfflineInterpreter()
    return replace(service, rules=rules, fallback=rules)


def test_a_failing_server_after_a_first_change_leaves_only_the_rules_work(
    agent_service: ServiceFactory, store: Store
) -> None:
    with FakeLlmServer([Reply(tool_calls=[BREAD]), Fail(500, "out of memory"), Fail(500, "out of memory")]) as server:
        result = with_fallback(agent_service(server)).submit("remind me to call the dentist on Thursday")
    assert result.interpreter == "offline" and result.fallback_reason is not None
    assert "HTTP 500" in result.fallback_reason and "out of memory" in result.fallback_reason
    summaries = [entry.summary for entry in all_entries(store) if entry.status is Status.ACTIVE]
    assert "Bake bread" not in summaries  # the model's half-done run was taken back first
    assert len(summaries) == 1 and "dentist" in summaries[0].lower()
    assert utterance(store, result.utterance_id).outcome is UtteranceOutcome.DONE
    with_fallback(agent_service(server)).undo()
    assert [e for e in all_entries(store) if e.status is Status.ACTIVE] == []


@pytest.mark.slow  # waits the deadline out in real seconds
def test_a_model_that_never_finishes_is_cut_at_the_deadline_and_the_rules_file_it(
    agent_service: ServiceFactory, store: Store
) -> None:
    endless = Reply(" ".join(f"thought{n}" for n in range(2000)), chunk_size=4, chunk_delay=0.01)
    with FakeLlmServer([endless]) as server:
        result = with_fallback(agent_service(server, deadline_seconds=1.5)).submit("buy milk")
    assert "did not finish within 1.5 s" in (result.fallback_reason or "")
    assert [entry.summary.lower() for entry in all_entries(store)] == ["buy milk"]


def test_a_model_in_a_loop_is_stopped_at_once_not_at_its_token_limit(
    agent_service: ServiceFactory, store: Store
) -> None:
    looping = Reply("Okay, I will remember, " + "remember, " * 3000, chunk_size=5, chunk_delay=0.002)
    with FakeLlmServer([looping]) as server:
        started = time.monotonic()
        result = with_fallback(agent_service(server)).submit("buy milk")
    assert time.monotonic() - started < 3.0  # the whole answer would take over 6 s to stream
    assert result.fallback_reason == 'the model changed nothing (it only said "Okay, I will…")'
    [request] = logged_requests(store)
    assert json.loads(request.response or "{}")["content"].count("remember") < 100  # the log keeps what was read


def test_words_without_any_change_are_not_taken_for_work_done(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer([Reply("Sure! I will remind you to water the plants tomorrow.")]) as server:
        result = with_fallback(agent_service(server)).submit("remind me to water the plants tomorrow")
    assert (
        result.fallback_reason == 'the model changed nothing (it only said "Sure! I will remind you to water '
        'the plants tomorrow.")'
    )
    assert [entry.summary.lower() for entry in all_entries(store)] == ["water the plants"]
    with store.read() as session:
        talks = session.exec(select(Conversation).where(col(Conversation.open_until).is_not(None))).all()
    assert talks == []  # the next utterance does not continue a talk that went nowhere


def test_a_question_the_model_answered_is_not_a_failure(agent_service: ServiceFactory, store: Store) -> None:
    service = with_fallback(agent_service("http://127.0.0.1:9/v1"))
    add_entries(service, "Call the dentist")
    with FakeLlmServer([Reply("The dentist is on your list, not done yet.")]) as server:
        result = with_fallback(agent_service(server)).submit("what do I have to do?")
    assert result.fallback_reason is None and result.answered and result.interpreter == "llm"
    assert len(all_entries(store)) == 1


def test_with_the_inbox_fallback_the_failure_waits(agent_service: ServiceFactory, store: Store) -> None:
    """As built for llm.fallback = inbox: no fallback, the rules only judge."""
    with FakeLlmServer([*[Fail(500)] * 4, Reply("Added milk.")]) as server:  # the client retries; auto tries text
        service = replace(agent_service(server), rules=OfflineInterpreter())
        with pytest.raises(LlmError, match="HTTP 500"):
            service.submit("buy milk")
        with pytest.raises(LlmError, match=r'the model changed nothing \(it only said "Added milk."\)'):
            service.submit("buy bread")  # a claim of work not done is not shown as if it were done
    assert all_entries(store) == [] and [u.text for u in service.inbox()] == ["buy milk", "buy bread"]


def test_archiving_more_than_a_handful_waits_for_a_yes_whatever_the_model_says(
    agent_service: ServiceFactory, store: Store, clock: Clock
) -> None:
    def archive_all(body: dict[str, object]) -> Step:
        messages = body["messages"]
        assert isinstance(messages, list)
        if messages[-1]["role"] == "tool":
            return Reply("Archived everything.")
        shorts = [line.split("]")[0][1:] for line in messages[0]["content"].splitlines() if line.startswith("[")]
        items = [{"id": short, "reason": "user asked"} for short in shorts]
        return Reply(tool_calls=[call("archive_entries", {"entries": items})])

    seed = agent_service("http://127.0.0.1:9/v1")
    ids = add_entries(seed, *(f"Task number {n}" for n in range(6)))
    with FakeLlmServer(archive_all) as server:
        service = with_fallback(agent_service(server))
        with pytest.raises(ConfirmationNeeded, match=r"archive 6 entries at once \(more than 5"):
            service.submit("delete everything")
        assert {e.status for e in all_entries(store)} == {Status.ACTIVE}  # nothing changed, no rules stood in
        [waiting] = service.inbox()
        done = service.retry(waiting.id, options=RunOptions(confirmed=True))
    assert len(done.applied) == 6 and {e.status for e in all_entries(store)} == {Status.ARCHIVED}
    assert sorted(e.id for e in all_entries(store)) == sorted(ids)
    requests = logged_requests(store)
    assert all(json.loads(r.tools or "[]") for r in requests)  # each request's tools are on record


def test_calls_that_all_failed_are_no_work_done(agent_service: ServiceFactory, store: Store) -> None:
    wrong = call("complete_entries", {"entries": [{"id": "ffffff", "reason": "done"}]})
    with FakeLlmServer([Reply(tool_calls=[wrong]), Reply("Done!")]) as server:
        result = with_fallback(agent_service(server)).submit("add eggs to my shopping")
    assert result.fallback_reason is not None and result.interpreter == "offline"
    assert [entry.summary.lower() for entry in all_entries(store)] == ["add eggs to my shopping"]
