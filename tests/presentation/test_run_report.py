"""One run's report, decided once: the command line, its JSON, the window and an assistant say the same title,
summary, answer and fallback note, from real runs on a real SQLite file with the offline rules."""

from dataclasses import dataclass, replace

from app.changes.held import Caps
from app.changes.interpretation import InterpretContext, ParseResult
from app.domain.clock import Clock
from app.domain.enums import UtteranceSource
from app.mcp.calls import Caller, _changed
from app.offline.interpreter import OfflineInterpreter
from app.presentation.run_report import ANSWER, run_report
from app.render import report_json
from app.run.conductor import Stages, drive
from app.run.run import Run
from app.service import MurmurService, PipelineResult
from app.store import Store
from app.ui.jobs import batch_report


@dataclass
class Answering:
    """Rules that answer in words and change nothing."""

    name: str = "answering"

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        return ParseResult(actions=[], failures=[], answer="Nothing is due this week.")


def ran(service: MurmurService, said: str) -> PipelineResult:
    run = drive(Run(UtteranceSource.TYPED, text=said), Stages(service))
    assert run.result is not None
    return run.result


def test_every_front_end_says_what_the_report_decided(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    result = ran(service, "buy milk and call mom tomorrow at 9am")
    report = run_report(result, clock.now, clock.tz)
    assert report.summary == "2 created" and not report.answered and report.undo_id is not None
    assert report.title == "Created “Buy milk” and “Call mom”"
    assert len(report.lines) == len(report.words) == 2 and report.touched == report.created
    window = batch_report(service, result)
    assert (window.summary, window.applied, window.touched) == (report.title, report.words, report.touched)
    data = report_json(report, clock.tz)
    assert (data["summary"], data["undo_id"], data["utterance_id"]) == (
        report.summary,
        report.undo_id,
        result.utterance_id,
    )
    reply = _changed(Caller(service, "test-client", Caps(10, 25)), result, result.message)
    assert reply.text.splitlines()[:2] == report.lines and reply.data["batch"] == report.undo_id


def test_an_answer_is_titled_so_everywhere_and_a_fallback_note_is_worded_once(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=Answering(), clock=lambda: clock)
    result = ran(service, "what's due this week?")
    report = run_report(result, clock.now, clock.tz)
    assert report.answered and report.title == ANSWER and report.message == "Nothing is due this week."
    assert batch_report(service, result).summary == ANSWER and result.answered
    fell_back = run_report(replace(result, fallback_reason="the model server did not answer"), clock.now, clock.tz)
    assert fell_back.fallback_note == "The built-in rules filed this: the model server did not answer"


def test_a_change_by_hand_has_no_reading_of_words(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    made = ran(service, "buy bread")
    [entry_id] = made.touched
    done = service.complete([entry_id])
    report = run_report(done, clock.now, clock.tz)
    assert report.utterance_id is None and report.message is None and report.summary == "1 completed"
    assert set(report_json(report, clock.tz)) == {"applied", "failures", "summary", "undo_id"}
