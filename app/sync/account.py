"""The sync account from the settings and the keyring: the task list to sync with, opened for one sync."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from app.config import SyncSettings
from app.errors import UsageError
from app.secrets import SYNC_PASSWORD, sync_password
from app.sync.remote import KnownList, TaskList

if TYPE_CHECKING:
    from app.sync.caldav_list import Account

NOT_SET_UP = "sync is not set up: run `murmur sync setup` (or set sync.url and sync.username)"
# The CalDAV client is an extra ([sync]): the base install stays lean.
NEEDS_CALDAV = "sync needs the caldav library: pipx inject murmur-desktop caldav (or install murmur-desktop[sync])"


def account_from(settings: SyncSettings, password: str | None = None) -> "Account":
    if not settings.url:
        raise UsageError(NOT_SET_UP)
    password = password or sync_password()
    if not password:
        raise UsageError(f"no password for the sync server: run `murmur sync setup`, or set {SYNC_PASSWORD.env}")
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
