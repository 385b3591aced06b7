"""When the desktop app syncs: every few minutes (to hear of changes made elsewhere), and a few seconds after a
change here (debounced, so a burst of edits is one sync). One sync at a time, off the GUI thread; a change made
while one runs is sent by the next. After a failure it waits longer each time (app.sync.backoff) until it works
again or the user asks. Quiet: the outcome is a line in the tray's tooltip and, while failing, the window's
problems bar; never a pop-up."""

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal

from app.api.service import MurmurService
from app.api.sync import Backoff, SyncReport, SyncStatus
from app.errors import MurmurError
from app.presentation.sync import status_words
from app.ui.background import run_in_thread
from app.ui.worker import Call, Finished, JobOutcome

log = logging.getLogger("murmur.ui.sync")

AFTER_CHANGE_MS = 5_000


@dataclass(frozen=True)
class Tried:
    report: SyncReport | None
    error: str | None  # why it failed (noted in the sync state by the service); None when it worked


def _try_sync(service: MurmurService) -> Tried:
    """One sync; a known failure is an outcome, logged by the timer once per kind rather than at each try."""
    try:
        return Tried(service.sync(), None)
    except MurmurError as error:
        return Tried(None, str(error))


class SyncTimer(QObject):
    synced = Signal(str)  # how sync stands, in words (for the tooltip)
    brought_changes = Signal()  # a sync changed entries here: the list reloads

    def __init__(
        self, service: MurmurService, interval_minutes: Callable[[], int], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.service = service
        self._interval_minutes = interval_minutes
        self._running: threading.Thread | None = None
        self._again = False
        self._periodic = QTimer(self)
        self._periodic.timeout.connect(self.sync_now)
        self._after_change = QTimer(self, singleShot=True, interval=AFTER_CHANGE_MS)
        self._after_change.timeout.connect(self._sync_if_queued)
        self._backoff = Backoff(cap_seconds=interval_minutes() * 60)
        self._retry = QTimer(self, singleShot=True)
        self._retry.timeout.connect(self.retry)

    @property
    def enabled(self) -> bool:
        return self.service.sync_source is not None

    @property
    def syncing(self) -> bool:
        return self._running is not None

    def start(self) -> None:
        """Sync once now and then every `interval_minutes`; nothing when sync is not set up."""
        self._periodic.stop()
        self._retry.stop()
        self._backoff = Backoff(cap_seconds=self._interval_minutes() * 60)
        if not self.enabled:
            return
        self._periodic.start(self._interval_minutes() * 60_000)
        self.sync_now()

    def retry(self) -> None:
        """Sync now, whatever the wait after a failure (the user asked, or the wait is over)."""
        self._backoff.not_before = 0.0
        self.sync_now()

    def changed(self) -> None:
        """Something may have changed here: sync in a few seconds, once however many changes come meanwhile."""
        if self.enabled:
            self._after_change.start()

    def _sync_if_queued(self) -> None:
        if self.service.sync_status().queued:
            self.sync_now()

    def sync_now(self) -> None:
        """Sync, unless sync is not set up or it failed a moment ago (then the retry after the wait does it)."""
        if not self.enabled or not self._backoff.ready(time.monotonic()):
            return
        if self._running is not None:
            self._again = True
            return
        self._running = run_in_thread(Call("sync", partial(_try_sync, self.service)), self, self._on_synced)

    def stop(self, timeout: float) -> bool:
        """No more syncs; the one under way is waited for (it writes in whole transactions, and what it has not
        sent stays queued for the next start). False when it was still going after `timeout`."""
        self._periodic.stop()
        self._after_change.stop()
        self._retry.stop()
        if self._running is None:
            return True
        self._running.join(timeout)
        return not self._running.is_alive()

    def _on_synced(self, outcome: JobOutcome[Tried]) -> None:
        self._running = None
        report = outcome.result.report if isinstance(outcome, Finished) else None
        if report is None:
            self._note_failure(outcome.result.error if isinstance(outcome, Finished) else None)
        else:
            self._backoff.succeeded()
            if report.pulled or report.undo_id is not None:
                self.brought_changes.emit()
        self.synced.emit(self.status_text())
        if self._again:
            self._again = False
            self._sync_if_queued()

    def _note_failure(self, error: str | None) -> None:
        """Said in the tooltip and the window; the outbox keeps every change. A bug (`error` None) was logged
        with its traceback by the worker."""
        said = error or "internal error"
        log.log(
            logging.WARNING if self._backoff.failed(said, time.monotonic()) else logging.INFO, "sync failed: %s", said
        )
        self._retry.start(int(self._backoff.wait_seconds() * 1000))

    def status(self) -> SyncStatus:
        return self.service.sync_status()

    def words(self) -> str:
        """How sync stands ("" while it is not set up)."""
        if not self.enabled:
            return ""
        clock = self.service.clock()
        return status_words(self.service.sync_status(), clock.now, clock.tz)

    def status_text(self) -> str:
        return f"Sync: {self.words()}" if self.enabled else ""
