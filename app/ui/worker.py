"""One worker thread runs every service call, one at a time, in the order asked: never two
pipelines writing at once, never a dropped utterance. Plain Python; outcomes go to a callback.

A job is any object with `run()`; what it returns is typed, and so is the outcome that carries it,
so whoever handles an outcome dispatches on the job's or the result's class, not on a name.
"""

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeAlias, TypeVar

from app.errors import MurmurError
from app.ui.remedies import window_line

log = logging.getLogger("murmur.ui.worker")

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Job(Protocol[T_co]):
    """Work for a thread other than the GUI's; `run()` may raise MurmurError (a one-line failure)."""

    def run(self) -> T_co: ...


@dataclass(frozen=True)
class Call(Generic[T]):
    """A job that is one function call (listing microphones, a download); `name` is for the log."""

    name: str
    fn: Callable[[], T]

    def run(self) -> T:
        return self.fn()


@dataclass(frozen=True)
class Finished(Generic[T]):
    job: Job[T]
    result: T


@dataclass(frozen=True)
class Failed:
    job: Job[object]
    error: str  # one line fit for the user


JobOutcome: TypeAlias = Finished[T] | Failed


class PipelineWorker(Generic[T]):
    """Runs `Job[T]`s one after another; each outcome goes to `on_outcome`, on the worker's thread."""

    def __init__(self, on_outcome: Callable[[JobOutcome[T]], None]) -> None:
        self._on_outcome = on_outcome
        self._jobs: queue.Queue[Job[T] | None] = queue.Queue()
        self._waiting: list[Job[T]] = []  # the jobs not started yet
        self._submitted = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="murmur-pipeline", daemon=True)
        self._thread.start()

    def put(self, job: Job[T]) -> None:
        with self._lock:
            self._waiting.append(job)
            self._submitted += 1
        self._jobs.put(job)

    @property
    def submitted(self) -> int:
        """How many jobs were ever put: with a count of outcomes handled, says whether any is still unfinished."""
        with self._lock:
            return self._submitted

    def waiting(self, kind: type[object]) -> int:
        """How many jobs of class `kind` are queued and not started yet."""
        with self._lock:
            return sum(isinstance(job, kind) for job in self._waiting)

    def close(self, timeout: float) -> bool:
        """Run what is queued, then stop; False if the last job was still running after `timeout`."""
        self._jobs.put(None)
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _loop(self) -> None:
        while (job := self._jobs.get()) is not None:
            with self._lock:  # by identity: two jobs alike are still two jobs
                del self._waiting[next(i for i, waiting in enumerate(self._waiting) if waiting is job)]
            self._on_outcome(run_job(job))


def job_name(job: Job[object]) -> str:
    return job.name if isinstance(job, Call) else type(job).__name__


def run_job(job: Job[T]) -> JobOutcome[T]:
    try:
        return Finished(job, job.run())
    except MurmurError as error:
        log.warning("%s failed: %s", job_name(job), error)
        return Failed(job, window_line(error))
    except Exception as error:  # a bug: never a traceback dialog, the details go to the log
        log.exception("%s failed unexpectedly", job_name(job))
        return Failed(job, f"internal error: {error!r} (this is a bug; details in the log)")
