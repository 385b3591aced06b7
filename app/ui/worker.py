"""One worker thread runs every service call, one at a time, in the order asked: never two
pipelines writing at once, never a dropped utterance. Plain Python; results go to a callback."""

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.errors import MurmurError

log = logging.getLogger("murmur.ui.worker")


@dataclass(frozen=True)
class Job:
    name: str  # what it does, for the log and for the slot that handles its outcome
    run: Callable[[], Any]


@dataclass(frozen=True)
class JobOutcome:
    job: Job
    result: Any = None
    error: str | None = None  # one line fit for the user; None when the job succeeded


class PipelineWorker:
    def __init__(self, on_outcome: Callable[[JobOutcome], None]) -> None:
        self._on_outcome = on_outcome
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._waiting: list[str] = []  # names of the jobs not started yet
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="murmur-pipeline", daemon=True)
        self._thread.start()

    def put(self, job: Job) -> None:
        with self._lock:
            self._waiting.append(job.name)
        self._jobs.put(job)

    def waiting(self, name: str) -> int:
        """How many jobs called `name` are queued and not started yet."""
        with self._lock:
            return self._waiting.count(name)

    def close(self, timeout: float) -> bool:
        """Run what is queued, then stop; False if the last job was still running after `timeout`."""
        self._jobs.put(None)
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _loop(self) -> None:
        while (job := self._jobs.get()) is not None:
            with self._lock:
                self._waiting.remove(job.name)
            self._on_outcome(run_job(job))


def run_job(job: Job) -> JobOutcome:
    try:
        return JobOutcome(job, result=job.run())
    except MurmurError as error:
        log.warning("%s failed: %s", job.name, error)
        return JobOutcome(job, error=str(error))
    except Exception as error:  # a bug: never a traceback dialog, the details go to the log
        log.exception("%s failed unexpectedly", job.name)
        return JobOutcome(job, error=f"internal error: {error!r} (this is a bug; details in the log)")
