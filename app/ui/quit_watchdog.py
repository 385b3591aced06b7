"""The last resort of Quit: the process never outlives its window.

Quit stops the app's parts one after the other, each with a bounded wait (app/ui/application.py). The watchdog
follows along on a thread of its own: each step says what it is and how long it may take. A step that overruns
its time and a grace is taken as hung: the watchdog logs which step it was and where every thread stood, closes
the database (bounded too), flushes the log and ends the process with os._exit. The last step, the process's own
exit (Qt's teardown, the interpreter's, native libraries' at exit), is also guarded by an alarm the kernel
delivers, for the stretch where no Python thread runs any more; and where that teardown is known to fail (a thread
still inside a speech engine), the process leaves without it (`end_now`).
"""

import logging
import math
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger("murmur.ui.quit")

GRACE_SECONDS = 3.0  # past a step's own bound, before it counts as hung
CLOSE_SECONDS = 1.0  # for closing the database once a step hung: it may be what hangs
FORCED_EXIT = 0  # the user asked to quit and the process did; the log says what had to be cut short


@dataclass(frozen=True)
class _Step:
    name: str
    deadline: float  # time.monotonic()


class QuitWatchdog:
    """Made with the app; Quit's `step()`s name each stage and its bound (the first starts the watching).
    `close_database` runs once a step hung."""

    def __init__(self, close_database: Callable[[], None], grace: float = GRACE_SECONDS) -> None:
        self._close_database = close_database
        self._grace = grace
        self._step: _Step | None = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._watch, name="murmur-quit-watchdog", daemon=True)

    def step(self, name: str, seconds: float) -> None:
        """From now on the process is `name`, which may take `seconds` (and the grace)."""
        if self._thread.ident is None:  # watching from the quit's first step on
            self._thread.start()
        with self._changed:
            self._step = _Step(name, time.monotonic() + seconds + self._grace)
            self._changed.notify()

    def last_step(self, name: str, seconds: float) -> None:
        """The process's own exit: as `step`, and an alarm that ends the process even once Python has stopped
        running threads (the interpreter's finalisation, destructors in native libraries)."""
        log.info("quit: %s", name)
        self.step(name, seconds)
        _flush_log()
        if hasattr(signal, "alarm"):  # not on Windows: there the watchdog's thread is the only guard
            signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the kernel's default: end the process
            signal.alarm(math.ceil(seconds + self._grace + CLOSE_SECONDS + 1))

    def end_now(self, why: str, code: int) -> None:
        """End the process at once with `code`, skipping the interpreter's teardown, for when that is known to
        fail (as `why` says); the database closed and the log flushed first, as when a step hangs."""
        log.warning("quit: %s", why)
        self._exit(code)

    def _watch(self) -> None:
        with self._changed:
            while (step := self._step) is None or step.deadline > time.monotonic():
                self._changed.wait(None if step is None else step.deadline - time.monotonic())
        self._end(step)

    def _end(self, step: _Step) -> None:
        log.error("quit: %s did not end in time; ending the process. Threads still running:\n%s", step.name, _threads())
        self._exit(FORCED_EXIT)

    def _exit(self, code: int) -> None:
        closing = threading.Thread(target=self._close_quietly, name="murmur-quit-close", daemon=True)
        closing.start()
        closing.join(CLOSE_SECONDS)
        if closing.is_alive():
            log.error("quit: the database did not close in %.0f s; SQLite's journal keeps it whole", CLOSE_SECONDS)
        _flush_log()
        os._exit(code)

    def _close_quietly(self) -> None:
        try:
            self._close_database()
        except Exception:
            log.exception("quit: the database could not be closed")


def _threads() -> str:
    """Every other thread by name, with where it stands (the innermost frames)."""
    frames = sys._current_frames()
    lines = []
    for thread in threading.enumerate():
        if thread is threading.current_thread() or thread.ident not in frames:
            continue
        where = "".join(traceback.format_stack(frames[thread.ident], limit=4)).rstrip()
        lines.append(f"- {thread.name} (daemon={thread.daemon}):\n{where}")
    return "\n".join(lines) or "- none"


def _flush_log() -> None:
    for handler in logging.getLogger("murmur").handlers:
        handler.flush()
