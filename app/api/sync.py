"""How a sync went and when the next one is due; setting one up is in app.api.sync_setup."""

from app.sync.account import NEEDS_CALDAV
from app.sync.backoff import Backoff
from app.sync.engine import SyncReport
from app.sync.status import SyncStatus

__all__ = ["Backoff", "NEEDS_CALDAV", "SyncReport", "SyncStatus"]
