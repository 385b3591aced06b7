"""What the sync needs of a server's task list, in its own terms (the CalDAV client is one way to have it)."""

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Protocol

from app.errors import MurmurError


class SyncError(MurmurError):
    """The sync server cannot be used: unreachable, refused the password, no such task list, a bad answer."""


class ObjectRefused(SyncError):
    """The server would not take or give one object (it answered that request alone with an error, or the
    object is too big to read): that one is left aside and named, the rest sync."""


class ChangedOnServer(SyncError):
    """The object changed on the server since it was read (412): merged at the next pull, never overwritten."""


@dataclass(frozen=True)
class KnownList:
    """The task list the last sync used: the name it was asked for by, and where it was."""

    url: str
    name: str


@dataclass(frozen=True)
class RemoteObject:
    href: str
    etag: str | None
    text: str  # the calendar object, as iCalendar text


@dataclass(frozen=True)
class RemoteChanges:
    """What changed on the server since `token` was given (everything, the first time)."""

    changed: list[tuple[str, str | None]]  # href and ETag of each object new or changed
    deleted: list[str]  # hrefs
    token: str | None  # to give next time; None where the server keeps no sync tokens
    complete: bool = False  # the whole list was read: anything known and not in it is gone
    problems: list[str] = field(default_factory=list)


class TaskList(Protocol):
    @property
    def url(self) -> str: ...

    @property
    def name(self) -> str:
        """The name the user asked for it by (the server's display name may have changed since)."""
        ...

    def changes(self, token: str | None) -> RemoteChanges:
        """What changed since `token` (RFC 6578) where the server keeps sync tokens; else every object, `complete`."""
        ...

    def fetch(self, hrefs: list[str]) -> list[RemoteObject]: ...

    def href_for(self, uid: str) -> str:
        """Where a new object of this UID goes (the same each time, so a retried create can't make two)."""
        ...

    def get(self, href: str) -> RemoteObject | None: ...

    def put(self, href: str, text: str, etag: str | None) -> str | None:
        """Create (`etag` None: only if nothing is there) or replace (only if still at `etag`); the new ETag.
        ChangedOnServer when the condition fails."""
        ...

    def delete(self, href: str, etag: str | None) -> None: ...


class SyncSource(Protocol):
    """Opens the user's task list for one sync, given the one the last sync used."""

    def __call__(self, *, known: KnownList | None) -> AbstractContextManager[TaskList]: ...
