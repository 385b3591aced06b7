"""Entries as plain rows read straight from SQLite, for what runs before every request (the context,
search_entries): many times faster than ORM objects at thousands of entries."""

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from app.domain.enums import Category, Status
from app.store.column_types import to_db_time
from app.store.queries import short_id_among


@dataclass(frozen=True)
class EntryRow:
    """What a line shows of an entry (app/memory/lines.py)."""

    id: str
    summary: str
    category: Category
    priority: int | None
    due_at: datetime | None
    due_text: str | None
    recurrence: str | None
    status: Status
    items: str | None


_COLUMNS = (
    "id, summary, category, priority, due_at, due_text, recurrence, items, "
    # a snoozed entry whose time has come reads active (as app.store.queries.status_at)
    "CASE WHEN status = 'snoozed' AND snooze_until <= :now THEN 'active' ELSE status END AS live"
)
OPEN_CONDITION = "live IN ('active', 'snoozed')"


class EntryReader:
    """Raw reads on the session's own connection (its snapshot), times as the store writes them."""

    def __init__(self, session: Session, now: datetime) -> None:
        self.db: sqlite3.Connection = session.connection().connection.dbapi_connection  # type: ignore[assignment]
        self.now = now

    def rows(self, condition: str, join: str = "", **params: Any) -> list[EntryRow]:
        """Entries `WHERE condition` (which may go on with ORDER BY and LIMIT), `live` their status now;
        `join` adds a table to filter or sort by."""
        query = f"SELECT {_COLUMNS} FROM entries {join} WHERE {condition}"
        return [_row(values) for values in self.db.execute(query, {"now": to_db_time(self.now), **params})]

    def count(self, condition: str, join: str = "", **params: Any) -> int:
        query = f"SELECT count(*) FROM (SELECT {_COLUMNS} FROM entries {join} WHERE {condition})"
        return int(self.db.execute(query, {"now": to_db_time(self.now), **params}).fetchone()[0])

    def open_total(self) -> int:
        query = "SELECT count(*) FROM entries WHERE status = 'active' OR status = 'snoozed'"
        return int(self.db.execute(query).fetchone()[0])

    def short_id(self, entry_id: str) -> str:
        """The entry's shortest unique prefix, from its two neighbours in the primary-key index."""
        before = self.db.execute("SELECT max(id) FROM entries WHERE id < ?", (entry_id,)).fetchone()[0]
        after = self.db.execute("SELECT min(id) FROM entries WHERE id > ?", (entry_id,)).fetchone()[0]
        return short_id_among(entry_id, (before, after))


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _row(values: tuple[Any, ...]) -> EntryRow:
    entry_id, summary, category, priority, due_at, due_text, recurrence, items, status = values
    return EntryRow(
        entry_id,
        summary,
        Category(category),
        priority,
        _time(due_at),
        due_text,
        recurrence,
        Status(status),
        items,
    )
