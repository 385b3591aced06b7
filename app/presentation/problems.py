"""The failures that need the user, each kept until it is resolved: what the window's problems bar lists.

Plain Python, fed by what the app already hears: the sync's status after each try, a run's events (a model or a
microphone that failed) and its outcome (the rules standing in for the model), an import's outcome. A problem
goes away by itself when the thing works again (a sync succeeds, the model does the work, the microphone hears);
dismissed, it stays hidden until a different failure of its kind comes.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from zoneinfo import ZoneInfo

from app.domain.events import (
    ErrorCode,
    ErrorEvent,
    FinalTranscript,
    PartialTranscript,
    PipelineEvent,
    Stage,
)
from app.errors import Remedy, Setting
from app.presentation.imports import skipped_lines
from app.presentation.sync import SyncStanding, failing_words

OFFLINE = "offline"  # the built-in rules' name as a run's outcome gives it: any other interpreter is a model
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

    def ran(self, interpreter: str, fallback_reason: str | None, fallback_remedy: Remedy | None) -> None:
        """A run's outcome: the model failed and the rules stood in, or the model did the work."""
        if fallback_reason:
            message = f"The language model failed, so the built-in rules filed what you said: {fallback_reason}"
            self.add(Problem(Trouble.MODEL, message, fallback_remedy or CHECK_MODEL))
        elif interpreter and interpreter != OFFLINE:
            self.resolve(Trouble.MODEL)

    def heard(self, event: PipelineEvent) -> None:
        """A run's news: a model that failed the run (no fallback), a microphone failing or hearing again."""
        match event:
            case ErrorEvent(code=ErrorCode.LLM):
                self.add(Problem(Trouble.MODEL, event.message, event.remedy or CHECK_MODEL))
            case ErrorEvent(code=ErrorCode.SPEECH, stage=Stage.LISTEN):
                self.add(Problem(Trouble.MICROPHONE, event.message, event.remedy or CHECK_MICROPHONE))
            case PartialTranscript() | FinalTranscript():
                self.resolve(Trouble.MICROPHONE)  # it heard something: it works
