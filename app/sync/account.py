"""The sync account from the settings and the keyring: the task list to sync with, opened for one sync."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from app.config import SyncSettings
from app.errors import Setting, UsageError, command
from app.secrets import SYNC_PASSWORD, sync_password
from app.sync.remote import KnownList, TaskList

if TYPE_CHECKING:
    from app.sync.caldav_list import Account

NOT_SET_UP = "sync is not set up"
SET_UP = command(
    "sync", "setup", instead=Setting("sync.url"), phrase="run {} (or set sync.url and sync.username)", joint=": "
)
TYPE_PASSWORD = command(
    "sync", "setup", instead=Setting("sync.password"), phrase=f"run {{}}, or set {SYNC_PASSWORD.env}", joint=": "
)
# What to do about a failure that names no remedy of its own (the server refused, or cannot be reached).
CHECK_ACCOUNT = command("sync", "setup", instead=Setting("sync.url"), phrase="check the account with {}")
# The CalDAV client is an extra ([sync]): the base install stays lean.
NEEDS_CALDAV = "sync needs the caldav library: pipx inject murmur-desktop caldav (or install murmur-desktop[sync])"


def account_from(settings: SyncSettings, password: str | None = None) -> "Account":
    if not settings.url:
        raise UsageError(NOT_SET_UP, SET_UP)
    password = password or sync_password()
    if not password:
        raise UsageError("no password for the sync server", TYPE_PASSWORD)
    from app.sync.caldav_list import Account

    return Account(
        url=settings.url,
        username=settings.username,
        password=password,
        ca_file=settings.ca_file,
        max_answer_bytes=settings.max_answer_mb * 1_000_000,
    )


@contextmanager
def task_list_of(
    settings: SyncSettings, password: str | None = None, *, known: KnownList | None = None
) -> Iterator[TaskList]:
    """The configured task list (made on the server when missing), its connection closed afterwards."""
    try:
        from app.sync.caldav_list import connect, open_task_list
    except ModuleNotFoundError:
        raise UsageError(NEEDS_CALDAV) from None

    client = connect(account_from(settings, password))
    try:
        yield open_task_list(client, settings.calendar, known=known)
    finally:
        client.close()
