"""Undo: exact (byte-for-byte rows), durable across restarts, conflict-aware, and per action."""

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from app.changes.executor import execute
from app.changes.undo import history, undo_item, undo_latest
from app.domain.actions import ArchiveAction, CompleteAction, CreateAction, SnoozeAction, UpdateAction
from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.errors import UndoError
from app.store import Store


def rows(db_path: Path) -> list[tuple[object, ...]]:
    """Every entry row as SQLite stores it, read by a separate plain connection."""
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT * FROM entries ORDER BY id").fetchall()


def later(clock: Clock, minutes: int) -> Clock:
    return Clock(now=clock.now + timedelta(minutes=minutes), tz=clock.tz)


@pytest.fixture
def seeded(store: Store, clock: Clock) -> list[str]:
    with store.write() as session:
        result = execute(
            session,
            [
                CreateAction(content=c, summary=c.capitalize(), category=Category.TODO, source_text=c)
                for c in ("buy milk", "call mom", "stretch")
            ],
            clock,
        )
    return [item.entry.id for item in result.applied]


def test_undo_restores_every_row_byte_for_byte(store: Store, clock: Clock, db_path: Path, seeded: list[str]) -> None:
    milk, mom, stretch = seeded
    before = rows(db_path)
    with store.write() as session:
        execute(
            session,
            [
                CreateAction(
                    content="book flights",
                    summary="Book flights",
                    category=Category.TODO,
                    source_text="x",
                    due_text="friday",
                ),
                UpdateAction(entry_id=milk, changes={"priority": 1, "summary": "Buy oat milk", "due_date": "tomorrow"}),
                CompleteAction(entry_id=mom),
                ArchiveAction(entry_id=stretch),
                SnoozeAction(entry_id=milk, until_text="friday"),
            ],
            later(clock, 3),
        )
    assert rows(db_path) != before
    with store.write() as session:
        result = undo_latest(session, later(clock, 4).now)
    assert len(result.reverted) == 5 and result.conflicts == []
    assert rows(db_path) == before


def test_undo_survives_a_restart(db_path: Path, clock: Clock, seeded: list[str], store: Store) -> None:
    before = rows(db_path)
    with store.write() as session:
        execute(session, [CompleteAction(entry_id=seeded[0])], clock)
    store.close()
    reopened = Store.open(db_path)
    with reopened.write() as session:
        undo_latest(session, clock.now)
    assert rows(db_path) == before
    reopened.close()


def test_undo_walks_back_through_batches_newest_first(
    store: Store, clock: Clock, db_path: Path, seeded: list[str]
) -> None:
    snapshots = [rows(db_path)]
    for minutes, action in enumerate(
        [CompleteAction(entry_id=seeded[0]), UpdateAction(entry_id=seeded[0], changes={"priority": 3})], start=1
    ):
        with store.write() as session:
            execute(session, [action], later(clock, minutes))
        snapshots.append(rows(db_path))
    for expected in reversed(snapshots[:-1]):
        with store.write() as session:
            undo_latest(session, clock.now)
        assert rows(db_path) == expected
    with store.write() as session:
        undo_latest(session, clock.now)  # the seeding batch itself
    assert rows(db_path) == []
    with pytest.raises(UndoError, match="nothing to undo"):
        with store.write() as session:
            undo_latest(session, clock.now)


def milk_row(db_path: Path, entry_id: str) -> tuple[object, ...]:
    return next(r for r in rows(db_path) if r[0] == entry_id)


def test_undo_of_one_action_reports_a_conflict_when_a_later_batch_changed_it(
    store: Store, clock: Clock, db_path: Path, seeded: list[str]
) -> None:
    milk, mom, _ = seeded
    with store.write() as session:
        completion = execute(session, [CompleteAction(entry_id=milk), CompleteAction(entry_id=mom)], later(clock, 1))
    with store.write() as session:
        execute(
            session, [UpdateAction(entry_id=milk, changes={"summary": "Buy milk at the corner shop"})], later(clock, 2)
        )
    edited = milk_row(db_path, milk)
    with store.write() as session:
        milk_undo = undo_item(session, completion.applied[0].undo_item_id, clock.now)
        mom_undo = undo_item(session, completion.applied[1].undo_item_id, clock.now)
    assert [r.conflict for r in milk_undo.items] == ["the entry was changed again since; left as it is now"]
    assert milk_row(db_path, milk) == edited
    assert mom_undo.conflicts == [] and Status.ACTIVE.value in milk_row(db_path, mom)
    with store.read() as session:
        latest = history(session)[1]
    assert latest.batch.undone_at is None  # the milk half is still applied
    assert [(i.undone_at is not None, i.undo_conflict is not None) for i in latest.items] == [
        (False, True),
        (True, False),
    ]


def test_undo_of_a_batch_reverts_what_it_can_and_reports_the_rest(
    store: Store, clock: Clock, db_path: Path, seeded: list[str]
) -> None:
    milk, mom, _ = seeded
    before_mom = milk_row(db_path, mom)
    with store.write() as session:
        execute(session, [CompleteAction(entry_id=milk), CompleteAction(entry_id=mom)], later(clock, 1))
    # Another writer (say, a newer Murmur on a synced file) changed milk after the batch.
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE entries SET priority = 1, revision = revision + 1 WHERE id = ?", (milk,))
    changed = milk_row(db_path, milk)
    with store.write() as session:
        result = undo_latest(session, clock.now)
    assert [r.item.entry_id for r in result.conflicts] == [milk]
    assert [i.entry_id for i in result.reverted] == [mom]
    assert milk_row(db_path, milk) == changed and milk_row(db_path, mom) == before_mom


def test_undo_of_an_unknown_or_undone_action_is_an_error(store: Store, clock: Clock, seeded: list[str]) -> None:
    with store.write() as session:
        with pytest.raises(UndoError, match="no action 999 in the history"):
            undo_item(session, 999, clock.now)
        undo_item(session, 1, clock.now)
    with store.write() as session:
        with pytest.raises(UndoError, match="action 1 was already undone"):
            undo_item(session, 1, clock.now)
