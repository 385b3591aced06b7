"""Noticing commits made by anyone (`murmur add` in a terminal, a shortcut, sync) without reading the data.

SQLite's `PRAGMA data_version` changes, on one connection, whenever another connection commits; this
process's pooled connections are "other" too. One private read-only connection kept for the purpose is
asked: a look costs microseconds whatever the size of the database (bench/watch_bench.py).
"""

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger("murmur.store")


class ChangeWatch:
    """Answers "did anything commit since I last looked?"; safe to ask from any thread."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._seen: int | None = None  # None: never looked, so anything may have changed
        self._closed = False
        self._failed = False  # warned once about a look that failed

    def changed(self) -> bool:
        """True if a commit happened since the last call (and on the first call). A look that fails (a
        database being recovered, one that cannot be read) says False: the next look asks again."""
        with self._lock:
            if self._closed:
                return False
            try:
                version = int(self._connection().execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error as error:
                if not self._failed:
                    log.warning("cannot look for changes in %s: %s", self._path, error)
                self._failed = True
                return False
            changed, self._seen = version != self._seen, version
            return changed

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            # Read-only and by URI: a look never writes, and never creates a file that has gone. No busy
            # wait: the GUI thread asks, and a look that would wait is simply asked again later.
            uri = f"{self._path.resolve().as_uri()}?mode=ro"
            self._db = sqlite3.connect(uri, uri=True, timeout=0, isolation_level=None, check_same_thread=False)
        return self._db

    def close(self) -> None:
        """Let go of the connection; later looks say False."""
        with self._lock:
            self._closed = True
            if self._db is not None:
                self._db.close()
                self._db = None
