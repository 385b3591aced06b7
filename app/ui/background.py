"""Short blocking calls (listing microphones, testing a connection, downloading a model) on threads
of their own, beside the pipeline worker; the outcome comes back on the GUI thread."""

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from PySide6.QtCore import QObject, Signal

from app.ui.worker import Job, JobOutcome, job_name, run_job

log = logging.getLogger("murmur.ui.background")

T = TypeVar("T")


class _Relay(QObject):
    arrived = Signal(object)  # the JobOutcome, emitted on the call's thread


def run_in_thread(job: Job[T], owner: QObject, on_outcome: Callable[[JobOutcome[T]], None]) -> threading.Thread:
    """Run `job`; `on_outcome` gets its JobOutcome on the GUI thread. The thread is returned, to wait for.

    The thread holds only a relay that `owner` owns, never a window: the last reference to a
    window must not drop on another thread (Qt objects die on their own thread). A window closed
    meanwhile takes the relay with it, and the outcome is dropped.
    """
    relay = _Relay(owner)
    relay.arrived.connect(on_outcome)
    relay.arrived.connect(relay.deleteLater)

    def run() -> None:
        outcome = run_job(job)
        try:
            relay.arrived.emit(outcome)
        except RuntimeError:  # the owner, and so the relay, was deleted
            log.info("%s finished after its window was gone", job_name(job))

    thread = threading.Thread(target=run, name=f"murmur-{job_name(job)}", daemon=True)
    thread.start()
    return thread


def join_all(threads: Iterable[threading.Thread], timeout: float) -> bool:
    """Wait for `threads` to end, `timeout` seconds in all; False if one was still running after it."""
    threads = list(threads)
    deadline = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(thread.is_alive() for thread in threads)
