"""Undo and import in chunks of short transactions: another writer gets in between, and the result is still the
whole batch (or, when stopped half-way, the rest is taken back by the next undo)."""

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from sqlmodel import Session

from app.changes.executor import execute
from app.changes.imports import ImportOutcome, import_in_chunks
from app.changes.undo import batch_to_undo, latest_batch, undo_in_chunks, undo_latest
from app.domain.actions import CreateAction, UpdateAction
from app.domain.enums import Category, Format
from app.errors import DatabaseBusyError
from app.offline import OfflineInterpreter
from app.portable.files import read_entries
from app.service import MurmurService
from app.store import Store
from tests.support.clock import FIXED_CLOCK

SAID = ["buy milk tomorrow", "call the dentist on friday", "idea: a garden shed", "water the plants"]
TABLES = ("entries", "utterances", "memories", "entries_search", "utterances_search")


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the tables an import writes (and of their search indexes), read by a plain connection."""
    with closing(sqlite3.connect(path)) as db:
        return {table: db.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall() for table in TABLES}


class BetweenWrites:
    """The store, with `between` run after each write transaction commits: another writer's turn."""

    def __init__(self, store: Store, between: Callable[[int], None]) -> None:
        self.store, self.between, self.writes = store, between, 0

    @contextmanager
    def write(self, wait_ms: int | None = None) -> Iterator[Session]:
        with self.store.write(wait_ms) as session:
            yield session
        self.writes += 1
        self.between(self.writes)

    def read(self) -> Iterator[Session]:
        return self.store.read()


def offline_service(store: Store) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)


@pytest.fixture
def export(tmp_path: Path) -> str:
    """Murmur's own export of a list with what was said and a memory: entries, utterances and memories."""
    source = offline_service(Store.open(tmp_path / "source.db"))
    for said in SAID:
        source.submit(said)
    source.remember("my sister is called Anna")
    text = source.export(Format.JSON)
    source.close()
    return text


def imported(store: Store | BetweenWrites, export: str, chunk: int) -> ImportOutcome:
    read = read_entries(Format.JSON, export, FIXED_CLOCK.tz, FIXED_CLOCK.now)
    return import_in_chunks(store, read, FIXED_CLOCK.now, "imported list.json", chunk=chunk)  # type: ignore[arg-type]


def test_an_import_in_chunks_is_one_batch_and_an_undo_in_chunks_takes_all_of_it_back(
    store: Store, db_path: Path, export: str
) -> None:
    offline_service(store).submit("pay the rent")
    before = snapshot(db_path)
    outcome = imported(store, export, chunk=2)
    assert (outcome.added, outcome.utterances, outcome.memories) == (4, 4, 1)
    assert snapshot(db_path) != before
    result = undo_in_chunks(store, latest_batch, FIXED_CLOCK.now, chunk=2)
    assert result.batch.id == outcome.undo_id and len(result.reverted) == 9 and result.conflicts == []
    assert [item.position for item in result.reverted] == list(range(8, -1, -1))  # last first
    assert snapshot(db_path) == before


def test_an_utterance_said_between_import_chunks_is_numbered_apart_and_kept_by_its_undo(
    store: Store, db_path: Path, export: str
) -> None:
    other = offline_service(Store.open(db_path))  # another process's service, on the same file

    def say_something(writes: int) -> None:
        if writes == 1:
            other.submit("feed the cat")

    outcome = imported(BetweenWrites(store, say_something), export, chunk=2)
    assert (outcome.added, outcome.utterances, outcome.memories) == (4, 4, 1)
    said = sorted(row[2] for row in snapshot(db_path)["utterances"])  # rowid, id, text, ...
    assert said == sorted(SAID + ["feed the cat"])  # each its own row: none numbered onto another
    other.undo()  # the cat's batch: the newest
    other.undo()  # the import
    assert [row[2] for row in snapshot(db_path)["utterances"]] == ["feed the cat"]
    assert snapshot(db_path)["entries"] == []
    other.close()


def test_an_undo_stopped_between_chunks_is_carried_on_by_the_next(store: Store, db_path: Path, export: str) -> None:
    before = snapshot(db_path)
    imported(store, export, chunk=100)
    holder = sqlite3.connect(db_path, isolation_level=None)

    def hold_the_lock(writes: int) -> None:
        if writes == 1:
            holder.execute("BEGIN IMMEDIATE")

    impatient = Store.open(db_path, busy_timeout_ms=50)
    with pytest.raises(DatabaseBusyError):
        undo_in_chunks(BetweenWrites(impatient, hold_the_lock), latest_batch, FIXED_CLOCK.now, chunk=3)  # type: ignore[arg-type]
    holder.execute("ROLLBACK")
    halfway = snapshot(db_path)
    assert halfway != before and len(halfway["entries"]) == 1  # the last three actions: three of the four entries
    rest = undo_in_chunks(store, latest_batch, FIXED_CLOCK.now, chunk=3)
    assert len(rest.reverted) == 6 and rest.conflicts == []
    assert snapshot(db_path) == before
    with store.read() as session, pytest.raises(Exception, match="already undone"):
        batch_to_undo(session, rest.batch.id or 0)
    holder.close()
    impatient.close()


def test_an_entry_edited_between_undo_chunks_is_a_conflict_and_kept(store: Store, db_path: Path, export: str) -> None:
    imported(store, export, chunk=100)
    with closing(sqlite3.connect(db_path)) as db:
        first = db.execute("SELECT id FROM entries ORDER BY created_at LIMIT 1").fetchone()[0]

    def edit_it(writes: int) -> None:
        if writes == 1:
            with closing(sqlite3.connect(db_path)) as db, db:
                db.execute("UPDATE entries SET priority = 1, revision = revision + 1 WHERE id = ?", (first,))

    result = undo_in_chunks(BetweenWrites(store, edit_it), latest_batch, FIXED_CLOCK.now, chunk=1)  # type: ignore[arg-type]
    assert [(r.item.entry_id, r.conflict) for r in result.conflicts] == [
        (first, "the entry was changed again since; left as it is now")
    ]
    assert [row[1] for row in snapshot(db_path)["entries"]] == [first]


def test_a_batch_that_made_an_entry_and_then_changed_it_is_undone_whole(store: Store, db_path: Path) -> None:
    """Two actions of one batch on one entry: the set-wise path would see the create as edited since."""
    with store.write() as session:
        made = execute(
            session,
            [CreateAction(content="buy milk", summary="Buy milk", category=Category.TODO, source_text="buy milk")],
            FIXED_CLOCK,
        )
    entry_id = made.applied[0].entry.id
    with store.write() as session:
        execute(session, [UpdateAction(entry_id=entry_id, changes={"priority": 2})], FIXED_CLOCK, batch_id=made.undo_id)
    with store.write() as session:
        result = undo_latest(session, FIXED_CLOCK.now)
    assert len(result.reverted) == 2 and result.conflicts == []
    assert snapshot(db_path)["entries"] == []
