"""Opening the database: connection set-up, migrations, and one way to read and one to write.

Opening reads first: another program's database, or one newer than this Murmur, is refused before
anything is written to it (not even the journal mode). One older than this Murmur is backed up before it
is migrated (app/store/backups.py); when that backup cannot be made, it is not migrated. Then, once per file:
- WAL journal: readers never block the writer, and a crash never leaves a half-written batch.

Connection set-up, on every connect:
- synchronous=FULL: each commit is on disk before the user is told it happened. In WAL mode
  NORMAL is only at risk on power loss, but Murmur writes two small transactions per offline
  utterance (bench/transactions_bench.py), so the fsync costs nothing noticeable and "nothing
  the user said is lost" holds even when the machine dies.
- foreign_keys=ON, a larger page cache (see _CACHE_KIB), and a busy timeout so a second process waits
  briefly instead of failing.
- Transactions are begun by us: BEGIN IMMEDIATE for writes takes the write lock up front, so
  two writers queue instead of deadlocking on a lock upgrade.
"""

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session

from app.errors import DatabaseBusyError, StoreError
from app.private_files import create_private_database, tighten_database_files
from app.store.backups import BackupKind, back_up
from app.store.guard import hold_bounds
from app.store.migrations import MIGRATIONS, check_openable, migrate, schema_version
from app.store.watch import ChangeWatch

log = logging.getLogger("murmur.store")

DEFAULT_BUSY_TIMEOUT_MS = 5000
_WRITE_OPTION = "murmur_write"
_WAIT_OPTION = "murmur_wait_ms"  # how long this transaction waits for the write lock; the store's wait if unset
# Per connection. SQLite's 2 MB default holds a few thousand entries' pages: writing tens of thousands of rows
# (an import, its undo) with their eight indexes then rereads pages from the OS for every row, twice as slow.
_CACHE_KIB = 32_768


def describe_sqlite_error(error: BaseException, path: Path) -> StoreError:
    """Turn a SQLite failure into one line a user can act on."""
    text = str(getattr(error, "orig", error)).lower()
    if "locked" in text or "busy" in text:
        return DatabaseBusyError(f"the database {path} is locked by another program; try again in a moment")
    if "readonly" in text or "read-only" in text:
        return StoreError(f"the database {path} is read-only; check its permissions")
    if "not a database" in text or "malformed" in text:
        return StoreError(f"{path} is not a Murmur database (SQLite says: {text})")
    if "unable to open" in text:
        return StoreError(f"cannot open the database {path}; check that its folder exists and is writable")
    return StoreError(f"database error in {path}: {text}")


class Store:
    """One SQLite file. All writes go through `write()`, one transaction each."""

    def __init__(self, path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> None:
        self.path = path
        self._busy_timeout_ms = busy_timeout_ms
        self._engine = create_engine(
            f"sqlite:///{path}",
            connect_args={"timeout": busy_timeout_ms / 1000, "check_same_thread": False},
        )
        event.listen(self._engine, "connect", self._on_connect)
        event.listen(self._engine, "begin", self._on_begin)
        self._writer = self._engine.execution_options(**{_WRITE_OPTION: True})
        self._watch = ChangeWatch(path)  # connects at its first look: only the desktop app looks

    @classmethod
    def open(cls, path: Path | str, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> "Store":
        """Open (creating if needed) and migrate the database at `path`."""
        path = Path(path).expanduser()
        if path.is_dir():
            raise StoreError(f"{path} is a folder, not a database file")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create the folder for the database {path}: {error.strerror}") from None
        create_private_database(path)  # everything the user said: readable by them alone
        store = cls(path, busy_timeout_ms)
        try:
            with store._engine.connect() as connection:
                db: sqlite3.Connection = connection.connection.dbapi_connection  # type: ignore[assignment]
                check_openable(db, str(path))
                tighten_database_files(path)
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode = WAL")  # kept in the file: later connections use it
                if 0 < schema_version(db) < len(MIGRATIONS):
                    back_up(path, BackupKind.PRE_MIGRATION, datetime.now(UTC))  # the data as it was, first
                ran = migrate(db, str(path))
        except (DBAPIError, sqlite3.Error) as error:
            store.close()
            raise describe_sqlite_error(error, path) from None
        except BaseException:
            store.close()
            raise
        if ran:
            log.info("migrated %s by %d step(s)", path, ran)
        return store

    def _on_connect(self, dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves, see _on_begin
        dbapi_connection.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms}")
        dbapi_connection.execute("PRAGMA foreign_keys = ON")
        dbapi_connection.execute("PRAGMA synchronous = FULL")
        dbapi_connection.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
        # trusted_schema stays ON, SQLite's default: OFF, it refuses the full-text index's own triggers ("unsafe
        # use of virtual table": FTS5 is not marked innocuous), so no entry could be written. A database from
        # elsewhere is held to exactly Murmur's schema before it is restored instead (app/store/backups.py).

    def _on_begin(self, connection: Any) -> None:
        options = connection.get_execution_options()
        connection.exec_driver_sql(f"PRAGMA busy_timeout = {options.get(_WAIT_OPTION, self._busy_timeout_ms)}")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get(_WRITE_OPTION, False) else "BEGIN")

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading; it sees one consistent snapshot."""
        try:
            with Session(self._engine, expire_on_commit=False) as session:
                with session.begin():
                    yield session
        except DBAPIError as error:
            raise describe_sqlite_error(error, self.path) from None

    @contextmanager
    def write(self, wait_ms: int | None = None) -> Iterator[Session]:
        """A session whose work commits as one transaction, or not at all; `wait_ms`: how long to wait for
        another program's write to end (the store's busy timeout when None)."""
        writer = self._writer if wait_ms is None else self._writer.execution_options(**{_WAIT_OPTION: wait_ms})
        try:
            with Session(writer, expire_on_commit=False) as session:
                event.listen(session, "before_flush", hold_bounds)
                with session.begin():
                    yield session
        except DBAPIError as error:
            raise describe_sqlite_error(error, self.path) from None

    @property
    def engine(self) -> Engine:
        return self._engine

    def changed(self) -> bool:
        """Whether anyone (this process included) committed since the last call: a cheap look, no reading."""
        return self._watch.changed()

    def close(self) -> None:
        self._watch.close()
        self._engine.dispose()
