"""A backup taken while another process writes is a consistent snapshot: SQLite's integrity check passes and
it holds a whole number of that process's transactions, between what was there before and after."""

import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.store import Store
from app.store.backups import BackupKind, back_up
from tests.support.murmur_cli import ROOT

# Each transaction adds two entries: a backup that caught half of one would hold an odd number.
WRITER = """
import sys, time
from app.domain.enums import Category
from app.store import Store
from app.store.models import Entry
store = Store.open(sys.argv[1])
print("ready", flush=True)
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    with store.write() as session:
        for n in range(2):
            session.add(Entry(content="x", summary=f"item {n}", category=Category.TODO, source_text="x"))
"""


def _count(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM entries").fetchone()[0])


@pytest.mark.slow  # another process writes for two seconds
def test_backups_taken_while_another_process_writes_are_whole(tmp_path: Path) -> None:
    db_path = tmp_path / "murmur.db"
    Store.open(db_path).close()
    command = [sys.executable, "-c", WRITER, str(db_path), "2"]
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) as writer:
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        counts = _back_up_five_times(db_path)
        assert writer.wait(timeout=30) == 0
    assert counts == sorted(counts) and counts[-1] > counts[0] > 0  # taken while the writes went on


def _back_up_five_times(db_path: Path) -> list[int]:
    counts = []
    for _ in range(5):
        time.sleep(0.2)  # five backups spread over the two seconds of writing
        before = _count(db_path)
        backup = back_up(db_path, BackupKind.MANUAL, datetime.now(UTC)).path
        after = _count(db_path)
        with closing(sqlite3.connect(backup)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        held = _count(backup)
        assert before <= held <= after and held % 2 == 0
        counts.append(held)
    return counts
