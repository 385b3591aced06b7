"""The harder corners of sync, still against a real Radicale server: a server without sync tokens, a token the
server no longer knows, the phone changing a task between Murmur's pull and its push, and a database made by
the release before sync."""

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from functools import partial
from pathlib import Path

import pytest
from caldav.elements import dav
from sqlalchemy import text

from app.domain.actions import CreateAction
from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.offline import OfflineInterpreter
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.store.migrations import MIGRATIONS, migrate
from app.sync.account import task_list_of
from app.sync.caldav_list import CalDavTaskList
from app.sync.remote import KnownList, RemoteChanges, RemoteObject, SyncError, TaskList
from tests.sync.conftest import settings_for
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer
from tests.sync.test_sync import by_summary, create, stored

# Left out of `make test-fast`: a Radicale server per test, stopped, emptied or odd; test_sync.py keeps the usual sync.
pytestmark = pytest.mark.slow


class WithoutSyncTokens:
    """The task list as a server without RFC 6578 shows it: Radicale keeps sync tokens, so this one is not
    asked for them and reads every ETag instead (the path Murmur takes with such servers)."""

    def __init__(self, real: CalDavTaskList) -> None:
        self.real = real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def changes(self, token: str | None) -> RemoteChanges:
        assert token is None  # no token is ever kept from a list without them
        return self.real._by_etags()


class PhoneBetweenPullAndPush:
    """The phone edits a task while Murmur is between its first pull and its push (once)."""

    def __init__(self, real: CalDavTaskList, meddle: "partial[None]") -> None:
        self.real, self.meddle, self.done = real, meddle, False

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def fetch(self, hrefs: list[str]) -> list[RemoteObject]:
        found = self.real.fetch(hrefs)
        if not self.done:
            self.done = True
            self.meddle()
        return found


def service_over(store: Store, clock: Clock, server: RadicaleServer, wrap: object) -> MurmurService:
    @contextmanager
    def source(*, known: KnownList | None) -> Iterator[TaskList]:
        with task_list_of(settings_for(server), known=known) as tasks:
            assert isinstance(tasks, CalDavTaskList)
            yield wrap(tasks)  # type: ignore[operator]

    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock, sync_source=source)


@pytest.fixture(autouse=True)
def password(radicale: RadicaleServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SYNC_PASSWORD.env, radicale.password)


def test_a_server_without_sync_tokens_is_synced_by_etags(
    store: Store, clock: Clock, radicale: RadicaleServer, phone: Phone
) -> None:
    service = service_over(store, clock, radicale, WithoutSyncTokens)
    keep, drop = create(service, "Keep me"), create(service, "Drop me")
    service.sync()
    uids = {str(todo["SUMMARY"]): uid for uid, todo in phone.todos().items()}
    phone.edit(uids["Keep me"], summary="Keep me, edited")
    phone.delete(uids["Drop me"])
    phone.add("Made on the phone")
    report = service.sync()
    assert sorted(report.pulled) == [
        "archived (deleted on the server): Drop me",
        "created: Made on the phone",
        "updated: Keep me, edited",
    ]
    assert stored(service, keep.id).summary == "Keep me, edited"  # type: ignore[union-attr]
    assert stored(service, drop.id).status is Status.ARCHIVED  # type: ignore[union-attr]
    assert service.sync().pulled == []  # unchanged ETags bring nothing twice


def test_a_sync_token_the_server_forgot_reads_the_whole_list_once(
    store: Store, clock: Clock, radicale: RadicaleServer, phone: Phone
) -> None:
    service = service_over(store, clock, radicale, lambda tasks: tasks)
    create(service, "Water the plants")
    service.sync()
    with store.write() as session:
        session.execute(text("UPDATE sync_state SET sync_token = 'http://radicale.org/ns/sync/forgotten'"))
    phone.add("Feed the cat")
    report = service.sync()
    assert report.pulled == ["created: Feed the cat"] and report.pushed == []
    assert sorted(by_summary(service)) == ["Feed the cat", "Water the plants"]
    assert len(phone.todos()) == 2


def test_a_task_the_phone_changes_during_a_push_is_merged_not_overwritten(
    store: Store, clock: Clock, radicale: RadicaleServer, phone: Phone
) -> None:
    plain = MurmurService(
        store=store, interpreter=OfflineInterpreter(), clock=lambda: clock,
        sync_source=partial(task_list_of, settings_for(radicale)),
    )  # fmt: skip
    entry = create(plain, "Plan the trip")
    plain.sync()
    uid = next(iter(phone.todos()))
    plain.edit([entry.id], {"priority": 1})
    meddle = partial(phone.edit, uid, summary="Plan the Rome trip")
    service = service_over(store, clock, radicale, lambda tasks: PhoneBetweenPullAndPush(tasks, meddle))
    service.sync()
    merged = stored(service, entry.id)
    assert merged is not None and (merged.summary, merged.priority) == ("Plan the Rome trip", 1)
    on_phone = phone.todo(uid)
    assert (str(on_phone["SUMMARY"]), int(on_phone["PRIORITY"])) == ("Plan the Rome trip", 1)


def test_the_previous_release_database_syncs_everything_it_had(
    db_path: Path, clock: Clock, radicale: RadicaleServer, phone: Phone
) -> None:
    """What the release before sync made (steps 1-7): its entries, made before any trigger existed, all go up
    at the first sync; from then on every change is queued."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:7])
        for number in range(3):
            db.execute(
                "INSERT INTO entries (id, content, summary, category, status, source_text, created_at, updated_at,"
                " revision) VALUES (?, ?, ?, 'todo', 'active', ?, '2026-01-01T00:00:00.000000+00:00',"
                " '2026-01-01T00:00:00.000000+00:00', 1)",
                (f"{number:032x}", f"old {number}", f"Old task {number}", f"old {number}"),
            )
    store = Store.open(db_path)
    service = service_over(store, clock, radicale, lambda tasks: tasks)
    assert service.sync_status().queued == 0  # nothing queued by the migration itself
    report = service.sync()
    assert len(report.pushed) == 3 and report.queued == 0
    assert sorted(str(todo["SUMMARY"]) for todo in phone.todos().values()) == [f"Old task {n}" for n in range(3)]
    service.apply([CreateAction(content="new", summary="New task", category=Category.TODO, source_text="new")])
    assert service.sync_status().queued == 1
    store.close()


def test_a_task_list_renamed_on_the_server_is_still_the_one_synced(
    store: Store, clock: Clock, radicale: RadicaleServer, phone: Phone
) -> None:
    service = service_over(store, clock, radicale, lambda tasks: tasks)
    create(service, "Water the plants")
    service.sync()
    phone.calendar().set_properties([dav.DisplayName("Home")])  # renamed on the phone
    create(service, "Feed the cat")
    assert service.sync().pushed == ["created: Feed the cat"]
    names = [calendar.get_display_name() for calendar in phone.principal().calendars()]
    assert names == ["Home"]  # no second "Murmur" list
    phone.list_name = "Home"
    assert sorted(str(todo["SUMMARY"]) for todo in phone.todos().values()) == ["Feed the cat", "Water the plants"]


class ServerStopsMidPush:
    """The real server is stopped after a few of a push's writes have reached it (a crash, a reboot, Wi-Fi gone)."""

    def __init__(self, real: CalDavTaskList, server: RadicaleServer, after: int) -> None:
        self.real, self.server, self.left = real, server, after

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def put(self, href: str, text_: str, etag: str | None) -> str | None:
        if self.left == 0 and self.server.running:
            self.server.stop()
        self.left -= 1
        return self.real.put(href, text_, etag)


def test_the_server_stopped_in_the_middle_of_a_push_loses_and_doubles_nothing(
    store: Store, clock: Clock, radicale: RadicaleServer, phone: Phone
) -> None:
    for number in range(80):
        create(service_over(store, clock, radicale, lambda tasks: tasks), f"task {number}")
    cut = service_over(store, clock, radicale, lambda tasks: ServerStopsMidPush(tasks, radicale, after=60))
    with pytest.raises(SyncError, match="cannot reach the sync server"):
        cut.sync()
    assert cut.sync_status().queued == 20  # the 60 that reached the server are recorded; the rest waits
    radicale.restart()
    report = service_over(store, clock, radicale, lambda tasks: tasks).sync()
    assert report.queued == 0
    summaries = sorted(str(todo["SUMMARY"]) for todo in phone.todos().values())
    assert summaries == sorted(f"task {number}" for number in range(80))  # each once


def test_events_in_a_list_that_holds_tasks_too_are_left_alone(
    store: Store, clock: Clock, radicale: RadicaleServer, phone: Phone
) -> None:
    mixed = phone.principal().make_calendar(name="Murmur", supported_calendar_component_set=["VTODO", "VEVENT"])
    mixed.save_event(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VEVENT\r\nUID:lunch-1\r\n"
        "DTSTAMP:20261120T090000Z\r\nDTSTART:20261127T120000Z\r\nSUMMARY:Lunch with Ana\r\nEND:VEVENT\r\n"
        "END:VCALENDAR\r\n"
    )
    phone.add("Buy a gift")
    service = service_over(store, clock, radicale, lambda tasks: tasks)
    report = service.sync()
    assert report.pulled == ["created: Buy a gift"] and report.problems == []
    assert sorted(by_summary(service)) == ["Buy a gift"]
    assert service.sync().pulled == []


def test_a_list_emptied_on_the_server_archives_nothing_here_until_confirmed(
    service: MurmurService, phone: Phone
) -> None:
    service.apply(
        [
            CreateAction(content=f"Task {n}", summary=f"Task {n}", category=Category.TODO, source_text=f"task {n}")
            for n in range(30)
        ]
    )
    service.sync()
    for uid in list(phone.todos()):
        phone.delete(uid)
    held = service.sync()
    assert any("30 tasks were deleted on the server at once" in problem for problem in held.problems)
    assert len(service.entries([Status.ACTIVE])) == 30
    again = service.sync()  # heard again, still not done unasked
    assert any("--confirm" in problem for problem in again.problems)
    assert len(service.entries([Status.ACTIVE])) == 30
    confirmed = service.sync(confirmed=True)
    assert len(confirmed.pulled) == 30 and service.entries([Status.ACTIVE]) == []
