"""The store's change watch: it sees commits by other connections and processes, and only those."""

import sqlite3
from contextlib import closing
from pathlib import Path

from sqlmodel import select

from app.domain.enums import Category
from app.store import Store
from app.store.models import Entry


def add_entry(store: Store, text: str) -> None:
    with store.write() as session:
        session.add(Entry(content=text, summary=text, category=Category.NOTE, source_text=text))


def test_the_first_look_says_changed_then_nothing_until_a_commit(store: Store) -> None:
    assert store.changed()  # never looked: anything may have changed
    assert not store.changed()
    with store.read() as session:  # reading commits nothing
        session.exec(select(Entry)).all()
    assert not store.changed()


def test_a_commit_from_a_plain_sqlite_connection_is_seen_once(store: Store, db_path: Path) -> None:
    store.changed()
    with closing(sqlite3.connect(db_path)) as other, other:
        other.execute(
            "INSERT INTO utterances (text, source, created_at, outcome) VALUES ('hi', 'cli', '2026-01-01', 'done')"
        )
    assert store.changed()
    assert not store.changed()


def test_a_rolled_back_transaction_is_not_a_change(store: Store, db_path: Path) -> None:
    store.changed()
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE entries SET summary = 'y'")
        other.execute("ROLLBACK")
    assert not store.changed()


def test_a_second_store_s_write_is_seen_and_so_is_its_own(store: Store, db_path: Path) -> None:
    """Another process's Store, and this Store's own pooled connections: both are "another connection"."""
    store.changed()
    second = Store.open(db_path)
    try:
        add_entry(second, "buy bread")
    finally:
        second.close()
    assert store.changed()
    add_entry(store, "buy milk")
    assert store.changed()
    assert not store.changed()


def test_a_closed_store_says_nothing_changed_and_opens_nothing(store: Store, db_path: Path) -> None:
    store.changed()
    store.close()
    add_entry(Store.open(db_path), "buy bread")
    assert not store.changed()


def test_a_database_that_went_away_is_no_change_and_is_not_recreated(tmp_path: Path) -> None:
    path = tmp_path / "gone.db"
    store = Store.open(path)
    store.close()
    for file in tmp_path.glob("gone.db*"):
        file.unlink()
    reopened = Store(path)  # as the store was before its file was deleted: the look must not make a new one
    assert not reopened.changed()
    assert not path.exists()
    reopened.close()
