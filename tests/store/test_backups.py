"""Backups of real SQLite files: standalone and owner-only, one a day and rotated, checked before a restore,
taken before a migration, and a restore that can itself be taken back."""

import re
import sqlite3
import stat
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from app.domain.enums import Category
from app.errors import OutputPathError, SchemaTooNewError, StoreError
from app.store import Store
from app.store.backups import (
    BackupKind,
    back_up,
    backups_dir,
    check_backup,
    list_backups,
    prune,
    restore_backup,
    take_daily_if_due,
)
from app.store.migrations import APPLICATION_ID, MIGRATIONS, migrate
from app.store.models import Entry
from tests.support.clock import BERLIN

NOW = datetime(2026, 11, 24, 7, 0, tzinfo=UTC)


def _add(store: Store, *summaries: str) -> None:
    with store.write() as session:
        for summary in summaries:
            session.add(Entry(content=summary, summary=summary, category=Category.TODO, source_text=summary))


def _summaries(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as db:
        return sorted(row[0] for row in db.execute("SELECT summary FROM entries"))


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_backup_is_a_whole_standalone_copy_for_the_user_alone(store: Store, db_path: Path) -> None:
    _add(store, "Buy milk", "Call mom")

    backup = back_up(db_path, BackupKind.MANUAL, NOW)

    assert backup.path.parent == backups_dir(db_path) and backup.path.name == "murmur-20261124T070000Z-manual.db"
    assert _summaries(backup.path) == ["Buy milk", "Call mom"]
    assert not Path(f"{backup.path}-wal").exists()
    with closing(sqlite3.connect(backup.path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert (_mode(backup.path), _mode(backup.path.parent)) == (0o600, 0o700)
    assert check_backup(backup.path) == len(MIGRATIONS)
    again = back_up(db_path, BackupKind.MANUAL, NOW)  # the same second: a name of its own
    assert again.path != backup.path and len(list_backups(db_path)) == 2


def test_a_backup_replaces_a_file_only_with_force_and_names_a_missing_folder(
    store: Store, db_path: Path, tmp_path: Path
) -> None:
    taken = tmp_path / "mine.db"
    taken.write_text("my own file")
    with pytest.raises(OutputPathError, match="exists; add --force to replace it"):
        back_up(db_path, BackupKind.MANUAL, NOW, taken)
    assert taken.read_text() == "my own file"
    with pytest.raises(OutputPathError, match="does not exist"):
        back_up(db_path, BackupKind.MANUAL, NOW, tmp_path / "nowhere" / "b.db")
    back_up(db_path, BackupKind.MANUAL, NOW, taken, force=True)
    assert check_backup(taken) == len(MIGRATIONS) and _mode(taken) == 0o600


def test_one_daily_backup_per_local_day(store: Store, db_path: Path) -> None:
    first = take_daily_if_due(db_path, NOW, BERLIN)
    assert first is not None and first.kind is BackupKind.DAILY
    assert take_daily_if_due(db_path, NOW + timedelta(hours=15), BERLIN) is None  # 23:00 in Berlin: the same day
    assert take_daily_if_due(db_path, NOW + timedelta(hours=17), BERLIN) is not None  # 01:00 the next day
    assert take_daily_if_due(db_path.with_name("none.db"), NOW, BERLIN) is None


def test_rotation_keeps_seven_days_and_four_weeks_and_everything_taken_by_hand(store: Store, db_path: Path) -> None:
    manual = back_up(db_path, BackupKind.MANUAL, NOW - timedelta(days=90))
    migrations = [back_up(db_path, BackupKind.PRE_MIGRATION, NOW - timedelta(days=d)) for d in range(8)]
    restores = [back_up(db_path, BackupKind.PRE_RESTORE, NOW - timedelta(days=d, hours=1)) for d in range(7)]
    ahead = back_up(db_path, BackupKind.DAILY, NOW + timedelta(days=400))  # taken while the clock was ahead
    day = NOW - timedelta(days=59)
    for _ in range(60):  # two months of daily use, one backup a day
        take_daily_if_due(db_path, day, BERLIN)
        day += timedelta(days=1)

    kept = list_backups(db_path)
    dailies = {b.taken_at.date() for b in kept if b.kind is BackupKind.DAILY and b.path != ahead.path}
    last_week = {(NOW - timedelta(days=d)).date() for d in range(7)}  # Wed 18 to Tue 24 November
    mondays = {datetime(2026, 11, day).date() for day in (2, 9, 16, 23)}  # each week's first, four weeks
    assert dailies == last_week | mondays
    assert manual.path in {b.path for b in kept} and ahead.path in {b.path for b in kept}
    assert {b.path for b in kept if b.kind is BackupKind.PRE_MIGRATION} == {b.path for b in migrations[:5]}
    assert {b.path for b in kept if b.kind is BackupKind.PRE_RESTORE} == {b.path for b in restores[:5]}
    assert prune(db_path, NOW, BERLIN) == []  # nothing more to remove


def test_check_refuses_what_cannot_be_restored(store: Store, db_path: Path, tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database at all")
    with pytest.raises(StoreError, match="not a database Murmur can restore"):
        check_backup(text)
    foreign = tmp_path / "other.db"
    with closing(sqlite3.connect(foreign)) as db:
        db.execute("CREATE TABLE photos (id INTEGER)")
    with pytest.raises(StoreError, match="is not a Murmur database"):
        check_backup(foreign)
    _add(store, *(f"Entry {n} " + "x" * 300 for n in range(400)))
    damaged = back_up(db_path, BackupKind.MANUAL, NOW).path
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 4096] = b"\xff" * 4096  # a page in the middle
    damaged.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged|not a database Murmur can restore"):
        check_backup(damaged)
    with pytest.raises(StoreError, match="damaged|not a database Murmur can restore"):
        restore_backup(db_path, damaged, NOW)
    newer = back_up(db_path, BackupKind.MANUAL, NOW).path
    with closing(sqlite3.connect(newer)) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(SchemaTooNewError, match="made by a newer Murmur"):
        check_backup(newer)
    before = _summaries(db_path)
    with pytest.raises(SchemaTooNewError):
        restore_backup(db_path, newer, NOW)
    assert _summaries(db_path) == before and not any(b.kind is BackupKind.PRE_RESTORE for b in list_backups(db_path))


def test_a_restore_brings_the_old_data_back_and_can_be_taken_back(store: Store, db_path: Path) -> None:
    _add(store, "Buy milk")
    backup = back_up(db_path, BackupKind.MANUAL, NOW)
    _add(store, "Call mom")

    before = restore_backup(db_path, backup.path, NOW + timedelta(minutes=1))

    with store.read() as session:  # the open store sees the restored data
        assert [e.summary for e in session.exec(select(Entry)).all()] == ["Buy milk"]
    assert before.kind is BackupKind.PRE_RESTORE and _summaries(before.path) == ["Buy milk", "Call mom"]
    restore_backup(db_path, before.path, NOW + timedelta(minutes=2))
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reopened = Store.open(db_path)  # a Store opened afterwards reads the data put back
    with reopened.read() as session:
        assert sorted(e.summary for e in session.exec(select(Entry)).all()) == ["Buy milk", "Call mom"]
    reopened.close()


def _old_database(path: Path, steps: int) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, str(path), steps=MIGRATIONS[:steps])


def test_an_older_database_is_backed_up_before_it_is_migrated_and_a_new_one_is_not(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    _old_database(old, 6)
    Store.open(old).close()
    taken = list_backups(old)
    assert [b.kind for b in taken] == [BackupKind.PRE_MIGRATION]
    with closing(sqlite3.connect(taken[0].path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 6  # the data as it was

    new = tmp_path / "fresh" / "new.db"
    Store.open(new).close()
    assert list_backups(new) == []


@pytest.mark.parametrize("steps", range(1, len(MIGRATIONS) + 1))
def test_an_older_backup_is_migrated_as_it_is_restored(store: Store, db_path: Path, tmp_path: Path, steps: int) -> None:
    old = tmp_path / "old.db"
    _old_database(old, steps)
    with closing(sqlite3.connect(old)) as db, db:
        db.execute(
            "INSERT INTO entries (id, content, summary, category, status, source_text, created_at, updated_at) "
            "VALUES (?, 'Pay rent', 'Pay rent', 'todo', 'active', 'pay rent', ?, ?)",
            ("a" * 32, NOW.isoformat(), NOW.isoformat()),
        )

    restore_backup(db_path, old, NOW)

    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert _summaries(db_path) == ["Pay rent"]


def _set_version(path: Path, version: int) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {version}")


def test_a_backup_that_cannot_be_brought_up_to_date_is_refused_and_nothing_changes(store: Store, db_path: Path) -> None:
    _add(store, "Buy milk")
    half_migrated = back_up(db_path, BackupKind.MANUAL, NOW).path
    _set_version(half_migrated, 3)  # its tables are newer than the number says: step 4 cannot run again

    with pytest.raises(StoreError, match="cannot be brought up to date; nothing was changed"):
        restore_backup(db_path, half_migrated, NOW)

    assert _summaries(db_path) == ["Buy milk"]
    assert not any(b.kind is BackupKind.PRE_RESTORE for b in list_backups(db_path))
    Store.open(db_path).close()  # the list still opens
    assert [p.name for p in db_path.parent.iterdir() if p.name.startswith(".")] == []  # no copy left behind


def test_a_backup_missing_tables_of_its_schema_is_refused(store: Store, db_path: Path) -> None:
    _add(store, "Buy milk")
    gutted = back_up(db_path, BackupKind.MANUAL, NOW).path
    with closing(sqlite3.connect(gutted)) as db:
        db.execute("DROP TABLE undo_items")

    with pytest.raises(StoreError, match="lacks Murmur's table undo_items"):
        restore_backup(db_path, gutted, NOW)
    assert _summaries(db_path) == ["Buy milk"]


# What someone may add to a backup: each would run unseen on every change to the restored list, in no undo log,
# and be copied into every later backup.
HIDDEN_COPY = """
    CREATE TABLE seen (summary TEXT);
    CREATE TRIGGER keep_a_copy AFTER INSERT ON entries BEGIN INSERT INTO seen VALUES (new.summary); END
"""
WIPE = """CREATE TRIGGER wipe_all AFTER INSERT ON entries WHEN new.summary LIKE '%wipe%'
    BEGIN UPDATE entries SET status = 'archived'; END"""
SYNC_NOTHING = """
    DROP TRIGGER entries_sync_insert;
    CREATE TRIGGER entries_sync_insert AFTER INSERT ON entries BEGIN SELECT 1; END
"""
RESERVED_NAME = """
    PRAGMA writable_schema = ON;
    INSERT INTO sqlite_master VALUES ('trigger', 'sqlite_wipe', 'entries', 0,
        'CREATE TRIGGER sqlite_wipe AFTER INSERT ON entries BEGIN DELETE FROM entries; END')
"""


@pytest.mark.parametrize(
    ("tampering", "refused"),
    [
        (HIDDEN_COPY, "holds a trigger 'keep_a_copy' that Murmur did not make; nothing was changed"),
        (WIPE, "holds a trigger 'wipe_all' that Murmur did not make; nothing was changed"),
        ("CREATE VIEW open_entries AS SELECT * FROM entries", "holds a view 'open_entries' that Murmur did not make"),
        ("CREATE INDEX by_summary ON entries (summary)", "holds an index 'by_summary' that Murmur did not make"),
        ("CREATE TABLE seen (summary TEXT)", "holds a table 'seen' that Murmur did not make"),
        (SYNC_NOTHING, "holds a trigger 'entries_sync_insert' changed from the one Murmur made; nothing was changed"),
        ("DROP TRIGGER entries_sync_delete", "lacks Murmur's trigger entries_sync_delete: it is not a whole backup"),
        (RESERVED_NAME, "holds a trigger 'sqlite_wipe' that Murmur did not make"),
    ],
    ids=["hidden copy", "wipe", "view", "index", "table", "altered", "missing", "reserved name"],
)
def test_a_backup_holding_a_schema_other_than_murmurs_is_refused_and_nothing_changes(
    store: Store, db_path: Path, tampering: str, refused: str
) -> None:
    _add(store, "Buy milk")
    tampered = back_up(db_path, BackupKind.MANUAL, NOW).path
    with closing(sqlite3.connect(tampered)) as db:
        db.executescript(tampering)

    with pytest.raises(StoreError, match=re.escape(f"{tampered} {refused}")):
        restore_backup(db_path, tampered, NOW)

    assert _summaries(db_path) == ["Buy milk"]
    assert not any(b.kind is BackupKind.PRE_RESTORE for b in list_backups(db_path))
    assert [p.name for p in db_path.parent.iterdir() if p.name.startswith(".")] == []  # no copy left behind


def test_what_sqlite_keeps_by_itself_does_not_stop_a_restore(store: Store, db_path: Path) -> None:
    _add(store, "Buy milk")
    analysed = back_up(db_path, BackupKind.MANUAL, NOW).path
    with closing(sqlite3.connect(analysed)) as db:
        db.execute("ANALYZE")  # statistics tables, by another tool or the sqlite3 shell
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE 'sqlite_stat%'").fetchone()[0] > 0
    _add(store, "Call mom")

    restore_backup(db_path, analysed, NOW)

    assert _summaries(db_path) == ["Buy milk"]


@pytest.mark.parametrize("tables", [False, True], ids=["0 bytes", "stamped, no tables"])
def test_an_empty_file_is_not_a_backup(store: Store, db_path: Path, tmp_path: Path, tables: bool) -> None:
    _add(store, "Buy milk")
    empty = tmp_path / "empty.db"
    empty.touch()
    if tables:
        with closing(sqlite3.connect(empty)) as db:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # Murmur's, and nothing else

    with pytest.raises(StoreError, match="holds no list: it is not a backup"):
        restore_backup(db_path, empty, NOW)
    assert _summaries(db_path) == ["Buy milk"]


@pytest.mark.parametrize("damage", ["version reset", "not a database"])
def test_a_backup_can_be_restored_over_a_database_that_no_longer_opens(
    store: Store, db_path: Path, damage: str
) -> None:
    _add(store, "Buy milk")
    good = back_up(db_path, BackupKind.MANUAL, NOW).path
    store.close()
    if damage == "version reset":
        _set_version(db_path, 0)
    else:
        for sidecar in ("-wal", "-shm"):
            Path(f"{db_path}{sidecar}").unlink(missing_ok=True)
        db_path.write_bytes(b"these bytes are no database " * 100)
    damaged = db_path.read_bytes()
    with pytest.raises(StoreError):
        Store.open(db_path)

    before = restore_backup(db_path, good, NOW + timedelta(minutes=1))

    assert _summaries(db_path) == ["Buy milk"]
    assert before is not None and before.kind is BackupKind.PRE_RESTORE
    if damage == "not a database":
        assert before.path.read_bytes() == damaged  # what was there is kept as it was, byte for byte
    Store.open(db_path).close()
