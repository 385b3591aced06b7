"""The pipeline's events: the error code a failure reports, and the one RunEnd even when a run is interrupted.
(How the app hears a run that succeeds or fails: tests/ui/test_runs.py.)"""

from dataclasses import dataclass

import pytest

from app.changes.interpretation import InterpretContext
from app.domain.actions import ParseResult
from app.domain.clock import Clock
from app.domain.enums import UtteranceSource
from app.domain.events import ErrorCode, PipelineEvent, RunEnd, RunStart, ThinkingEvent, TranscriptEvent, error_code
from app.errors import (
    AmbiguousIdError,
    AudioDeviceError,
    BudgetExceededError,
    ConfirmationNeeded,
    LlmError,
    ModelError,
    SchemaTooNewError,
    SecretStoreError,
    StoreError,
    UndoError,
    UsageError,
)
from app.run.conductor import Stages, drive
from app.run.run import Run
from app.service import MurmurService
from app.store import Store


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (UsageError("empty"), ErrorCode.USAGE),
        (AmbiguousIdError("3f"), ErrorCode.USAGE),
        (UndoError("nothing to undo"), ErrorCode.USAGE),
        (ConfirmationNeeded("too many changes"), ErrorCode.USAGE),
        (StoreError("locked"), ErrorCode.STORE),
        (SchemaTooNewError("newer"), ErrorCode.STORE),
        (LlmError("unreachable"), ErrorCode.LLM),
        (SecretStoreError("no keyring"), ErrorCode.LLM),
        (BudgetExceededError("spent"), ErrorCode.BUDGET),
        (AudioDeviceError("unplugged"), ErrorCode.SPEECH),
        (ModelError("missing"), ErrorCode.SPEECH),
        (KeyError("bug"), ErrorCode.INTERNAL),
    ],
)
def test_the_error_code_follows_the_kind_of_error(error: BaseException, code: ErrorCode) -> None:
    assert error_code(error) is code


@dataclass
class Interrupted:
    name: str = "interrupted"

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        raise KeyboardInterrupt


def test_an_interrupted_run_still_ends_with_one_run_end(store: Store, clock: Clock) -> None:
    events: list[PipelineEvent] = []
    service = MurmurService(store=store, interpreter=Interrupted(), clock=lambda: clock)
    with pytest.raises(KeyboardInterrupt):
        drive(Run(UtteranceSource.CLI, events.append, text="buy milk"), Stages(service))
    assert [type(e) for e in events] == [RunStart, TranscriptEvent, ThinkingEvent, RunEnd]
    done = events[-1]
    assert isinstance(done, RunEnd) and (done.summary, done.applied, done.undo_id) == ("interrupted", 0, None)
