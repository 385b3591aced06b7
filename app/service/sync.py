"""Two-way sync with the user's CalDAV server; the sync's code (and icalendar with it) loads when it is first used."""

from typing import TYPE_CHECKING

from app.errors import MurmurError, UsageError
from app.service.core import ServiceCore
from app.store.models import SyncState

if TYPE_CHECKING:
    from app.sync.engine import SyncReport
    from app.sync.remote import KnownList
    from app.sync.status import SyncStatus

SYNC_WAIT_SECONDS = 10.0  # a sync started while another runs waits this long for it, then says so


class SyncArea(ServiceCore):
    """The sync of this database, one at a time, and how the last one went."""

    def sync(self, wait_seconds: float = SYNC_WAIT_SECONDS, *, confirmed: bool = False) -> "SyncReport":
        """Pull what changed on the sync server and merge it in (one undo batch), then send what changed here;
        more entries deleted on the server at once than the cap are archived here only when `confirmed`.
        One sync of a database at a time: waits up to `wait_seconds` for one under way, else SyncBusy. Any
        other failure is noted with its time for the tray and `murmur sync status`, then raised."""
        from app.sync.account import CHECK_ACCOUNT, NOT_SET_UP, SET_UP
        from app.sync.engine import Sync, note_outcome
        from app.sync.lock import one_sync_at_a_time

        if self.sync_source is None:
            raise UsageError(NOT_SET_UP, SET_UP)
        clock = self.clock()
        with one_sync_at_a_time(self.store.path, wait_seconds):
            try:
                with self.sync_source(known=self._known_list()) as tasks:
                    return Sync(self.store, tasks, clock.tz, clock.now, confirmed=confirmed).run()
            except MurmurError as error:  # the server, the network, the password: the user's to mend
                note_outcome(self.store, str(error), clock.now, remedy=error.remedy or CHECK_ACCOUNT)
                raise
            except Exception as error:
                note_outcome(self.store, f"internal error ({type(error).__name__}); details in the log", clock.now)
                raise

    def _known_list(self) -> "KnownList | None":
        from app.sync.remote import KnownList

        with self.store.read() as session:
            state = session.get(SyncState, 1)
            return KnownList(state.calendar_url, state.calendar_name) if state and state.calendar_url else None

    def sync_status(self) -> "SyncStatus":
        from app.sync.status import sync_status

        with self.store.read() as session:
            return sync_status(session)
