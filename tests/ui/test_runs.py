"""What the app hears of a run (typed events, one RunEnd however it ends), how a failed run offers Retry,
undoing an older batch from the history, and the worker's jobs dispatched by their type."""

import threading
from dataclasses import dataclass

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.changes.interpretation import InterpretContext
from app.domain.actions import ParseResult
from app.domain.enums import UtteranceSource
from app.domain.events import (
    AppliedEvent,
    ErrorCode,
    ErrorEvent,
    PipelineEvent,
    RunEnd,
    RunStart,
    ThinkingEvent,
    TranscriptEvent,
)
from app.errors import LlmError, StoreError
from app.ui import jobs
from app.ui.application import Murmur
from app.ui.worker import Call, Failed, Finished, JobOutcome, PipelineWorker
from tests.support.app_window import summaries, type_and_enter

WAIT_MS = 15_000


@dataclass
class Failing:
    """An interpreter that raises `error` (a MurmurError, or anything else: a bug)."""

    error: Exception
    name: str = "failing"

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        raise self.error


def heard(qtbot: QtBot, murmur: Murmur, text: str) -> list[PipelineEvent]:
    """The events the window is shown while `text` runs."""
    events: list[PipelineEvent] = []
    murmur.bridge.progressed.connect(events.append)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.conductor.submit(text, UtteranceSource.TYPED)
    return events


def test_a_run_that_succeeds_ends_with_one_run_end(qtbot: QtBot, murmur: Murmur) -> None:
    events = heard(qtbot, murmur, "buy milk")
    assert [type(e) for e in events] == [RunStart, TranscriptEvent, ThinkingEvent, AppliedEvent, RunEnd]
    _, transcript, thinking, applied, done = events
    assert isinstance(transcript, TranscriptEvent) and transcript.source is UtteranceSource.TYPED
    assert isinstance(thinking, ThinkingEvent) and (thinking.turn, thinking.interpreter) == (1, "offline")
    assert isinstance(applied, AppliedEvent) and (applied.applied, applied.failures) == (1, 0)
    assert isinstance(done, RunEnd) and (done.summary, done.applied, done.failures) == ("1 created", 1, 0)
    assert done.utterance_id == transcript.utterance_id and done.undo_id is not None
    assert events[0].timestamp <= events[-1].timestamp
    assert events[0].run_id and {e.run_id for e in events} == {events[0].run_id}  # one run, one ID
    assert murmur.window.activity.progress.item(1).text() == "1 created"


@pytest.mark.parametrize(
    ("error", "code", "line"),
    [
        (LlmError("the model server did not answer"), ErrorCode.LLM, "the model server did not answer"),
        (StoreError("the database is locked"), ErrorCode.STORE, "the database is locked"),
        (RuntimeError("oops"), ErrorCode.INTERNAL, "internal error: RuntimeError('oops')"),
    ],
)
def test_a_run_that_fails_reports_the_error_with_its_code_then_one_run_end(
    qtbot: QtBot, murmur: Murmur, error: Exception, code: ErrorCode, line: str
) -> None:
    murmur.service.interpreter = Failing(error)
    events = heard(qtbot, murmur, "buy milk")
    assert [type(e) for e in events] == [RunStart, TranscriptEvent, ThinkingEvent, ErrorEvent, RunEnd]
    _, transcript, _, failure, done = events
    assert isinstance(failure, ErrorEvent) and (failure.message, failure.code) == (line, code)
    assert isinstance(transcript, TranscriptEvent) and isinstance(done, RunEnd)
    assert (done.utterance_id, done.summary, done.undo_id, done.applied) == (transcript.utterance_id, line, None, 0)
    assert [u.id for u in murmur.service.inbox()] == [transcript.utterance_id]  # it waits there, whatever failed


def test_a_failed_run_offers_retry_of_its_utterance(qtbot: QtBot, murmur: Murmur) -> None:
    murmur.service.interpreter = Failing(LlmError("the model server did not answer"))
    [_, transcript, *_] = heard(qtbot, murmur, "buy milk")
    content = murmur.toast.content
    assert isinstance(transcript, TranscriptEvent) and content is not None and content.error
    assert content.retry_utterance_id == transcript.utterance_id and murmur.toast.retry_button.isVisible()
    assert "the model server did not answer" in content.message


def test_an_older_batch_is_undone_from_the_history_and_the_newer_one_stays(qtbot: QtBot, murmur: Murmur) -> None:
    for text in ("buy bread and call mom", "buy milk"):
        with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
            type_and_enter(qtbot, murmur, text)
    history = murmur.window.history.tree
    history.topLevelItem(1).setSelected(True)  # newest first: the bread and mom batch
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(murmur.window.history.undo_button, Qt.MouseButton.LeftButton)
    assert summaries(murmur) == ["Buy milk"]
    assert murmur.toast.title.text() == "Undone: removed “Call mom” and removed “Buy bread”"
    assert [history.topLevelItem(i).text(2) for i in range(2)] == ["", "undone"]
    assert [h.batch.undone_at is not None for h in murmur.service.history()] == [False, True]


@dataclass(frozen=True, eq=False)
class Hold:
    """A job that runs until `release` is set; `running` says it has started."""

    running: threading.Event
    release: threading.Event

    def run(self) -> bool:
        self.running.set()
        return self.release.wait(10)


def test_the_worker_reports_typed_outcomes_in_order() -> None:
    def refuse() -> None:
        raise LlmError("no key for the model server")

    outcomes: list[JobOutcome[object]] = []
    worker: PipelineWorker[object] = PipelineWorker(outcomes.append)
    answer, refused, bug = Call("answer", lambda: 42), Call("refused", refuse), Call("bug", lambda: 1 / 0)
    for job in (answer, refused, bug):
        worker.put(job)
    assert worker.close(timeout=5)
    assert outcomes[:2] == [Finished(answer, 42), Failed(refused, "no key for the model server")]
    match outcomes[2]:
        case Failed(job=failed, error=error):
            assert failed is bug and error.startswith("internal error: ZeroDivisionError")
        case _:
            pytest.fail(f"a bug must fail its job: {outcomes[2]}")


def test_waiting_counts_queued_jobs_by_their_class() -> None:
    running, release = threading.Event(), threading.Event()
    worker: PipelineWorker[object] = PipelineWorker(lambda _outcome: None)
    worker.put(Hold(running, release))
    assert running.wait(5)
    worker.put(Call("first", int))
    worker.put(Call("second", int))  # two alike are two jobs
    worker.put(Hold(threading.Event(), release))
    assert (worker.waiting(Call), worker.waiting(Hold)) == (2, 1)
    release.set()
    assert worker.close(timeout=5) and worker.waiting(Call) == 0


def test_refresh_is_queued_once_however_often_it_is_asked(qtbot: QtBot, murmur: Murmur) -> None:
    running, release = threading.Event(), threading.Event()
    murmur.worker.put(Hold(running, release))  # type: ignore[arg-type]  # a job whose outcome the app ignores
    assert running.wait(5)
    for _ in range(3):
        murmur.refresh()
    assert murmur.worker.waiting(jobs.RefreshJob) == 1
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        release.set()
