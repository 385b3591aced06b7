"""privacy.keep_unredacted puts secrets back in the local database only: a model that writes placeholders into
an entry's summary gets the originals there, but the exports for other apps carry the placeholders; an edit by
hand clears that. Against the real local server, on a real SQLite file; sync is in tests/sync."""

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.config import PrivacySettings
from app.portable.common import Format
from app.store import Store
from app.store.migrations import MIGRATIONS, migrate
from tests.support.agent_service import ServiceFactory, all_entries
from tests.support.llm_server import FakeLlmServer
from tests.support.planted_secrets import CARD, HOSTILE, PASSWORD, SAID

OTHER_APPS = [Format.ICS, Format.CSV, Format.MARKDOWN, Format.TODOTXT]


@pytest.mark.parametrize("fmt", OTHER_APPS)
def test_exports_for_other_apps_keep_the_placeholders(agent_service: ServiceFactory, store: Store, fmt: Format) -> None:
    with FakeLlmServer(HOSTILE) as server:
        service = agent_service(server, privacy=PrivacySettings(keep_unredacted=True))
        service.submit(SAID)
    [entry] = all_entries(store)
    assert entry.summary == f"Pay with {CARD} wifi {PASSWORD}"  # kept locally, as the user chose
    exported = service.export(fmt)
    assert "4242" not in exported and PASSWORD not in exported
    assert "card number" in exported
    assert [e.summary for e in all_entries(store)] == [entry.summary]  # the stored entry is left as it is


def test_an_edit_by_hand_makes_the_words_the_users(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer(HOSTILE) as server:
        service = agent_service(server, privacy=PrivacySettings(keep_unredacted=True))
        service.submit(SAID)
    [entry] = all_entries(store)
    service.edit([entry.id], {"priority": 1})  # not the words: still covered
    assert "4242" not in service.export(Format.CSV)
    service.edit([entry.id], {"summary": f"Pay rent with {CARD}"})
    assert CARD in service.export(Format.CSV)


def test_without_keep_unredacted_nothing_is_noted(agent_service: ServiceFactory, store: Store) -> None:
    with FakeLlmServer(HOSTILE) as server:
        agent_service(server).submit(SAID)
    [entry] = all_entries(store)
    assert entry.summary == "Pay with [card number] wifi [password]"
    with closing(sqlite3.connect(store.path)) as db:
        assert db.execute("SELECT count(*) FROM entry_originals").fetchone() == (0,)


def test_a_database_of_the_previous_schema_gains_the_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, str(path), steps=MIGRATIONS[:-1])
        db.execute(
            "INSERT INTO entries (id, content, summary, category, status, source_text, created_at, updated_at) "
            "VALUES (?, 'Buy milk', 'Buy milk', 'todo', 'active', 'buy milk', '2026-01-01', '2026-01-01')",
            ("a" * 32,),
        )
    Store.open(path).close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT summary FROM entries").fetchall() == [("Buy milk",)]
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("INSERT INTO entry_originals VALUES (?, '1234', '[password]')", ("a" * 32,))
        db.execute("DELETE FROM entries")  # an entry's notes go with it
        assert db.execute("SELECT count(*) FROM entry_originals").fetchone() == (0,)
