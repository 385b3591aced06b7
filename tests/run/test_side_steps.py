"""The service's side steps are stages of the run, named and timed apart from the reading they sit in: summing up
the talks that ended before a new talk's first words, judging the model's reading against the rules, and the rules'
second reading when the model fails. A real SQLite file, the real openai client against a local chat-completions
server, the offline rules."""

import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from app.agent.loop import LlmAgent
from app.changes.interpretation import InterpretContext, ParseResult
from app.config import PrivacySettings
from app.domain.clock import Clock
from app.domain.enums import UtteranceSource
from app.domain.events import FallingBack, PipelineEvent, Stage, SummingUp
from app.errors import LlmError
from app.offline.interpreter import OfflineInterpreter
from app.run.conductor import Stages, drive
from app.run.run import Run
from app.service import MurmurService
from app.store import Store
from app.ui.jobs import MinuteJob, ShownEntries
from tests.support.agent_service import TEST_PRICE
from tests.support.llm_server import FakeLlmServer, Reply, Step, provider_for


class ServerDown:
    """A model that cannot be reached: every reading fails."""

    name = "llm"

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        raise LlmError("the model server is down")


def answers_and_sums_up(body: dict[str, Any]) -> Step:
    return Reply("The user asked about the fence.") if "tools" not in body else Reply("Nothing about it yet.")


def test_a_new_talks_summing_up_and_the_judgement_are_stages_of_their_own(store: Store, clock: Clock) -> None:
    with FakeLlmServer(answers_and_sums_up) as server:
        agent = LlmAgent(provider_for(server.base_url, TEST_PRICE), PrivacySettings())
        service = MurmurService(store=store, interpreter=agent, clock=lambda: clock, rules=OfflineInterpreter())
        drive(Run(UtteranceSource.CLI, text="what did I say about the fence?"), Stages(service))
        later = replace(clock, now=clock.now + service.session_gap + timedelta(minutes=1))
        service.clock = lambda: later
        events: list[PipelineEvent] = []
        run = drive(Run(UtteranceSource.CLI, events.append, text="what is due today?"), Stages(service))
        agent.close()
    [summing] = [event for event in events if isinstance(event, SummingUp)]
    assert summing.talks == 1 and summing.stage is Stage.SUM_UP
    assert "tools" not in server.requests[1]  # the summing up went to the model before the new talk's first words
    assert list(run.seconds) == [Stage.SUM_UP, Stage.JUDGE, Stage.INTERPRET, Stage.REPLY]
    [kept] = service.recent_runs(1)
    assert list(kept.ms) == ["sum_up", "interpret", "judge", "reply"]  # in the order a run passes them


def test_the_rules_second_reading_is_the_fallback_stage(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=ServerDown(), clock=lambda: clock, fallback=OfflineInterpreter())
    events: list[PipelineEvent] = []
    run = drive(Run(UtteranceSource.TYPED, events.append, text="buy milk tomorrow"), Stages(service))
    assert run.result is not None and run.result.summary == "1 created" and run.failure is None
    [falling] = [event for event in events if isinstance(event, FallingBack)]
    assert falling.stage is Stage.FALLBACK and "server is down" in falling.reason
    assert Stage.FALLBACK in run.seconds and Stage.INTERPRET in run.seconds


def test_a_stage_timed_inside_another_counts_for_itself_alone(tmp_path: Path) -> None:
    run = Run(UtteranceSource.TYPED)
    with run.timed(Stage.INTERPRET):
        with run.timed(Stage.SUM_UP):
            time.sleep(0.3)
    assert run.seconds[Stage.SUM_UP] >= 0.3 > run.seconds[Stage.INTERPRET]
    assert run.driven is Stage.INTERPRET  # a failure reported now belongs to the stage the run was driven through


def test_a_talk_gone_quiet_is_summed_up_between_runs_and_the_next_words_do_not_wait(store: Store, clock: Clock) -> None:
    with FakeLlmServer(answers_and_sums_up) as server:
        agent = LlmAgent(provider_for(server.base_url, TEST_PRICE), PrivacySettings())
        service = MurmurService(store=store, interpreter=agent, clock=lambda: clock, rules=OfflineInterpreter())
        drive(Run(UtteranceSource.CLI, text="what did I say about the fence?"), Stages(service))
        minute = MinuteJob(service, monthly_budget=0.0, shown=ShownEntries())  # the window's job each minute
        minute.run()
        assert len(server.requests) == 1  # still within the gap: the talk goes on
        later = replace(clock, now=clock.now + service.session_gap + timedelta(minutes=1))
        service.clock = lambda: later
        minute.run()
        assert "tools" not in server.requests[-1]  # summed up now, with nobody waiting
        events: list[PipelineEvent] = []
        run = drive(Run(UtteranceSource.CLI, events.append, text="what is due today?"), Stages(service))
        agent.close()
    assert not any(isinstance(event, SummingUp) for event in events) and Stage.SUM_UP not in run.seconds
    assert len(server.requests) == 3
