"""One run as one object, driven through its stages: a real SQLite file, the offline rules, a fixed clock; the
recording's words from a transcript as the microphone's thread hands them over."""

import os
import stat
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.changes.interpretation import InterpretContext, ParseResult, RunOptions
from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceSource
from app.domain.events import ErrorEvent, PipelineEvent, RunEnd, RunStart, Stage
from app.errors import ConfirmationNeeded, LlmError
from app.offline.interpreter import OfflineInterpreter
from app.run.conductor import Stages, drive
from app.run.run import Again, Run
from app.service import MurmurService
from app.speech_out.reply import ReplyMode
from app.store import Store
from app.store.kept_runs import Ending, KeptRuns
from tests.support.run_events import reduced


@dataclass(frozen=True)
class Heard:
    text: str
    audio: bytes = b"\x00\x01" * 800
    faint: bool = False


@dataclass
class Failing:
    """Rules that cannot read anything: the run fails while interpreting."""

    name: str = "failing"

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        raise LlmError("the model server is down")


@pytest.fixture
def service(store: Store, clock: Clock) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)


def names(service: MurmurService) -> dict[str, str]:
    return {entry.id: entry.summary for entry in service.entries(list(Status))}


def test_a_typed_run_carries_its_input_outputs_and_times_to_the_reply(service: MurmurService) -> None:
    events: list[PipelineEvent] = []
    run = Run(UtteranceSource.TYPED, events.append, text="buy milk tomorrow", reply_mode=ReplyMode.ALWAYS)
    assert drive(run, Stages(service)) is run
    assert run.result is not None and run.result.summary == "1 created" and run.failure is None
    assert run.reply is not None and "milk" in run.reply.text.lower()
    assert list(run.seconds) == [Stage.INTERPRET, Stage.REPLY]  # typed words skip listening and transcribing
    assert run.events == events and {e.run_id for e in events} == {run.id}
    assert [type(e) for e in events][0] is RunStart and [type(e) for e in events].count(RunEnd) == 1


def test_a_dictation_driven_across_two_threads_is_one_run_with_one_start_and_one_end(service: MurmurService) -> None:
    events: list[PipelineEvent] = []
    run = Run(UtteranceSource.VOICE, events.append, first=Stage.LISTEN)
    run.begin()  # the key press
    heard = threading.Thread(
        target=drive, args=(run, Stages(hear=lambda: Heard("buy oat milk"))), kwargs={"until": Stage.TRANSCRIBE}
    )
    heard.start()
    heard.join()
    assert run.text == "buy oat milk" and not run.ended  # handed on, not ended
    drive(run, Stages(service))  # the worker goes on from where the microphone's thread left it
    assert reduced(events, names(service).__getitem__) == [
        ("listen", "RunStart", ("voice",)),
        ("transcribe", "FinalTranscript", ("buy oat milk",)),
        ("interpret", "TranscriptEvent", ("buy oat milk", "voice")),
        ("interpret", "ThinkingEvent", (1, "offline")),
        ("apply", "AppliedEvent", (1, 0)),
        ("apply", "RunEnd", ("1 created", 1, 0, True, ("Buy oat milk",))),
    ]
    assert list(run.seconds) == [Stage.LISTEN, Stage.TRANSCRIBE, Stage.INTERPRET, Stage.REPLY]
    said = run.result.utterance_id if run.result else 0
    assert service.recorded([said]) == {said}  # the audio travelled with the run, kept with what was said


def test_a_transcribe_only_run_stops_after_the_words_and_saves_nothing(service: MurmurService) -> None:
    events: list[PipelineEvent] = []
    run = Run(UtteranceSource.VOICE, events.append, first=Stage.TRANSCRIBE, last=Stage.TRANSCRIBE)
    drive(run, Stages(service, hear=lambda: Heard("call the plumber")))
    assert run.ended and run.text == "call the plumber" and run.result is None
    assert [type(e).__name__ for e in events] == ["RunStart", "FinalTranscript", "RunEnd"]
    assert service.inbox() == [] and service.entries(list(Status)) == []


def test_words_heard_faintly_wait_in_the_inbox_for_a_yes_and_never_reach_the_list_unasked(
    service: MurmurService,
) -> None:
    """A whisper read past the voice detector may be noise Whisper made words of: it is asked about, never applied."""
    run = Run(UtteranceSource.VOICE, first=Stage.TRANSCRIBE)
    with pytest.raises(ConfirmationNeeded, match="heard faintly: “Buy oat milk”. Is that what you said?"):
        drive(run, Stages(service, hear=lambda: Heard("Buy oat milk.", faint=True)))
    [waiting] = service.inbox()
    assert waiting.text == "Buy oat milk." and run.failure is not None and run.failure.utterance_id == waiting.id
    assert service.entries(list(Status)) == [] and service.recorded([waiting.id or 0]) == {waiting.id}
    with pytest.raises(ConfirmationNeeded):  # run again without the yes, it asks again
        drive(Run(UtteranceSource.TYPED, again=Again(waiting.id or 0)), Stages(service))
    yes = Run(UtteranceSource.TYPED, again=Again(waiting.id or 0), options=RunOptions(confirmed=True))
    drive(yes, Stages(service))
    assert list(names(service).values()) == ["Buy oat milk"] and service.inbox() == []


def test_words_heard_faintly_and_put_right_by_the_user_are_theirs(service: MurmurService) -> None:
    with pytest.raises(ConfirmationNeeded):
        drive(
            Run(UtteranceSource.VOICE, first=Stage.TRANSCRIBE),
            Stages(service, hear=lambda: Heard("by oat", faint=True)),
        )
    [waiting] = service.inbox()
    drive(Run(UtteranceSource.TYPED, again=Again(waiting.id or 0, "buy oat milk")), Stages(service))
    assert list(names(service).values()) == ["Buy oat milk"]


def test_a_run_that_fails_says_so_once_ends_once_and_names_what_waits_in_the_inbox(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=Failing(), clock=lambda: clock)
    events: list[PipelineEvent] = []
    run = Run(UtteranceSource.TYPED, events.append, text="buy milk")
    with pytest.raises(LlmError):
        drive(run, Stages(service))
    [waiting] = service.inbox()
    assert run.failure is not None and run.failure.utterance_id == waiting.id
    assert run.failure.stage is Stage.INTERPRET and "down" in run.failure.message
    assert [type(e) for e in events].count(ErrorEvent) == 1 and [type(e) for e in events].count(RunEnd) == 1
    end = events[-1]
    assert isinstance(end, RunEnd) and end.utterance_id == waiting.id and end.summary == run.failure.message


def test_a_run_again_begins_as_what_was_said_and_one_refused_reports_nothing(
    store: Store, clock: Clock, service: MurmurService
) -> None:
    failing = MurmurService(store=store, interpreter=Failing(), clock=lambda: clock)
    with pytest.raises(LlmError):
        drive(Run(UtteranceSource.VOICE, text="buy bread"), Stages(failing))
    [kept] = KeptRuns.beside(store.path).read()  # the error by its code and its kind, not its words
    assert (kept.ending, kept.failed, kept.error) == (Ending.FAILED, "llm", "LlmError")
    [waiting] = service.inbox()
    assert waiting.id is not None
    events: list[PipelineEvent] = []
    again = Run(UtteranceSource.TYPED, events.append, again=Again(waiting.id), options=RunOptions())
    drive(again, Stages(service))
    assert isinstance(events[0], RunStart) and events[0].source is UtteranceSource.VOICE
    assert again.result is not None and again.result.summary == "1 created" and service.inbox() == []
    refused: list[PipelineEvent] = []
    with pytest.raises(Exception, match="already applied"):
        drive(Run(UtteranceSource.TYPED, refused.append, again=Again(waiting.id)), Stages(service))
    assert refused == []  # it never began


def test_ended_runs_are_kept_beside_the_database_without_the_words_owner_only(
    service: MurmurService, db_path: Path
) -> None:
    for said in ("buy milk", "call the dentist on friday"):
        drive(Run(UtteranceSource.TYPED, text=said), Stages(service))
    kept = KeptRuns.beside(db_path)
    runs = kept.read()
    assert [run.source for run in runs] == ["typed", "typed"] and all(run.applied == 1 for run in runs)
    assert all(run.ending is Ending.CHANGED and "interpret" in run.ms for run in runs) and runs[0].id != runs[1].id
    kinds = [(event.kind, event.stage) for event in runs[0].events]  # each event by kind, stage and moment
    assert kinds[0] == ("RunStart", "interpret") and kinds[-1] == ("RunEnd", "apply") and len(kinds) == 5
    moments = [event.ms for event in runs[0].events]
    assert moments == sorted(moments)
    text = kept.path.read_text()
    assert "milk" not in text and "dentist" not in text
    assert stat.S_IMODE(os.stat(kept.path).st_mode) == 0o600


def test_only_the_last_runs_are_kept_and_a_broken_line_is_passed_over(service: MurmurService, db_path: Path) -> None:
    kept = KeptRuns.beside(db_path)
    old = '{"id": "old", "began": "", "source": "cli", "ms": {}, "events": [], "ended": "nothing", "failed": null, '
    kept.path.write_text("not json\n" + (old + '"error": "", "applied": 0, "interpreter": ""}\n') * 60)
    drive(Run(UtteranceSource.TYPED, text="buy milk"), Stages(service))
    runs = kept.read()
    assert len(runs) == 50 and runs[-1].source == "typed" and runs[0].id == "old"
