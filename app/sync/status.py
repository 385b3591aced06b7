"""Where sync stands, for the tray's tooltip, the settings page and `murmur sync status`: read only."""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, select

from app.errors import Remedy
from app.store.models import SyncOutboxRow, SyncState
from app.sync.remedy_record import remedy_from_json


@dataclass(frozen=True)
class SyncStatus:
    calendar_url: str | None  # None: never synced
    last_sync_at: datetime | None
    queued: int  # changes waiting to be sent
    last_error: str | None  # how the last sync failed; None when it did not
    last_error_at: datetime | None = None
    skipped: tuple[str, ...] = ()  # what the last whole sync left aside, one line each
    failing_since: datetime | None = None  # the first of the failures since the last success
    remedy: Remedy | None = None  # what to do about `last_error`


def sync_status(session: Session) -> SyncStatus:
    state = session.get(SyncState, 1)
    queued = int(session.exec(select(func.count()).select_from(SyncOutboxRow)).one())
    if state is None:
        return SyncStatus(None, None, queued, None)
    return SyncStatus(
        state.calendar_url or None,
        state.last_sync_at,
        queued,
        state.last_error,
        state.last_error_at,
        tuple(line for line in state.skipped.splitlines() if line),
        state.failing_since if state.last_error else None,
        remedy_from_json(state.last_error_remedy) if state.last_error else None,
    )
