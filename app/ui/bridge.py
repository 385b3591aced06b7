"""The one QObject that turns plain-Python news (a run's events, from the microphone to the spoken reply; job
outcomes; the microphone's level) into Qt signals. Safe to call from any thread; what arrives before the UI
attaches is kept and replayed in order when it does."""

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.domain.events import PipelineEvent
from app.ui.jobs import JobResult
from app.ui.worker import JobOutcome


class PipelineBridge(QObject):
    progressed = Signal(object)  # a PipelineEvent of a run: speech in, the pipeline, speech out
    job_finished = Signal(object)  # a JobOutcome from the worker thread
    level_measured = Signal(float)  # microphone level in dBFS while recording

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.RLock()
        self._held: list[tuple[str, tuple[Any, ...]]] | None = []

    def attach(self) -> None:
        """The UI is connected: replay what was held, then emit as things arrive."""
        with self._lock:
            held, self._held = self._held or [], None
            for name, args in held:
                getattr(self, name).emit(*args)

    def _emit(self, name: str, *args: Any) -> None:
        with self._lock:
            if self._held is not None:
                self._held.append((name, args))
            else:
                getattr(self, name).emit(*args)

    # Plain callbacks for the runs, the worker and the dictation (any thread).

    def post_event(self, event: PipelineEvent) -> None:
        self._emit("progressed", event)

    def post_outcome(self, outcome: JobOutcome[JobResult]) -> None:
        self._emit("job_finished", outcome)

    def post_level(self, dbfs: float) -> None:
        self._emit("level_measured", dbfs)
