"""The SQLite store: tables, connection set-up, migrations and read queries."""

from app.store.database import Store

__all__ = ["Store"]
