"""When the desktop app syncs: every few minutes (to hear of changes made elsewhere), and a few seconds after a
change here (debounced, so a burst of edits is one sync). One sync at a time, off the GUI thread; a change made
while one runs is sent by the next. Quiet: the outcome is a line in the tray's tooltip, never a pop-up."""

import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from app.service import MurmurService
from app.sync.engine import SyncReport
from app.ui.background import run_in_thread
from app.ui.settings.sync_page import status_words
from app.ui.worker import Call, Failed, Finished, JobOutcome

log = logging.getLogger("murmur.ui.sync")

AFTER_CHANGE_MS = 5_000


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

    @property
    def enabled(self) -> bool:
        return self.service.sync_source is not None

    def start(self) -> None:
        """Sync once now and then every `interval_minutes`; nothing when sync is not set up."""
        self._periodic.stop()
        if not self.enabled:
            return
        self._periodic.start(self._interval_minutes() * 60_000)
        self.sync_now()

    def changed(self) -> None:
        """Something may have changed here: sync in a few seconds, once however many changes come meanwhile."""
        if self.enabled:
            self._after_change.start()

    def _sync_if_queued(self) -> None:
        if self.service.sync_status().queued:
            self.sync_now()

    def sync_now(self) -> None:
        if not self.enabled:
            return
        if self._running is not None:
            self._again = True
            return
        self._running = run_in_thread(Call("sync", self.service.sync), self, self._on_synced)

    def stop(self, timeout: float) -> bool:
        """No more syncs; the one under way is waited for (it writes in whole transactions, and what it has not
        sent stays queued for the next start). False when it was still going after `timeout`."""
        self._periodic.stop()
        self._after_change.stop()
        if self._running is None:
            return True
        self._running.join(timeout)
        return not self._running.is_alive()

    def _on_synced(self, outcome: JobOutcome[SyncReport]) -> None:
        self._running = None
        if isinstance(outcome, Failed):
            log.info("sync failed: %s", outcome.error)  # said in the tooltip; the outbox keeps every change
        elif isinstance(outcome, Finished) and (outcome.result.pulled or outcome.result.undo_id is not None):
            self.brought_changes.emit()
        self.synced.emit(self.status_text())
        if self._again:
            self._again = False
            self._sync_if_queued()

    def words(self) -> str:
        """How sync stands ("" while it is not set up)."""
        clock = self.service.clock()
        return status_words(self.service.sync_status(), clock.now, clock.tz) if self.enabled else ""

    def status_text(self) -> str:
        return f"Sync: {self.words()}" if self.enabled else ""
