"""Sync left running for months: one task nothing can read is skipped and named while the rest syncs, a date at
the edge of the calendar is shown, two syncs of one database never run at once (nor make the task list twice),
and every failure is noted with its time where the tray and `murmur sync status` read it. Against a real
Radicale server."""

import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.domain.enums import Format, Status
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.sync.lock import SyncBusy, one_sync_at_a_time
from app.sync.remote import SyncError
from tests.support.murmur_cli import Murmur
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer
from tests.sync.test_sync import by_summary, create

# Left out of `make test-fast`: a Radicale server per test, gone or raced; test_sync.py keeps the usual sync.
pytestmark = pytest.mark.slow

# CATEGORIES typed as a date: the icalendar reader raises TypeError on it (not a ValueError).
UNREADABLE = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//A careless app//EN\r\nBEGIN:VTODO\r\nUID:careless-1\r\n"
    "DTSTAMP:20260101T000000Z\r\nSUMMARY:Broken\r\nCATEGORIES;VALUE=DATE:20260101\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
)


def put_raw(phone: Phone, name: str, text: str) -> str:
    """An object as some other client stored it, byte for byte (the library would parse it first)."""
    url = phone.calendar().url.join(name)
    answer = phone.client.put(str(url), text, {"Content-Type": "text/calendar; charset=utf-8"})
    assert answer.status in (201, 204)
    return str(url.path)


def test_a_task_nothing_can_read_is_skipped_and_named_and_the_rest_syncs(service: MurmurService, phone: Phone) -> None:
    service.sync()
    href = put_raw(phone, "careless.ics", UNREADABLE)
    phone.add("Water the plants")
    create(service, "buy oat milk")

    report = service.sync()

    assert "Water the plants" in by_summary(service)
    assert report.pushed == ["created: buy oat milk"]
    assert len(report.problems) == 1 and href in report.problems[0] and "TypeError" in report.problems[0]
    status = service.sync_status()
    assert status.last_error is None and status.last_sync_at is not None
    assert len(status.skipped) == 1 and href in status.skipped[0]
    phone.delete(phone.add("Gone soon"))  # the next sync still reads the rest, and still names the bad one
    assert len(service.sync().problems) == 1 and len(service.sync_status().skipped) == 1


def test_a_task_due_in_year_9999_is_listed_exported_and_sent_back_as_it_came(
    service: MurmurService, phone: Phone, db_path: Path, tmp_path: Path
) -> None:
    service.sync()
    far = datetime(9999, 12, 31, 23, tzinfo=UTC)
    uid = phone.add("Someday", due=far)
    service.sync()
    someday = by_summary(service)["Someday"]
    for kind in Format:
        assert "Someday" in service.export(kind, statuses=list(Status))
    murmur = Murmur(db_path, tmp_path)
    for args in (("list",), ("list", "--status", "all")):
        shown = murmur.run(*args)
        assert shown.returncode == 0 and "Someday" in shown.stdout, shown.stderr
    service.edit([someday.id], {"priority": 1})
    service.sync()
    assert phone.todo(uid).decoded("DUE") == far


def test_no_password_is_a_failure_shown_with_its_time(service: MurmurService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SYNC_PASSWORD.env)
    monkeypatch.setattr("app.sync.account.sync_password", lambda: None)  # no keyring either
    with pytest.raises(Exception, match="no password"):
        service.sync()
    status = service.sync_status()
    assert status.last_error is not None and "no password" in status.last_error
    assert status.last_error_at is not None and status.last_sync_at is None


def test_a_sync_while_another_holds_the_database_says_so_in_one_line(service: MurmurService, store: Store) -> None:
    with one_sync_at_a_time(store.path, wait_seconds=0), pytest.raises(SyncBusy, match="^a sync is already running$"):
        service.sync(wait_seconds=0)
    assert service.sync_status().last_error is None  # another sync running is no failure
    service.sync(wait_seconds=0)  # free again


def test_two_first_syncs_started_together_make_one_task_list(
    service: MurmurService, store: Store, phone: Phone
) -> None:
    """The app's sync after a change and a terminal's `murmur sync`, in two threads, released at one barrier."""
    create(service, "buy oat milk")
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def sync_once() -> None:
        barrier.wait()
        try:
            service.sync()
        except SyncError as error:  # pragma: no cover - said in the assertion below
            failures.append(error)

    threads = [threading.Thread(target=sync_once) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    names = [calendar.get_display_name() for calendar in phone.principal().get_calendars()]
    assert names.count("Murmur") == 1
    assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["buy oat milk"]


def test_the_server_gone_is_noted_with_its_time(service: MurmurService, radicale: RadicaleServer) -> None:
    service.sync()
    radicale.stop()
    with pytest.raises(SyncError, match="cannot reach"):
        service.sync()
    status = service.sync_status()
    assert status.last_error_at is not None and status.last_error is not None
