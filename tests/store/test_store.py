"""The store: connection set-up, migrations, schema agreement, short IDs and bad database files."""

import hashlib
import json
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import inspect, text
from sqlmodel import col, select

from app.agent import ledger
from app.changes.executor import execute
from app.changes.undo import undo_latest
from app.domain.actions import CompleteAction
from app.domain.enums import Status, UndoKind, UndoSubject
from app.errors import AmbiguousIdError, EntryNotFoundError, SchemaTooNewError, StoreError
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from app.store.migrations import APPLICATION_ID, MIGRATIONS, migrate
from app.store.models import Entry, Recording, SQLModel, UndoItem, Utterance
from app.store.queries import get_entry, short_id_of, short_ids
from app.sync.engine import SyncReport, note_outcome
from app.sync.status import sync_status
from tests.support.clock import BERLIN, FIXED_CLOCK


def pragma(store: Store, name: str) -> object:
    with store.read() as session:
        return session.connection().exec_driver_sql(f"PRAGMA {name}").scalar()


def test_every_connection_is_set_up(store: Store) -> None:
    assert pragma(store, "journal_mode") == "wal"
    assert pragma(store, "foreign_keys") == 1
    assert pragma(store, "synchronous") == 2  # FULL
    assert pragma(store, "busy_timeout") == 5000


def test_migrations_are_recorded_and_run_once(db_path: Path) -> None:
    Store.open(db_path).close()
    Store.open(db_path).close()
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert [r[0] for r in db.execute("SELECT name FROM migrations")] == [name for name, _ in MIGRATIONS]


def test_a_version_1_database_is_brought_forward_with_its_data(db_path: Path) -> None:
    """A user's database from the first release: built by running only step 1, then opened."""
    db = sqlite3.connect(db_path, isolation_level=None)
    migrate(db, str(db_path), steps=MIGRATIONS[:1])
    db.execute(
        "INSERT INTO utterances (text, source, created_at, outcome) VALUES ('buy milk', 'cli', '2026-01-01', 'done')"
    )
    db.execute(
        "INSERT INTO entries (id, content, summary, category, status, source_text, created_at, updated_at) "
        "VALUES (?, 'Buy milk', 'Buy milk', 'todo', 'active', 'buy milk', '2026-01-01', '2026-01-01')",
        ("a" * 32,),
    )
    db.close()
    store = Store.open(db_path)
    with store.read() as session:
        assert [e.summary for e in session.exec(select(Entry))] == ["Buy milk"]
        assert [u.conversation_id for u in session.exec(select(Utterance))] == [None]
    store.close()
    assert sqlite3.connect(db_path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_a_previous_release_database_is_known_by_its_schema_and_stamped(db_path: Path) -> None:
    """What the release before the application ID made: steps 1 and 2, an utterance waiting in the inbox."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:2])
        db.execute(
            "INSERT INTO utterances (text, source, created_at, outcome) "
            "VALUES ('buy milk', 'cli', '2026-01-01', 'failed')"
        )
        assert db.execute("PRAGMA application_id").fetchone()[0] == 0
    Store.open(db_path).close()
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert db.execute("SELECT text, outcome, lease_pid, lease_until FROM utterances").fetchall() == [
            ("buy milk", "failed", None, None)
        ]


def test_a_new_database_says_it_is_murmur_s_in_its_header(db_path: Path) -> None:
    Store.open(db_path).close()  # the last connection to close writes the log back into the file
    assert db_path.read_bytes()[68:72] == b"MRMR"


def test_another_program_s_database_is_refused_untouched(db_path: Path) -> None:
    with closing(sqlite3.connect(db_path)) as db:
        db.execute("CREATE TABLE entries (id TEXT)")  # a table name alone does not make it Murmur's
        db.commit()
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    with pytest.raises(StoreError, match=f"^not a Murmur database: {db_path}$"):
        Store.open(db_path)
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before


def test_a_newer_schema_is_refused_before_wal_is_switched_on(db_path: Path) -> None:
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path))
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    before = db_path.read_bytes()
    assert before[18:20] == b"\x01\x01"  # rollback journal
    with pytest.raises(SchemaTooNewError):
        Store.open(db_path)
    assert db_path.read_bytes() == before


def test_schema_matches_the_models(store: Store) -> None:
    inspector = inspect(store.engine)
    for table in SQLModel.metadata.sorted_tables:
        in_db = {c["name"] for c in inspector.get_columns(table.name)}
        assert in_db == {c.name for c in table.columns}, table.name


def test_a_future_schema_version_is_refused(db_path: Path) -> None:
    Store.open(db_path).close()
    db = sqlite3.connect(db_path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(SchemaTooNewError, match="newer than this Murmur knows"):
        Store.open(db_path)


def test_a_file_that_is_not_a_database_is_refused_and_left_alone(db_path: Path) -> None:
    db_path.write_text("shopping list: eggs, milk\n" * 100)
    before = db_path.read_bytes()
    with pytest.raises(StoreError, match="is not a Murmur database"):
        Store.open(db_path)
    assert db_path.read_bytes() == before


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        Store.open(tmp_path)


def test_a_locked_database_gives_a_clear_message(db_path: Path) -> None:
    store = Store.open(db_path, busy_timeout_ms=100)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="locked by another program"):
            with store.write() as session:
                session.add(Entry(content="x", summary="x", category="note", source_text="x"))
    finally:
        holder.execute("ROLLBACK")
    with store.read() as session:
        assert session.exec(select(Entry)).all() == []


def add_entry(store: Store, entry_id: str) -> None:
    with store.write() as session:
        session.add(Entry(id=entry_id, content=entry_id, summary=entry_id, category="note", source_text=entry_id))


def test_short_ids_are_the_shortest_unique_prefix_of_at_least_six(store: Store) -> None:
    add_entry(store, "3fa1b2c4" + "0" * 24)
    add_entry(store, "3fa1b2c9" + "0" * 24)
    add_entry(store, "9c0d1e00" + "0" * 24)
    with store.read() as session:
        shorts = short_ids(session)
        assert shorts == {
            "3fa1b2c4" + "0" * 24: "3fa1b2c4",
            "3fa1b2c9" + "0" * 24: "3fa1b2c9",
            "9c0d1e00" + "0" * 24: "9c0d1e",
        }
        assert all(short_id_of(session, full) == short for full, short in shorts.items())


def test_resolving_a_prefix(store: Store) -> None:
    add_entry(store, "3fa1b2c4" + "0" * 24)
    add_entry(store, "3fa1b2c9" + "0" * 24)
    with store.read() as session:
        assert get_entry(session, "3FA1B2C4").id == "3fa1b2c4" + "0" * 24
        with pytest.raises(AmbiguousIdError, match="ID '3fa1b2' is ambiguous: it matches 2 entries"):
            get_entry(session, "3fa1b2")
        with pytest.raises(EntryNotFoundError, match="no entry has ID 'abcdef'"):
            get_entry(session, "abcdef")
        with pytest.raises(EntryNotFoundError, match="not an entry ID"):
            get_entry(session, "milk")
        with pytest.raises(EntryNotFoundError, match="too short"):
            get_entry(session, "3f")


def test_the_previous_release_database_gains_search_memory_and_sessions(db_path: Path) -> None:
    """What the release before search and memory made (steps 1-3): its entries and what was said become
    searchable, nothing is lost, and the new tables are there."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:3])
        db.execute(
            "INSERT INTO utterances (text, source, created_at, outcome) "
            "VALUES ('the boiler needs a service', 'cli', '2026-01-01', 'done')"
        )
        db.execute(
            "INSERT INTO entries (id, content, summary, category, status, source_text, created_at, updated_at) "
            "VALUES (?, 'Book the boiler service', 'Book the boiler service', 'todo', 'active', 'x', "
            "'2026-01-01', '2026-01-01')",
            ("b" * 32,),
        )
    Store.open(db_path).close()
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT entry_id FROM entries_search WHERE entries_search MATCH 'boilers'").fetchall() == [
            ("b" * 32,)
        ]
        assert db.execute("SELECT rowid FROM utterances_search WHERE utterances_search MATCH 'service'").fetchall() == [
            (1,)
        ]
        assert db.execute("SELECT count(*) FROM memories").fetchone() == (0,)
        assert db.execute("SELECT subject FROM undo_items").fetchall() == []
        db.execute("UPDATE entries SET summary = 'Pay the plumber' WHERE id = ?", ("b" * 32,))  # kept in step
        assert db.execute("SELECT count(*) FROM entries_search WHERE entries_search MATCH 'boiler'").fetchone() == (1,)
        assert db.execute("SELECT count(*) FROM entries_search WHERE entries_search MATCH 'plumber'").fetchone() == (1,)
        db.execute("UPDATE entries SET content = 'Pay the plumber' WHERE id = ?", ("b" * 32,))
        assert db.execute("SELECT count(*) FROM entries_search WHERE entries_search MATCH 'boiler'").fetchone() == (0,)


def test_the_previous_release_database_gains_tool_protocols(db_path: Path) -> None:
    """What the release before the text protocol made (steps 1-4): its logged requests are kept (offering no
    tools on record), and what is learned of a model can be stored."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:4])
        db.execute(
            "INSERT INTO llm_requests (created_at, base_url, model, turn, request, prompt_tokens, completion_tokens, "
            "cost_usd) VALUES ('2026-01-01', 'http://localhost:8080/v1', 'small', 1, '[]', 10, 2, 0)"
        )
    Store.open(db_path).close()
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT model, tools, protocol FROM llm_requests").fetchall() == [("small", None, None)]
        db.execute(
            "INSERT INTO model_protocols VALUES ('http://localhost:8080/v1', 'small', 'text', 'why', '2026-01-02')"
        )
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("INSERT INTO model_protocols VALUES ('u', 'm', 'carrier pigeon', 'why', '2026-01-02')")


def test_the_previous_release_database_gains_repeat_rules(db_path: Path) -> None:
    """What the release before repeat rules made (steps 1-5): a weekly habit keeps its repeat as a rule, the
    old column is gone, undoing a change made back then still works, and completing the habit rolls it on."""
    habit_id = "c" * 32
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:5])
        db.execute(
            "INSERT INTO entries (id, content, summary, category, due_at, cadence, status, source_text, created_at, "
            "updated_at, revision) VALUES (?, 'Bins out', 'Bins out', 'habit', '2026-11-16T08:00:00.000000+00:00', "
            "'weekly', 'active', 'x', '2026-01-01', '2026-01-01', 2)",
            (habit_id,),
        )
        before = dict(zip(("id", "summary", "cadence"), (habit_id, "Put the bins out", "weekly"), strict=True))
        db.execute("INSERT INTO undo_batches (label, created_at) VALUES ('edited by hand', '2026-01-01')")
        db.execute(
            "INSERT INTO undo_items (batch_id, position, kind, entry_id, description, before_row, after_revision) "
            "VALUES (1, 0, 'update', ?, '{}', ?, 2)",
            (habit_id, json.dumps(before)),
        )
    store = Store.open(db_path)
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT recurrence FROM entries").fetchall() == [("FREQ=WEEKLY",)]
        assert "cadence" not in [row[1] for row in db.execute("PRAGMA table_info(entries)")]
    with store.write() as session:
        result = execute(session, [CompleteAction(entry_id=habit_id)], FIXED_CLOCK)
        assert result.applied[0].entry.due_at == datetime(2026, 11, 23, 9, tzinfo=BERLIN)  # Mondays, 09:00 Berlin
    for _ in range(2):  # the completion, then the edit made before the upgrade (its row names no old column)
        with store.write() as session:
            undo_latest(session, FIXED_CLOCK.now)
    with store.read() as session:
        assert (get_entry(session, habit_id).summary, get_entry(session, habit_id).recurrence) == (
            "Put the bins out",
            "FREQ=WEEKLY",
        )
    store.close()


def test_the_previous_release_database_gains_inbox_dismissals(db_path: Path) -> None:
    """What the release before Dismiss made (steps 1-6): an utterance waiting in the inbox, a memory's change
    in the history. Both are kept, the history's IDs and counter too; the utterance can be dismissed and undone."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:6])
        db.execute(
            "INSERT INTO utterances (text, source, created_at, outcome, error, attempts) "
            "VALUES ('eggs are done', 'voice', '2026-01-01', 'failed', 'no open entry matches eggs', 1)"
        )
        db.execute("INSERT INTO undo_batches (label, created_at) VALUES ('remembered', '2026-01-01')")
        db.execute(
            "INSERT INTO undo_items (id, batch_id, position, kind, entry_id, description, after_revision, subject) "
            "VALUES (41, 1, 0, 'remember', ?, '{\"text\": \"x\"}', 1, 'memory')",
            ("d" * 32,),
        )
    store = Store.open(db_path)
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)
    [waiting] = service.inbox()
    assert (waiting.text, waiting.revision, waiting.dismissed_at) == ("eggs are done", 1, None)
    dismissal = service.dismiss(waiting.id or 0)
    assert service.inbox() == [] and dismissal.undo_item_id == 42  # after the old history, none reused
    [dismissed, remembered] = service.history()
    assert [i.id for i in remembered.items] == [41] and remembered.items[0].subject is UndoSubject.MEMORY
    service.undo()
    assert [u.text for u in service.inbox()] == ["eggs are done"]
    with closing(sqlite3.connect(db_path)) as db, pytest.raises(sqlite3.IntegrityError):
        db.execute("UPDATE undo_items SET subject = 'nonsense'")
    store.close()


def test_the_previous_release_database_gains_checklists(db_path: Path) -> None:
    """What the release before checklists made (steps 1-8): a shopping todo of then has its items read from its
    summary, ticked one by one (each queued for sync), and undoing a change made back then still works."""
    list_id = "e" * 32
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:8])
        db.execute(
            "INSERT INTO entries (id, content, summary, category, status, source_text, created_at, updated_at, "
            "revision) VALUES (?, 'Buy eggs and bread', 'Buy eggs and bread', 'todo', 'active', 'x', '2026-01-01', "
            "'2026-01-01', 2)",
            (list_id,),
        )
        before = {"id": list_id, "summary": "Buy eggs", "revision": 1}
        db.execute("INSERT INTO undo_batches (label, created_at) VALUES ('edited by hand', '2026-01-01')")
        db.execute(
            "INSERT INTO undo_items (batch_id, position, kind, entry_id, description, before_row, after_revision) "
            "VALUES (1, 0, 'update', ?, '{}', ?, 2)",
            (list_id, json.dumps(before)),
        )
        db.execute("DELETE FROM sync_outbox")
    store = Store.open(db_path)
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)
    assert service.tick_item(list_id, "the eggs").applied[0].note == "1 of 2 done"
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT items FROM entries").fetchall() == [
            ('[{"text": "eggs", "done": true}, {"text": "bread", "done": false}]',)
        ]
        assert db.execute("SELECT entry_id FROM sync_outbox").fetchall() == [(list_id,)]
    service.undo()
    service.undo()  # the edit made before the upgrade: its row names no items
    with store.read() as session:
        entry = get_entry(session, list_id)
        assert (entry.summary, entry.items) == ("Buy eggs", None)


def test_the_previous_release_database_gains_model_standings(db_path: Path) -> None:
    """What the release before model standings made (steps 1-8): its logged requests keep their rows, with no
    request settings and tokens that were counted, and a model can be set aside and taken back."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:8])
        db.execute(
            "INSERT INTO llm_requests (created_at, base_url, model, turn, request, prompt_tokens, completion_tokens, "
            "cost_usd) VALUES ('2026-01-01', 'http://localhost:8080/v1', 'small', 1, '[]', 10, 2, 0)"
        )
    store = Store.open(db_path)
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT model, sent_with, tokens_estimated FROM llm_requests").fetchall() == [
            ("small", None, 0)
        ]
    ledger.set_aside(store, "http://localhost:8080/v1", "small", "it cannot call tools")
    assert ledger.set_aside_reason(store, "http://localhost:8080/v1", "small") == "it cannot call tools"
    ledger.reinstate(store, "http://localhost:8080/v1", "small")
    assert ledger.set_aside_reason(store, "http://localhost:8080/v1", "small") is None


def test_the_previous_release_database_gains_search_keys_and_undoes_an_import_whose_entry_is_queued(
    db_path: Path,
) -> None:
    """What the release before (steps 1-8) made: entries searchable, one naming an utterance and queued for sync.
    Their search rows are now found by entry ID, and deleting the utterance (as undoing an import does) sets the
    queued entry's reference null instead of failing on the outbox."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:8])
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(
            "INSERT INTO utterances (text, source, created_at, outcome) VALUES ('x', 'cli', '2026-01-01', 'done')"
        )
        for entry_id, summary in (("a" * 32, "Call the plumber"), ("b" * 32, "Buy oat milk")):
            db.execute(
                "INSERT INTO entries (id, content, summary, category, status, source_text, utterance_id, created_at, "
                "updated_at) VALUES (?, ?, ?, 'todo', 'active', 'x', 1, '2026-01-01', '2026-01-01')",
                (entry_id, summary, summary),
            )
    store = Store.open(db_path)
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)
    assert [e.summary for e in service.entries(statuses=[Status.ACTIVE], search="plumber")] == ["Call the plumber"]
    with store.write() as session:
        session.execute(
            text("UPDATE entries SET summary = 'Call the electrician', content = '' WHERE id = :id"), {"id": "a" * 32}
        )
        session.execute(text("DELETE FROM entries WHERE id = :id"), {"id": "b" * 32})
        session.execute(text("DELETE FROM utterances WHERE id = 1"))
    assert service.entries(statuses=[Status.ACTIVE], search="plumber") == []
    assert service.entries(statuses=[Status.ACTIVE], search="milk") == []
    assert [e.utterance_id for e in service.entries(statuses=[Status.ACTIVE], search="electrician")] == [None]
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT entry_id, summary FROM entries_search").fetchall() == [
            ("a" * 32, "Call the electrician")
        ]
        assert db.execute("SELECT entry_id FROM entries_search_rows").fetchall() == [("a" * 32,)]
        assert {row[0] for row in db.execute("SELECT entry_id FROM sync_outbox")} == {"a" * 32, "b" * 32}
    store.close()


def test_the_previous_release_database_gains_sync_failures_shown(db_path: Path) -> None:
    """What the release before (steps 1-11) made, synced once and failed once: its sync state keeps its row, with
    no time for the error it noted and nothing skipped, and a sync's outcome can be noted on it."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:11])
        db.execute(
            "INSERT INTO sync_state (id, calendar_url, calendar_name, last_sync_at, last_error) "
            "VALUES (1, 'https://dav.example/alice/murmur/', 'Murmur', '2026-01-01T10:00:00+00:00', 'offline')"
        )
    store = Store.open(db_path)
    with store.read() as session:
        status = sync_status(session)
    assert (status.calendar_url, status.last_error, status.last_error_at, status.skipped) == (
        "https://dav.example/alice/murmur/", "offline", None, ()
    )  # fmt: skip
    report = SyncReport(problems=["/alice/murmur/x.ics: skipped"], unread=["/alice/murmur/x.ics"])
    note_outcome(store, None, datetime(2026, 2, 1, tzinfo=UTC), report)
    with store.read() as session:
        assert sync_status(session).skipped == ("/alice/murmur/x.ics: skipped",)
    store.close()


def test_the_previous_release_database_gains_since_when_sync_fails(db_path: Path) -> None:
    """What the release before (steps 1-13) made, failing: the failure it noted is the first of the row, and a
    new failure keeps that time."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:13])
        db.execute(
            "INSERT INTO sync_state (id, calendar_url, last_error, last_error_at) "
            "VALUES (1, '', 'no password for the sync server', '2026-01-01T10:00:00+00:00')"
        )
    store = Store.open(db_path)
    first = datetime(2026, 1, 1, 10, tzinfo=UTC)
    with store.read() as session:
        status = sync_status(session)
    assert (status.failing_since, status.remedy) == (first, None)
    note_outcome(store, "no password for the sync server", datetime(2026, 2, 1, tzinfo=UTC))
    with store.read() as session:
        assert sync_status(session).failing_since == first
    store.close()


def test_the_previous_release_database_gains_recordings(db_path: Path) -> None:
    """What the release before (steps 1-15) made, with a dismissal in its history: it gains the recordings table,
    the dismissal still undoes, and the sound of an utterance can be forgotten undoably."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:15])
        db.execute(
            "INSERT INTO utterances (id, text, source, created_at, outcome, attempts) "
            "VALUES (1, 'eggs are done', 'voice', '2026-01-01T10:00:00+00:00', 'failed', 1)"
        )
        db.execute(
            "INSERT INTO undo_batches (id, label, created_at) VALUES (5, 'dismissed', '2026-01-01T10:01:00+00:00')"
        )
        db.execute(
            "INSERT INTO undo_items (id, batch_id, position, kind, entry_id, description, before_row, after_revision,"
            " subject) VALUES (9, 5, 0, 'dismiss', '1', '{}', '{\"id\": 1, \"revision\": 1}', 1, 'utterance')"
        )
    store = Store.open(db_path)
    with store.read() as session:
        [item] = session.exec(select(UndoItem)).all()
        assert (item.id, item.subject, item.kind) == (9, UndoSubject.UTTERANCE, UndoKind.DISMISS)
        assert session.exec(select(Recording)).all() == []
    with store.write() as session:
        session.add(Recording(utterance_id=1, file="1-a.flac", bytes=10, seconds=1.0))
        session.add(UndoItem(batch_id=5, position=1, kind=UndoKind.FORGET_AUDIO, entry_id="1", description="{}",
                             subject=UndoSubject.RECORDING, after_revision=2))  # fmt: skip
    with store.read() as session:
        assert [i.id for i in session.exec(select(UndoItem).order_by(col(UndoItem.id)))] == [9, 10]
    store.close()
