"""One run as its events tell it: the ID every event carries, the stage it has reached, its start and its end."""

from dataclasses import replace

from app.domain.enums import UtteranceSource
from app.domain.events import ErrorCode, ErrorEvent, EventCallback, PipelineEvent, RunEnd, RunStart, Stage, new_run_id
from app.errors import Remedy


class Run:
    """Reports one run's events to `on_event`, each stamped with the run's ID; `started`: the run's start was
    reported already (by whoever began it: the microphone at the key press), so `start()` adds nothing."""

    def __init__(self, on_event: EventCallback, run_id: str | None = None, started: bool = False) -> None:
        self.id = run_id or new_run_id()
        self.stage = Stage.INTERPRET  # where typed text starts
        self._on_event = on_event
        self._started = started

    def report(self, event: PipelineEvent) -> None:
        self.stage = event.stage
        self._on_event(replace(event, run_id=self.id))

    def start(self, source: UtteranceSource, stage: Stage = Stage.INTERPRET) -> None:
        """Open the run, once."""
        if not self._started:
            self._started = True
            self.report(RunStart(source, stage=stage))

    def fail(self, message: str, code: ErrorCode, stage: Stage | None = None, remedy: Remedy | None = None) -> None:
        """The run failed in `stage` (by default the one it is in)."""
        self.report(ErrorEvent(message, code, remedy=remedy, stage=stage or self.stage))

    def end(self, summary: str, utterance_id: int | None = None, undo_id: int | None = None) -> None:
        """Close a run that changed nothing: `utterance_id` None when nothing was saved either (nothing heard,
        the recording cancelled or failed)."""
        self.report(RunEnd(utterance_id, summary, undo_id, applied=0, failures=0, stage=self.stage))
