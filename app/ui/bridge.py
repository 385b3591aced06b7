"""The one QObject that turns plain-Python news (pipeline events, job outcomes, speech callbacks)
into Qt signals. Safe to call from any thread; what arrives before the UI attaches is kept and
replayed in order when it does."""

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.domain.events import PipelineEvent
from app.ui.jobs import JobResult
from app.ui.worker import JobOutcome


class PipelineBridge(QObject):
    progressed = Signal(object)  # a PipelineEvent of the running utterance
    job_finished = Signal(object)  # a JobOutcome from the worker thread
    partial_heard = Signal(str)  # the growing transcript while recording
    level_measured = Signal(float)  # microphone level in dBFS while recording
    transcribed = Signal(str)  # the final transcript of a recording
    speech_failed = Signal(str)  # one line: no microphone, no model, ...

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

    # Plain callbacks for the pipeline, the worker and the dictation (any thread).

    def post_event(self, event: PipelineEvent) -> None:
        self._emit("progressed", event)

    def post_outcome(self, outcome: JobOutcome[JobResult]) -> None:
        self._emit("job_finished", outcome)

    def post_partial(self, text: str) -> None:
        self._emit("partial_heard", text)

    def post_level(self, dbfs: float) -> None:
        self._emit("level_measured", dbfs)

    def post_transcript(self, text: str) -> None:
        self._emit("transcribed", text)

    def post_speech_error(self, message: str) -> None:
        self._emit("speech_failed", message)
