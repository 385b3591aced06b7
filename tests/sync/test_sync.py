"""Two-way sync against a real Radicale server, with the `caldav` library as the user's phone.

Nothing is mocked: Murmur's service syncs over HTTP with Radicale on 127.0.0.1, and the phone reads and writes
the same task list the way a simple client or tasks.org does.
"""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from app.cli.output import cli_line
from app.domain.actions import CompleteAction, CreateAction, UpdateAction
from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.errors import UsageError
from app.offline import OfflineInterpreter
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.store.models import Entry
from app.sync.remote import SyncError
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer


def create(service: MurmurService, summary: str, due_text: str | None = None) -> Entry:
    action = CreateAction(
        content=summary, summary=summary, category=Category.TODO, source_text=summary, due_text=due_text
    )
    return service.apply([action]).applied[0].entry


def stored(service: MurmurService, entry_id: str) -> Entry | None:
    with service.store.read() as session:
        return session.get(Entry, entry_id)


def by_summary(service: MurmurService) -> dict[str, Entry]:
    return {entry.summary: entry for entry in service.entries(statuses=list(Status))}


@pytest.mark.slow
def test_first_sync_sends_every_entry_and_the_phone_sees_exactly_them(service: MurmurService, phone: Phone) -> None:
    # Past several of the pushes' chunks (50) and of the reads' (100), each ending part-full
    for number in range(260):
        create(service, f"task {number}")
    service.apply(
        [
            CreateAction(
                content="dentist",
                summary="Call the dentist",
                category=Category.REMINDER,
                source_text="remind me to call the dentist thursday",
                due_text="thursday 10am",
            )
        ]
    )
    report = service.sync()
    assert len(report.pushed) == 261 and report.queued == 0 and not report.conflicts
    todos = phone.todos()
    assert len(todos) == 261
    dentist = next(todo for todo in todos.values() if str(todo["SUMMARY"]) == "Call the dentist")
    assert dentist.walk("VALARM"), "a reminder rings on the phone"
    assert dentist.decoded("DUE") == datetime(2026, 11, 26, 10, 0, tzinfo=dentist.decoded("DUE").tzinfo)
    assert "X-MURMUR-SAID" not in dentist, "the words said stay on this machine"
    again = service.sync()
    assert again.pushed == [] and again.pulled == []  # nothing twice


def test_a_change_on_each_side_meets_in_the_middle(service: MurmurService, phone: Phone) -> None:
    milk = create(service, "Buy milk")
    service.sync()
    uid = next(iter(phone.todos()))
    phone.edit(uid, summary="Buy oat milk")
    bread = create(service, "Buy bread")
    report = service.sync()
    assert by_summary(service)["Buy oat milk"].id == milk.id
    assert "updated: Buy oat milk" in report.pulled and "created: Buy bread" in report.pushed
    assert {str(todo["SUMMARY"]) for todo in phone.todos().values()} == {"Buy oat milk", "Buy bread"}
    assert bread.id in {entry.id for entry in by_summary(service).values()}
    # The sync is one undoable batch: undo puts the old summary back, and the next sync sends that.
    service.undo_batch(report.undo_id)  # type: ignore[arg-type]
    assert "Buy milk" in by_summary(service)
    service.sync()
    assert {str(todo["SUMMARY"]) for todo in phone.todos().values()} == {"Buy milk", "Buy bread"}


def test_a_task_made_on_the_phone_arrives_and_a_completion_goes_back(service: MurmurService, phone: Phone) -> None:
    service.sync()  # makes the task list
    uid = phone.add("Water the plants", due=datetime(2026, 11, 25, 9, 0, tzinfo=UTC))
    report = service.sync()
    assert report.pulled == ["created: Water the plants"]
    plants = by_summary(service)["Water the plants"]
    assert plants.due_at == datetime(2026, 11, 25, 9, 0, tzinfo=UTC)
    service.complete([plants.id])
    service.sync()
    assert str(phone.todo(uid)["STATUS"]) == "COMPLETED"
    assert phone.todo(uid)["UID"] == uid  # the phone's UID is kept: the mapping survives


def test_both_sides_changed_the_same_task(service: MurmurService, phone: Phone) -> None:
    entry = create(service, "Book flights", due_text="friday")
    service.sync()
    uid = next(iter(phone.todos()))
    later_due = datetime(2026, 12, 4, 17, 0, tzinfo=UTC)
    phone.edit(uid, summary="Book flights to Rome", due=later_due)
    service.edit([entry.id], {"summary": "Book flights and hotel"})
    service.complete([entry.id])
    report = service.sync()
    merged = stored(service, entry.id)
    assert merged is not None
    # A completion anywhere wins; the later due wins; the summary both changed keeps the server's version...
    assert merged.status is Status.COMPLETED and merged.due_at == later_due
    assert merged.summary == "Book flights to Rome"
    # ...and the local words are kept beside it as a note, never dropped.
    note = by_summary(service)["Your copy of “Book flights to Rome”"]
    assert note.category is Category.NOTE and "Book flights and hotel" in note.content
    assert report.conflicts and "summary" in report.conflicts[0]
    phone_side = {str(todo["SUMMARY"]): todo for todo in phone.todos().values()}
    assert str(phone_side["Book flights to Rome"]["STATUS"]) == "COMPLETED"
    assert "Your copy of “Book flights to Rome”" in phone_side


def test_a_task_deleted_on_the_server_is_archived_here_and_undo_brings_it_back(
    service: MurmurService, phone: Phone
) -> None:
    entry = create(service, "Return the library books")
    service.sync()
    phone.delete(next(iter(phone.todos())))
    report = service.sync()
    kept = stored(service, entry.id)
    assert kept is not None and kept.status is Status.ARCHIVED
    assert report.pulled == ["archived (deleted on the server): Return the library books"]
    service.undo_batch(report.undo_id)  # type: ignore[arg-type]
    service.sync()
    assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["Return the library books"]


@pytest.mark.parametrize("how", ["simple client", "tasks.org"])
def test_a_habit_done_on_the_phone_moves_on_to_its_next_time(
    service: MurmurService, phone: Phone, clock: Clock, how: str
) -> None:
    service.apply(
        [
            CreateAction(
                content="stretch",
                summary="Stretch",
                category=Category.HABIT,
                source_text="stretch every day",
                recurrence="FREQ=DAILY",
                due_text="tomorrow 8am",
            )
        ]
    )
    habit = by_summary(service)["Stretch"]
    first_due = habit.due_at
    assert first_due is not None
    service.sync()
    uid = next(iter(phone.todos()))
    if how == "simple client":
        phone.complete(uid)
    else:
        phone.complete_like_tasks_org(uid)
    service.sync()
    moved = stored(service, habit.id)
    assert moved is not None and moved.status is Status.ACTIVE
    assert moved.due_at is not None and moved.due_at > first_due
    on_phone = phone.todo(uid)
    assert str(on_phone["STATUS"]) == "NEEDS-ACTION"  # the next occurrence appears on the phone too
    assert on_phone.decoded("DUE") == moved.due_at


@pytest.mark.slow
def test_the_server_stopped_mid_sync_loses_and_doubles_nothing(
    service: MurmurService, phone: Phone, radicale: RadicaleServer
) -> None:
    service.sync()
    for number in range(120):
        create(service, f"offline task {number}")
    radicale.stop()
    with pytest.raises(SyncError, match="cannot reach the sync server"):
        service.sync()
    status = service.sync_status()
    assert status.queued == 120 and status.last_error and "cannot reach" in status.last_error
    radicale.restart()
    report = service.sync()
    assert report.queued == 0 and service.sync_status().last_error is None
    assert len(phone.todos()) == 120


def test_a_create_that_reached_the_server_but_not_the_records_is_linked_not_doubled(
    service: MurmurService, phone: Phone, store: Store
) -> None:
    create(service, "Renew passport")
    service.sync()
    with store.write() as session:  # as if the process died after the PUT, before recording it
        session.execute(text("DELETE FROM sync_items"))
        session.execute(text("INSERT INTO sync_outbox SELECT id, '2000-01-01' FROM entries"))
    service.sync()
    assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["Renew passport"]


def test_a_wrong_password_is_one_clear_line(
    service: MurmurService, monkeypatch: pytest.MonkeyPatch, radicale: RadicaleServer
) -> None:
    create(service, "Something")
    monkeypatch.setenv(SYNC_PASSWORD.env, "not-the-password")
    with pytest.raises(SyncError) as raised:
        service.sync()
    assert str(raised.value) == f"the sync server at 127.0.0.1:{radicale.port} refused the user name or password"
    assert "not-the-password" not in str(raised.value)


def test_sync_not_set_up_says_how(store: Store, clock: Clock) -> None:
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    with pytest.raises(UsageError) as raised:
        service.sync()
    assert "murmur sync setup" in cli_line(raised.value)


def test_every_kind_of_change_is_queued_in_its_own_transaction(service: MurmurService, store: Store) -> None:
    entry = create(service, "Queue me")
    service.sync()
    assert service.sync_status().queued == 0
    service.apply([UpdateAction(entry_id=entry.id, changes={"priority": 1})])
    assert service.sync_status().queued == 1
    service.sync()
    service.apply([CompleteAction(entry_id=entry.id)])
    service.undo()
    assert service.sync_status().queued == 1


def test_the_phone_sees_what_murmur_pushed_field_by_field(service: MurmurService, phone: Phone, tmp_path: Path) -> None:
    service.apply(
        [
            CreateAction(
                content="Pay rent before the 1st",
                summary="Pay rent",
                category=Category.TODO,
                source_text="pay rent",
                priority=1,
                due_text="monday 9am",
            )
        ]
    )
    service.sync()
    todo = next(iter(phone.todos().values()))
    assert str(todo["SUMMARY"]) == "Pay rent" and str(todo["DESCRIPTION"]) == "Pay rent before the 1st"
    assert int(todo["PRIORITY"]) == 1 and str(todo["STATUS"]) == "NEEDS-ACTION"
    assert todo.decoded("DUE").astimezone(UTC) == by_summary(service)["Pay rent"].due_at
    assert (datetime.now(UTC) - todo.decoded("DTSTAMP")) < timedelta(days=400)


def test_what_the_phone_keeps_in_a_task_survives_murmur_changing_it(service: MurmurService, phone: Phone) -> None:
    service.sync()
    uid = phone.add("Pick up the parcel")
    phone.edit(uid, location="Post office", categories=["Errands"], percent_complete=40, x_tasks_org_order="7")
    service.sync()
    parcel = by_summary(service)["Pick up the parcel"]
    service.edit([parcel.id], {"summary": "Pick up the big parcel"})
    service.sync()
    kept = phone.todo(uid)
    assert str(kept["SUMMARY"]) == "Pick up the big parcel"
    assert (str(kept["LOCATION"]), str(kept["X-TASKS-ORG-ORDER"]), int(kept["PERCENT-COMPLETE"])) == (
        "Post office",
        "7",
        40,
    )
    assert [str(tag) for tag in kept["CATEGORIES"].cats] == ["Errands"]  # no tag of ours added
    service.complete([parcel.id])
    service.sync()
    done = phone.todo(uid)
    assert (str(done["STATUS"]), int(done["PERCENT-COMPLETE"]), str(done["LOCATION"])) == (
        "COMPLETED",
        100,
        "Post office",
    )


def test_a_habit_with_no_due_time_is_sent_once_not_at_every_sync(
    service: MurmurService, store: Store, phone: Phone
) -> None:
    service.apply([CreateAction(content="stretch", summary="Stretch", category=Category.HABIT,
                                source_text="stretch daily", recurrence="FREQ=DAILY")])  # fmt: skip
    with store.write() as session:  # as an import can leave it: a repeat, no time yet
        session.execute(text("UPDATE entries SET due_at = NULL"))
    assert service.sync().pushed == ["created: Stretch"]
    assert service.sync().pushed == []
    assert by_summary(service)["Stretch"].recurrence == "FREQ=DAILY"  # kept here, though no VTODO can carry it
