"""The failures that need the user, each kept until it is resolved: what the window's problems bar lists.

Plain Python, fed by what the app already hears: the sync's status after each try, a run's events (a model
that failed or did not answer, a microphone that failed), an import's outcome. A problem goes away by itself
when the thing works again (a sync succeeds, the model answers, the microphone hears); dismissed, it stays
hidden until a different failure of its kind comes.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from zoneinfo import ZoneInfo

from app.domain.events import (
    ErrorCode,
    ErrorEvent,
    FinalTranscript,
    MessageEvent,
    PartialTranscript,
    PipelineEvent,
    RunEnd,
    Stage,
    ThinkingEvent,
    ToolCallEvent,
)
from app.errors import Remedy, Setting
from app.presentation.imports import skipped_lines
from app.presentation.sync import SyncStanding, failing_words

OFFLINE = "offline"  # the built-in rules' name in a run's events: any other interpreter is a model
MODEL_STOOD_IN = "The language model failed; the built-in rules filed what you said"
CHECK_MODEL = Setting("llm.base_url")
CHECK_MICROPHONE = Setting("speech.device")
CHECK_SYNC = Setting("sync.url")


class Trouble(StrEnum):
    """What failed, in the order the bar lists them."""

    SYNC = "sync"
    MODEL = "model"
    MICROPHONE = "microphone"
    IMPORT = "import"


@dataclass(frozen=True)
class Problem:
    kind: Trouble
    message: str  # one line: what is wrong
    remedy: Remedy | None  # what to do, for the window to say and to open the setting's page
    retry: bool = False  # the bar offers to try again now


class Problems:
    def __init__(self) -> None:
        self._open: dict[Trouble, Problem] = {}
        self._dismissed: dict[Trouble, Problem] = {}
        self._interpreters: dict[str, str] = {}  # by run: the interpreter that reads it now

    def shown(self) -> list[Problem]:
        """The problems open and not dismissed, in the order of `Trouble`."""
        return [self._open[kind] for kind in Trouble if kind in self._open and kind not in self._dismissed]

    def add(self, problem: Problem) -> None:
        self._open[problem.kind] = problem
        if self._dismissed.get(problem.kind) not in (None, problem):
            del self._dismissed[problem.kind]  # a different failure: shown again

    def resolve(self, kind: Trouble) -> None:
        self._open.pop(kind, None)
        self._dismissed.pop(kind, None)

    def dismiss(self, kind: Trouble) -> None:
        if kind in self._open:
            self._dismissed[kind] = self._open[kind]

    def sync_stands(self, status: SyncStanding | None, now: datetime, tz: ZoneInfo) -> None:
        """After each sync (None: sync is not set up): failing, or not."""
        if status is None or not status.last_error:
            self.resolve(Trouble.SYNC)
            return
        self.add(
            Problem(Trouble.SYNC, f"Sync is {failing_words(status, now, tz)}", status.remedy or CHECK_SYNC, retry=True)
        )

    def imported(self, file_name: str, lines: list[int]) -> None:
        """An import's outcome: the lines it skipped are said until the next import."""
        if not lines:
            self.resolve(Trouble.IMPORT)
            return
        self.add(Problem(Trouble.IMPORT, f"Importing {file_name}: {skipped_lines(lines)}", None))

    def heard(self, event: PipelineEvent) -> None:
        """A run's news: a model or a microphone failing, or working again."""
        match event:
            case ErrorEvent(code=ErrorCode.LLM):
                self.add(Problem(Trouble.MODEL, event.message, event.remedy or CHECK_MODEL))
            case ErrorEvent(code=ErrorCode.SPEECH, stage=Stage.LISTEN):
                self.add(Problem(Trouble.MICROPHONE, event.message, event.remedy or CHECK_MICROPHONE))
            case PartialTranscript() | FinalTranscript():
                self.resolve(Trouble.MICROPHONE)  # it heard something: it works
            case ThinkingEvent(interpreter=name):
                if self._interpreters.get(event.run_id, OFFLINE) != OFFLINE and name == OFFLINE:
                    self.add(Problem(Trouble.MODEL, MODEL_STOOD_IN, CHECK_MODEL))  # the rules took over the run
                self._interpreters[event.run_id] = name
            case MessageEvent() | ToolCallEvent():
                if self._interpreters.get(event.run_id, OFFLINE) != OFFLINE:
                    self.resolve(Trouble.MODEL)  # the model answered
            case RunEnd():
                self._interpreters.pop(event.run_id, None)
