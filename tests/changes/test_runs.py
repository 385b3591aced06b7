"""An utterance's run: leased to one process, done only when it ends, reverted when its process died."""

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from sqlmodel import select

from app.changes.interpretation import AgentOutcome, RunOptions
from app.changes.workspace import Workspace
from app.domain.actions import CreateAction
from app.domain.clock import Clock
from app.domain.enums import Category, UtteranceOutcome
from app.domain.events import EventCallback
from app.errors import LlmError, RunInProgressError
from app.service import MurmurService
from app.store import Store
from app.store.models import Entry, Utterance, utc_now
from tests.support.processes import dead_pid

MILK = CreateAction(content="Buy milk", summary="Buy milk", category=Category.TODO, source_text="buy milk")


@dataclass
class ScriptedAgent:
    """An Agent whose run is a function of its workspace, so a test can act in the middle of it."""

    turns: Callable[[Workspace], None]
    name: str = "scripted-agent"

    def run(self, text: str, workspace: Workspace, on_event: EventCallback, options: RunOptions) -> AgentOutcome:
        self.turns(workspace)
        return AgentOutcome(turns=1)

    def synthesize(self, transcript: str, store: Store, clock: Clock) -> str:
        raise LlmError("a scripted agent sums nothing up")

    def judged(self, store: Store, fault: str | None) -> str | None:
        return None

    def close(self) -> None:
        pass


def dies_after_one_turn(workspace: Workspace) -> None:
    """Applies a turn, then the process "dies": SystemExit gets past the run's own clean-up."""
    workspace.apply([MILK])
    raise SystemExit


def service(store: Store, clock: Clock, turns: Callable[[Workspace], None]) -> MurmurService:
    return MurmurService(store=store, interpreter=ScriptedAgent(turns), clock=lambda: clock)


def saved(store: Store, utterance_id: int = 1) -> Utterance:
    with store.read() as session:
        found = session.get(Utterance, utterance_id)
        assert found is not None
        return found


def entries(store: Store) -> list[Entry]:
    with store.read() as session:
        return list(session.exec(select(Entry)).all())


def set_lease(store: Store, **columns: object) -> None:
    with store.write() as session:
        utterance = session.get(Utterance, 1)
        assert utterance is not None
        for name, value in columns.items():
            setattr(utterance, name, value)
        session.add(utterance)


def interrupted_run(store: Store, clock: Clock) -> MurmurService:
    """Utterance 1 with a turn applied and its process gone; the service was started before it died."""
    running = service(store, clock, dies_after_one_turn)
    with pytest.raises(SystemExit):
        running.submit("buy milk")
    set_lease(store, lease_pid=dead_pid())
    return running


def test_the_utterance_is_done_only_when_the_run_ends_and_the_lease_is_given_back(store: Store, clock: Clock) -> None:
    seen: list[Utterance] = []

    def two_turns(workspace: Workspace) -> None:
        workspace.apply([MILK])
        seen.append(saved(store))

    service(store, clock, two_turns).submit("buy milk")
    assert seen[0].outcome is UtteranceOutcome.PENDING and seen[0].lease_until is not None
    finished = saved(store)
    assert finished.outcome is UtteranceOutcome.DONE and (finished.lease_pid, finished.lease_until) == (None, None)


def test_a_run_whose_process_died_is_reverted_when_the_next_service_starts(store: Store, clock: Clock) -> None:
    interrupted_run(store, clock)
    assert len(entries(store)) == 1 and saved(store).outcome is UtteranceOutcome.PENDING
    restarted = service(store, clock, dies_after_one_turn)
    assert entries(store) == []
    [waiting] = restarted.inbox()
    assert (waiting.outcome, waiting.error, waiting.lease_pid) == (UtteranceOutcome.FAILED, "interrupted", None)
    assert restarted.history()[0].batch.undone_at is not None


def test_a_long_lived_service_reverts_a_dead_run_when_the_next_run_begins(store: Store, clock: Clock) -> None:
    running = interrupted_run(store, clock)
    running.interpreter = ScriptedAgent(lambda workspace: workspace.apply([MILK]))
    running.retry(1)
    assert len(entries(store)) == 1 and saved(store).outcome is UtteranceOutcome.DONE


def test_recovery_keeps_a_change_edited_since_and_says_so(store: Store, clock: Clock) -> None:
    running = interrupted_run(store, clock)
    [milk] = entries(store)
    running.edit([milk.id], {"summary": "Buy oat milk"})
    service(store, clock, dies_after_one_turn)
    assert [e.summary for e in entries(store)] == ["Buy oat milk"]
    error = saved(store).error or ""
    assert error.startswith("interrupted; kept 1 of its changes, edited since: create ") and milk.id[:6] in error


def test_a_failed_run_keeps_a_change_edited_meanwhile_and_says_so(store: Store, clock: Clock) -> None:
    def edited_then_fails(workspace: Workspace) -> None:
        [applied], _ = workspace.apply([MILK])
        by_hand.edit([applied.entry.id], {"priority": 1})
        raise LlmError("the model server went away")

    by_hand = service(store, clock, edited_then_fails)
    with pytest.raises(LlmError):
        by_hand.submit("buy milk")
    [milk] = entries(store)
    short = by_hand.short_ids()[milk.id]
    assert saved(store).error == f"the model server went away; kept 1 of its changes, edited since: create {short}"


def test_a_retry_while_a_live_process_holds_the_utterance_is_refused(store: Store, clock: Clock) -> None:
    refusals: list[str] = []

    def retried_meanwhile(workspace: Workspace) -> None:
        workspace.apply([MILK])
        with pytest.raises(RunInProgressError) as refused:
            service(store, clock, dies_after_one_turn).retry(1)
        refusals.append(str(refused.value))

    service(store, clock, retried_meanwhile).submit("buy milk")
    [refusal] = refusals
    assert refusal.startswith(f"utterance 1 is being run by process {os.getpid()} on ")
    assert len(entries(store)) == 1 and saved(store).outcome is UtteranceOutcome.DONE


def test_an_expired_lease_is_taken_over_even_if_its_pid_lives(store: Store, clock: Clock) -> None:
    running = service(store, clock, dies_after_one_turn)
    with pytest.raises(SystemExit):
        running.submit("buy milk")
    set_lease(store, lease_until=utc_now() - timedelta(seconds=1))  # e.g. the pid was reused after a reboot
    service(store, clock, dies_after_one_turn)
    assert entries(store) == [] and saved(store).error == "interrupted"


def test_a_lease_held_on_another_host_counts_until_it_expires(store: Store, clock: Clock) -> None:
    running = service(store, clock, dies_after_one_turn)
    with pytest.raises(SystemExit):
        running.submit("buy milk")
    set_lease(store, lease_host="another-host", lease_pid=dead_pid())  # its processes cannot be seen from here
    with pytest.raises(RunInProgressError, match="on another-host"):
        service(store, clock, dies_after_one_turn).retry(1)
    assert len(entries(store)) == 1
