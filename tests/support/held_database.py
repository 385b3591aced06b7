"""Another program holding the database's write lock: a real second process in a write transaction."""

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("holding", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
"""


@contextmanager
def held(db_path: Path) -> Iterator[None]:
    """While inside, another process holds a write transaction on `db_path` (it has begun before this yields)."""
    command = [sys.executable, "-c", _HOLDER, str(db_path)]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as holder:
        assert holder.stdout is not None and holder.stdin is not None
        try:
            assert holder.stdout.readline() == "holding\n"
            yield
        finally:
            holder.stdin.write("\n")
            holder.stdin.close()
    assert holder.returncode == 0
