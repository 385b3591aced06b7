"""Habits keep their time of day when the user's time zone changes: a daily 9:00 habit set in Berlin is at 9:00 in
New York after the move, as iCalendar's floating times are, not at 3:00. The zone of the last run is kept beside
the database (one line), so a start in another zone moves the open habits' dues, as one undoable batch."""

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session, col, select

from app.domain.actions import UpdateAction
from app.domain.enums import Status
from app.private_files import write_private_text
from app.store.models import Entry


def zone_file(db_path: Path) -> Path:
    return db_path.with_name(f"{db_path.stem}-zone")


def last_zone(db_path: Path) -> ZoneInfo | None:
    """The zone of the last run on this database; None the first time (or when the file was lost)."""
    try:
        return ZoneInfo(zone_file(db_path).read_text(encoding="utf-8").strip())
    except (OSError, ValueError, ZoneInfoNotFoundError):
        return None


def note_zone(db_path: Path, zone: ZoneInfo) -> None:
    write_private_text(zone_file(db_path), f"{zone.key}\n")


def _same_time_of_day(due: datetime, before: ZoneInfo, now: ZoneInfo) -> datetime:
    return due.astimezone(before).replace(tzinfo=now)


def kept_at_their_time(session: Session, before: ZoneInfo, now: ZoneInfo) -> list[UpdateAction]:
    """The moves that keep each open habit's due at its time of day in zone `now`, as it was in zone `before`."""
    habits = session.exec(
        select(Entry).where(
            col(Entry.recurrence).is_not(None),
            col(Entry.due_at).is_not(None),
            col(Entry.status).in_([Status.ACTIVE, Status.SNOOZED]),
        )
    )
    moves = []
    for habit in habits:
        assert habit.due_at is not None
        moved = _same_time_of_day(habit.due_at, before, now)
        if moved != habit.due_at:
            due = moved.strftime("%Y-%m-%d %H:%M")
            moves.append(UpdateAction(habit.id, {"due_date": due}, f"kept at its time after the move to {now.key}"))
    return moves
