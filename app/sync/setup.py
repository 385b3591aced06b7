"""Setting sync up: find the user's task lists on a server, and check that the configured one can be used."""

from app.config import SyncSettings
from app.sync.account import account_from, task_list_of
from app.sync.caldav_list import FoundList, connect, task_lists


def discover(settings: SyncSettings, password: str) -> list[FoundList]:
    """The calendars of the account (principal, then calendar-home-set); a SyncError in one line when the
    server cannot be reached or refuses the password."""
    client = connect(account_from(settings, password))
    try:
        return task_lists(client)
    finally:
        client.close()


def check_connection(settings: SyncSettings, password: str | None = None) -> str:
    """One line on what was found: the task list and its address (made now when it was missing)."""
    with task_list_of(settings, password) as tasks:
        return f"connected: the task list {settings.calendar!r} is at {tasks.url}"
