"""Due reminders: at an entry's due time, `due` fires (the tray shows a notification); when a
snooze ends, `snooze_ended` fires (the list refreshes and shows the entry active; the next write saves that)."""

from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from PySide6.QtCore import QObject, QTimer, Signal

from app.api.rows import Entry
from app.domain.enums import Status

MAX_WAIT_MS = 15 * 60 * 1000  # wake up now and then anyway: the clock may jump (suspend, DST)


def utc_now() -> datetime:
    return datetime.now(UTC)


class ReminderScheduler(QObject):
    due = Signal(str, str)  # entry ID, summary
    snooze_ended = Signal()

    def __init__(self, now: Callable[[], datetime] = utc_now, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self._since = now()  # what fell due before the app started is shown as overdue, not announced
        self._announced: set[tuple[str, datetime]] = set()
        self._entries: list[Entry] = []
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self._on_timer_timeout)

    def schedule(self, entries: Iterable[Entry]) -> None:
        """Watch these entries (the latest list) from now on."""
        self._entries = [e for e in entries if e.status in (Status.ACTIVE, Status.SNOOZED)]
        self._check()

    def _moments(self) -> list[datetime]:
        moments = [e.due_at for e in self._entries if e.due_at and e.status is Status.ACTIVE]
        return moments + [e.snooze_until for e in self._entries if e.snooze_until and e.status is Status.SNOOZED]

    def _check(self) -> None:
        now = self._now()
        woke = False
        for entry in self._entries:
            if entry.status is Status.SNOOZED and entry.snooze_until and entry.snooze_until <= now:
                woke = True
            elif entry.status is Status.ACTIVE and entry.due_at and self._since < entry.due_at <= now:
                key = (entry.id, entry.due_at)
                if key not in self._announced:
                    self._announced.add(key)
                    self.due.emit(entry.id, entry.summary)
        upcoming = [m for m in self._moments() if m > now]
        wait_ms = min([MAX_WAIT_MS] + [int((m - now).total_seconds() * 1000) + 1 for m in upcoming])
        self._timer.start(max(wait_ms, 0))
        if woke:
            self.snooze_ended.emit()

    def _on_timer_timeout(self) -> None:
        self._check()
