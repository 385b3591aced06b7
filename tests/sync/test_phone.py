"""The test rig itself, against a real Radicale: the server's login, and the phone's every move as the server
stores it. The sync tests build on both, so a fault here must show here."""

import socket
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import caldav
import niquests
import pytest
from caldav.lib.error import AuthorizationError

from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer

# Left out of `make test-fast`: the rig itself, a Radicale server per test; the sync tests use it every run.
pytestmark = pytest.mark.slow

BERLIN = ZoneInfo("Europe/Berlin")


def test_the_server_reads_only_its_own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "home" / ".config" / "radicale" / "config"  # where Radicale looks by default
    broken.parent.mkdir(parents=True)
    broken.write_text("[server]\nhosts = not a host\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("RADICALE_CONFIG", str(broken))
    with RadicaleServer(tmp_path / "radicale") as server:
        assert server.running


def test_the_server_wants_the_right_password(radicale: RadicaleServer) -> None:
    with caldav.DAVClient(url=radicale.url, username=radicale.username, password="wrong") as client:
        with pytest.raises(AuthorizationError) as refused:
            client.principal()
    assert refused.value.status == 401
    with caldav.DAVClient(url=radicale.url, username=radicale.username, password=radicale.password) as client:
        assert str(client.principal().url) == f"{radicale.url}{radicale.username}/"


def test_the_phone_makes_a_task_list_for_todos(phone: Phone) -> None:
    with pytest.raises(LookupError, match="Murmur"):
        phone.calendar()
    phone.make_task_list()
    phone.make_task_list("Groceries")
    assert phone.calendar().get_supported_components() == ["VTODO"]
    assert phone.calendar().get_display_name() == "Murmur"
    assert phone.todos() == {}


def test_the_phone_adds_edits_completes_and_deletes(phone: Phone) -> None:
    phone.make_task_list()
    uid = phone.add("Buy oat milk", due=datetime(2026, 5, 4, 18, 0, tzinfo=BERLIN))
    kept = phone.add("Call the dentist", uid="dentist-1")
    assert kept == "dentist-1"
    todo = phone.todo(uid)
    assert (todo["SUMMARY"], todo["STATUS"]) == ("Buy oat milk", "NEEDS-ACTION")
    assert todo["DUE"].dt == datetime(2026, 5, 4, 18, 0, tzinfo=BERLIN)
    assert "DTSTAMP" in todo and "RRULE" not in todo

    phone.edit(uid, summary="Buy oat milk and bread", due=date(2026, 5, 5))
    todo = phone.todo(uid)
    assert (todo["SUMMARY"], todo["DUE"].dt) == ("Buy oat milk and bread", date(2026, 5, 5))

    phone.complete(uid)
    phone.edit(kept, status="CANCELLED")
    todos = phone.todos()  # completed and cancelled ones are still listed
    assert (todos[uid]["STATUS"], todos[kept]["STATUS"]) == ("COMPLETED", "CANCELLED")
    assert todos[uid]["COMPLETED"].dt.utcoffset().total_seconds() == 0

    phone.delete(uid)
    assert set(phone.todos()) == {kept}


def test_a_simple_client_completes_a_repeating_todo_once_and_for_all(phone: Phone) -> None:
    phone.make_task_list()
    uid = phone.add("Water the plants", due=date(2026, 3, 23), rrule="FREQ=WEEKLY")
    phone.complete(uid)
    todo = phone.todo(uid)
    assert (todo["STATUS"], todo["DUE"].dt, "RRULE" in todo) == ("COMPLETED", date(2026, 3, 23), True)
    once = phone.add("Post the letter")
    with pytest.raises(ValueError, match="does not repeat"):
        phone.complete_like_tasks_org(once)


def test_tasks_org_moves_a_repeating_todo_to_its_next_occurrence(phone: Phone) -> None:
    phone.make_task_list()
    monday = datetime(2026, 3, 23, 9, 0, tzinfo=BERLIN)
    uid = phone.add("Water the plants", due=monday, rrule="FREQ=WEEKLY;BYDAY=MO")
    phone.complete_like_tasks_org(uid)
    todo = phone.todo(uid)
    # Summer time began on the Sunday between: the todo keeps its 9 o'clock.
    next_monday = datetime(2026, 3, 30, 9, 0, tzinfo=BERLIN)
    assert (todo["DTSTART"].dt, todo["DUE"].dt) == (next_monday, next_monday)
    assert todo["STATUS"] == "NEEDS-ACTION" and "COMPLETED" not in todo
    assert todo["RRULE"].to_ical() == b"FREQ=WEEKLY;BYDAY=MO"
    assert "TZID:Europe/Berlin" in phone.calendar().get_todo_by_uid(uid).data  # its VTIMEZONE, sent along


def test_tasks_org_counts_down_and_completes_the_last_occurrence(phone: Phone) -> None:
    phone.make_task_list()
    uid = phone.add("Pay the rent", due=date(2026, 1, 31), rrule={"freq": "monthly", "count": 2})
    phone.complete_like_tasks_org(uid)
    todo = phone.todo(uid)
    # February has no 31st: RFC 5545 skips it.
    assert (todo["DUE"].dt, todo["RRULE"]["COUNT"], todo["STATUS"]) == (date(2026, 3, 31), [1], "NEEDS-ACTION")
    phone.complete_like_tasks_org(uid)
    todo = phone.todo(uid)
    assert (todo["DUE"].dt, todo["STATUS"]) == (date(2026, 3, 31), "COMPLETED")


def test_a_restarted_server_keeps_the_task_list(radicale: RadicaleServer, phone: Phone) -> None:
    phone.make_task_list()
    uid = phone.add("Return the library books")
    radicale.stop()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", radicale.port)) != 0, "something still listens after stop()"
    with pytest.raises(niquests.exceptions.ConnectionError):  # caldav does not wrap it (an OSError)
        phone.todos()
    radicale.restart()
    assert phone.todo(uid)["SUMMARY"] == "Return the library books"
