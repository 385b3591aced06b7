"""The user's task list on a CalDAV server, through the `caldav` library.

Changes are read with a sync-collection REPORT (RFC 6578) where the server keeps sync tokens, else by listing
every object's ETag (PROPFIND, depth 1); the bodies of what changed come in calendar-multiget REPORTs, a
hundred at a time, never one request per task. Writes are conditional: a create only where nothing is
(If-None-Match), a replace or delete only over the version last seen (If-Match). TLS is always verified,
against the system's authorities or a CA file the user names. The password is handed to the library only.
"""

import logging
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from caldav.collection import Calendar
from caldav.davclient import DAVClient
from caldav.elements import dav
from caldav.lib import error as dav_errors
from lxml import etree  # type: ignore[import-untyped]

from app.sync.remote import ChangedOnServer, KnownList, ObjectRefused, RemoteChanges, RemoteObject, SyncError

log = logging.getLogger("murmur.sync")

_FETCH_CHUNK = 100
_READ_CHUNK = 256 * 1024
_TIMEOUT_SECONDS = 120  # a server may think a while before listing a big task list's changes
_CALENDAR_TYPE = {"Content-Type": "text/calendar; charset=utf-8"}


@dataclass(frozen=True)
class Account:
    url: str
    username: str
    password: str
    ca_file: str = ""  # empty: the system's certificate authorities
    max_answer_bytes: int = 50_000_000


def _path(url: object) -> str:
    """An object's address as its path, unquoted: servers and the library disagree on what to quote."""
    return unquote(urlsplit(str(url)).path)


@contextmanager
def talking_to(url: str) -> Iterator[None]:
    """The library's and the network's failures as one line each."""
    host = urlsplit(url).netloc or url
    try:
        yield
    except dav_errors.AuthorizationError as problem:
        if getattr(problem, "reason", "") == "Forbidden":
            raise SyncError(f"the sync server at {host} does not let this user do that (403 Forbidden)") from None
        raise SyncError(f"the sync server at {host} refused the user name or password") from None
    except dav_errors.NotFoundError:
        raise SyncError(f"nothing at {url}: check the sync server's address") from None
    except dav_errors.DAVError as problem:
        reason = getattr(problem, "reason", "") or type(problem).__name__
        raise SyncError(f"the sync server at {host} answered with an error: {reason}") from None
    except etree.LxmlError as problem:  # cut short, or not XML at all
        raise SyncError(f"the sync server at {host} sent an answer that cannot be read ({problem})") from None
    except OSError as problem:  # the HTTP library's errors are OSErrors (connection refused, timeouts, TLS)
        if _about_the_certificate(problem):
            raise _certificate_error(host, problem) from None
        raise SyncError(f"cannot reach the sync server at {host} ({type(problem).__name__})") from None


def _about_the_certificate(problem: BaseException) -> bool:
    """The HTTP library wraps ssl's error in its own (and urllib3's): found anywhere in the chain."""
    seen: BaseException | None = problem
    while seen is not None:
        if isinstance(seen, ssl.SSLError) or "SSL" in type(seen).__name__:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _certificate_error(host: str, problem: BaseException) -> SyncError:
    return SyncError(
        f"the sync server at {host} has a certificate this machine does not trust ({type(problem).__name__}); "
        "if it uses its own authority, set sync.ca_file to that authority's certificate"
    )


def connect(account: Account) -> DAVClient:
    address = urlsplit(account.url)
    if address.scheme not in ("https", "http") or not address.netloc:
        raise SyncError(f"the sync server's address must begin with https:// (got {account.url!r})")
    if address.username or address.password:  # the library would log it, password and all
        raise SyncError("put the user name in sync.username, not in the server's address")
    if account.ca_file and not Path(account.ca_file).expanduser().is_file():
        raise SyncError(f"the certificate authority file {account.ca_file} does not exist (sync.ca_file)")
    client = DAVClient(
        url=account.url,
        username=account.username,
        password=account.password,
        ssl_verify_cert=str(Path(account.ca_file).expanduser()) if account.ca_file else True,
        timeout=_TIMEOUT_SECONDS,
        huge_tree=True,  # a task with a long description is one long text node; the answer's size is capped instead
    )
    # The library reads answers through its session alone: wrapped, every answer is capped.
    client.session = _Capped(client.session, account.max_answer_bytes, urlsplit(account.url).netloc)  # type: ignore[assignment]
    return client


class _Capped:
    """The HTTP session with every answer read as a stream and refused past `limit` bytes, so a runaway answer
    never fills memory; the library then parses what was read."""

    def __init__(self, session: Any, limit: int, host: str) -> None:
        self.session, self.limit, self.host = session, limit, host

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def request(self, *args: Any, **kwargs: Any) -> Any:
        response = self.session.request(*args, **kwargs, stream=True)
        body = bytearray()
        for chunk in response.iter_content(_READ_CHUNK):
            body += chunk
            if len(body) > self.limit:
                response.close()
                raise SyncError(
                    f"the sync server at {self.host} sent an answer over {self.limit // 1_000_000} MB; "
                    "refused (sync.max_answer_mb)"
                )
        response._content = bytes(body)  # what the HTTP library holds once an answer is read whole
        return response


@dataclass(frozen=True)
class FoundList:
    name: str
    url: str
    tasks: bool  # the calendar takes VTODOs


def _principal(client: DAVClient) -> Any:
    return client.principal()  # type: ignore[no-untyped-call]


def task_lists(client: DAVClient) -> list[FoundList]:
    """The user's calendars (principal, then calendar-home-set), each with whether it holds tasks."""
    with talking_to(str(client.url)):
        calendars = _principal(client).calendars()
        return [
            FoundList(
                name=calendar.get_display_name() or _path(calendar.url).rstrip("/").rsplit("/", 1)[-1],
                url=str(calendar.url),
                tasks="VTODO" in calendar.get_supported_components(),
            )
            for calendar in calendars
        ]


def open_task_list(
    client: DAVClient, name: str, create: bool = True, known: KnownList | None = None
) -> "CalDavTaskList":
    """The task list called `name`; else the one synced last time by that name, renamed on the server since;
    else a new one (when `create`)."""
    with talking_to(str(client.url)):
        principal = _principal(client)
        calendars = principal.calendars()
        named = [calendar for calendar in calendars if calendar.get_display_name() == name]
        if not named and known is not None and known.name == name:
            named = [calendar for calendar in calendars if _path(calendar.url) == _path(known.url)]
            if named:
                log.info("the task list %r was renamed on the server; still syncing with it", name)
        if named:
            if "VTODO" not in named[0].get_supported_components():
                raise SyncError(f"the calendar {name!r} on the sync server does not take tasks; pick another")
            return CalDavTaskList(client, named[0], name)
        if not create:
            raise SyncError(f"no task list called {name!r} on the sync server")
        log.info("making the task list %r on the sync server", name)
        made = principal.make_calendar(name=name, supported_calendar_component_set=["VTODO"])
        return CalDavTaskList(client, made, name)


class CalDavTaskList:
    def __init__(self, client: DAVClient, calendar: Calendar, name: str) -> None:
        # Any: the library types each call as "a result, or a coroutine for its async client".
        self.client: Any = client
        self.calendar: Any = calendar
        self.name = name

    @property
    def url(self) -> str:
        return str(self.calendar.url)

    def _full(self, href: str) -> str:
        return str(self.calendar.url.join(quote(href)))

    def changes(self, token: str | None) -> RemoteChanges:
        with talking_to(self.url):
            try:
                found = self.calendar.get_objects_by_sync_token(
                    sync_token=token, load_objects=False, disable_fallback=True
                )
            except (dav_errors.ReportError, dav_errors.DAVError) as problem:
                if token is not None:
                    log.info("the sync token was refused (%s); reading the whole list", type(problem).__name__)
                    return self.changes(None)
                if isinstance(problem, dav_errors.AuthorizationError) and problem.reason != "Forbidden":
                    raise
                log.info("no sync tokens on this server (%s); comparing ETags", type(problem).__name__)
                return self._by_etags()
            deleted = {_path(url) for url in found.deleted_urls}
            changed = [
                (_path(obj.url), obj.props.get(dav.GetEtag.tag))
                for obj in found.objects
                if _path(obj.url) not in deleted and _path(obj.url) != _path(self.calendar.url)
            ]
            return RemoteChanges(
                changed=changed, deleted=sorted(deleted), token=found.sync_token, complete=token is None
            )

    def _by_etags(self) -> RemoteChanges:
        answer = self.client.propfind(self.url, props=["getetag"], depth=1)
        own = _path(self.calendar.url)
        listed = [
            (unquote(result.href), result.properties.get(dav.GetEtag.tag))
            for result in answer.results or []
            if unquote(result.href).rstrip("/") != own.rstrip("/")
        ]
        return RemoteChanges(changed=listed, deleted=[], token=None, complete=True)

    def fetch(self, hrefs: list[str]) -> list[RemoteObject]:
        found: list[RemoteObject] = []
        with talking_to(self.url):
            for start in range(0, len(hrefs), _FETCH_CHUNK):
                urls = [self.calendar.url.join(quote(href)) for href in hrefs[start : start + _FETCH_CHUNK]]
                for obj in self.calendar.multiget(urls):
                    if obj.data:
                        found.append(RemoteObject(_path(obj.url), obj.props.get(dav.GetEtag.tag), obj.data))
        return found

    def href_for(self, uid: str) -> str:
        safe = "".join(c if c.isalnum() or c in "-_.@" else "_" for c in uid)
        return f"{_path(self.calendar.url).rstrip('/')}/{safe}.ics"

    def get(self, href: str) -> RemoteObject | None:
        found = self.fetch([href])
        return found[0] if found else None

    def put(self, href: str, text: str, etag: str | None) -> str | None:
        condition = {"If-Match": etag} if etag else {"If-None-Match": "*"}
        with talking_to(self.url):
            answer = self.client.put(self._full(href), text, {**_CALENDAR_TYPE, **condition})
        if answer.status == 412:
            raise ChangedOnServer(f"{href} changed on the server")
        if answer.status not in (200, 201, 204):
            raise ObjectRefused(f"the sync server did not keep it ({answer.status} {answer.reason})")
        found: str | None = answer.headers.get("ETag")
        return found

    def delete(self, href: str, etag: str | None) -> None:
        with talking_to(self.url):
            answer = self.client.delete(self._full(href), {"If-Match": etag} if etag else {})
        if answer.status == 412:
            raise ChangedOnServer(f"{href} changed on the server")
        if answer.status not in (200, 204, 404):
            raise ObjectRefused(f"the sync server did not delete it ({answer.status} {answer.reason})")
