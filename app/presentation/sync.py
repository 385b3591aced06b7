"""How sync stands, in words: the tray's tooltip line, the Sync page's status and the window's problems bar."""

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from app.errors import Remedy
from app.presentation.times import in_sentence, time_of_day


class SyncStanding(Protocol):
    """What these words read of app.sync.status.SyncStatus (a layer above: named here by its fields)."""

    @property
    def last_sync_at(self) -> datetime | None: ...
    @property
    def queued(self) -> int: ...
    @property
    def last_error(self) -> str | None: ...
    @property
    def last_error_at(self) -> datetime | None: ...
    @property
    def skipped(self) -> Sequence[str]: ...
    @property
    def failing_since(self) -> datetime | None: ...
    @property
    def remedy(self) -> Remedy | None: ...


def failing_words(status: SyncStanding, now: datetime, tz: ZoneInfo) -> str:
    """'failing since 17:02 — no password for the sync server' ('' while sync does not fail)."""
    if not status.last_error:
        return ""
    since = status.failing_since or status.last_error_at
    return f"failing since {_since(since, now, tz)} — {status.last_error}" if since else status.last_error


def status_words(status: SyncStanding, now: datetime, tz: ZoneInfo) -> str:
    """'failing since 17:02 — ... · Last sync Thu 26 Nov 14:02 · 3 changes waiting · 1 task skipped: ...'."""
    if status.last_sync_at is None and status.last_error is None:
        return "Not synced yet"
    parts = [failing_words(status, now, tz)] if status.last_error else []
    parts.append(f"Last sync {in_sentence(status.last_sync_at, now, tz)}" if status.last_sync_at else "Never synced")
    if status.queued:
        parts.append(f"{status.queued} change{'s' if status.queued != 1 else ''} waiting")
    if status.skipped:
        count = len(status.skipped)
        parts.append(f"{count} task{'s' if count != 1 else ''} skipped: {status.skipped[0]}")
    return " · ".join(parts)


def _since(moment: datetime, now: datetime, tz: ZoneInfo) -> str:
    """'17:02' today (the usual case: a failure is noticed the day it starts), else 'Wed 25 Nov 17:02'."""
    local = moment.astimezone(tz)
    return time_of_day(local) if local.date() == now.astimezone(tz).date() else in_sentence(moment, now, tz)
