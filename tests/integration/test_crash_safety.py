"""SIGKILL in the middle of batches, again and again: the database holds whole batches or none."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

WORKER = Path(__file__).with_name("crash_worker.py")
ROOT = Path(__file__).parents[2]
KILLS = 15


def check_database(db_path: Path) -> tuple[int, int]:
    """Integrity, and every batch complete with its undo record; returns (batches, entries)."""
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        batches = db.execute("SELECT COUNT(*) FROM undo_batches").fetchone()[0]
        sizes = {row[0] for row in db.execute("SELECT COUNT(*) FROM undo_items GROUP BY batch_id")}
        assert sizes <= {10}, f"a batch with a partial undo record: sizes {sizes}"
        entries = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        created = db.execute("SELECT COUNT(*) FROM undo_items WHERE kind = 'create'").fetchone()[0]
        assert entries == created, "an entry without its undo record, or the reverse"
        orphans = db.execute(
            "SELECT COUNT(*) FROM undo_items WHERE entry_id NOT IN (SELECT id FROM entries)"
        ).fetchone()[0]
        assert orphans == 0
    return batches, entries


@pytest.mark.slow
def test_sigkill_mid_batch_never_leaves_half_a_batch(tmp_path: Path) -> None:
    db_path = tmp_path / "crash.db"
    rng = random.Random(20261122)
    last_batches = 0
    for _ in range(KILLS):
        worker = subprocess.Popen(
            [sys.executable, str(WORKER), str(db_path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert worker.stdout is not None
        assert worker.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.02, 0.3))
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        worker.stdout.close()
        batches, _ = check_database(db_path)
        assert batches > last_batches, "the worker made no progress between kills"
        last_batches = batches
