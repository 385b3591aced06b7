"""Setting sync up: find the user's task lists on a server, and try the account as the user filled it in."""

from dataclasses import dataclass

from app.config import SyncSettings
from app.sync.account import account_from
from app.sync.caldav_list import FoundList, connect, open_task_list, task_lists


def discover(settings: SyncSettings, password: str) -> list[FoundList]:
    """The calendars of the account (principal, then calendar-home-set); a SyncError in one line when the
    server cannot be reached or refuses the password."""
    client = connect(account_from(settings, password))
    try:
        return task_lists(client)
    finally:
        client.close()


@dataclass(frozen=True)
class Tried:
    line: str  # what was found, in one line
    task_lists: list[str]  # the names of the account's lists that take tasks, to pick from


def try_account(settings: SyncSettings, password: str | None = None) -> Tried:
    """Reach the server, find the task list (made now when it was missing) and the others there are."""
    client = connect(account_from(settings, password))
    try:
        chosen = open_task_list(client, settings.calendar)
        names = [found.name for found in task_lists(client) if found.tasks]
        return Tried(f"connected: the task list {settings.calendar!r} is at {chosen.url}", names)
    finally:
        client.close()
