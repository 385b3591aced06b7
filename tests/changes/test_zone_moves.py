"""A habit keeps its time of day when the user moves to another time zone (as iCalendar's floating times do): a daily
9:00 habit made in Berlin is due at 9:00 in New York after the move, one undo takes that back, and a one-off due
(a moment, say a flight) stays where it was. A real database, the service started as each run starts it."""

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from app.domain.clock import Clock
from app.domain.enums import Status
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store

BERLIN, NEW_YORK = ZoneInfo("Europe/Berlin"), ZoneInfo("America/New_York")


def _service(db: Path, zone: ZoneInfo) -> MurmurService:
    moment = datetime(2026, 11, 29, 7, 30, tzinfo=zone)
    return MurmurService(store=Store.open(db), interpreter=OfflineInterpreter(), clock=lambda: Clock(moment, zone))


def _local_dues(service: MurmurService, zone: ZoneInfo) -> dict[str, str]:
    entries = service.entries([Status.ACTIVE])
    return {e.summary: e.due_at.astimezone(zone).strftime("%H:%M") for e in entries if e.due_at is not None}


def test_a_habit_keeps_its_time_of_day_after_a_move_and_undo_takes_that_back(tmp_path: Path) -> None:
    db = tmp_path / "murmur.db"
    in_berlin = _service(db, BERLIN)
    in_berlin.submit("stretch every day at 9am")
    in_berlin.submit("flight to Boston tomorrow at 11am")
    assert _local_dues(in_berlin, BERLIN) == {"Stretch": "09:00", "Flight to Boston": "11:00"}
    in_berlin.store.close()

    in_new_york = _service(db, NEW_YORK)
    assert _local_dues(in_new_york, NEW_YORK) == {"Stretch": "09:00", "Flight to Boston": "05:00"}
    [moved] = in_new_york.history()[:1]
    assert moved.batch.label == "1 habit kept at the same time of day in America/New_York"
    in_new_york.undo()
    assert _local_dues(in_new_york, NEW_YORK)["Stretch"] == "03:00"
    in_new_york.store.close()

    again = _service(db, NEW_YORK)  # the same zone as the last run: nothing moves again
    assert _local_dues(again, NEW_YORK)["Stretch"] == "03:00"
    assert (tmp_path / "murmur-zone").read_text() == "America/New_York\n"
    assert (tmp_path / "murmur-zone").stat().st_mode & 0o077 == 0
