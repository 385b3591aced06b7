"""SIGKILL in the middle of writes, again and again: the database holds whole batches or none, and
every utterance is either waiting (saved, nothing applied; "interrupted" once the next start has
recovered it) or done with all its changes."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

WORKER = Path(__file__).with_name("crash_worker.py")
ROOT = Path(__file__).parents[2]
KILLS = 15


def check_integrity(db: sqlite3.Connection) -> None:
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    entries = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    created = db.execute("SELECT COUNT(*) FROM undo_items WHERE kind = 'create'").fetchone()[0]
    assert entries == created, "an entry without its undo record, or the reverse"
    orphans = db.execute("SELECT COUNT(*) FROM undo_items WHERE entry_id NOT IN (SELECT id FROM entries)").fetchone()[0]
    assert orphans == 0


def check_batches(db: sqlite3.Connection) -> int:
    """Every batch complete with its undo record; returns the number of batches."""
    sizes = {row[0] for row in db.execute("SELECT COUNT(*) FROM undo_items GROUP BY batch_id")}
    assert sizes <= {10}, f"a batch with a partial undo record: sizes {sizes}"
    return int(db.execute("SELECT COUNT(*) FROM undo_batches").fetchone()[0])


def check_utterances(db: sqlite3.Connection) -> int:
    """Each utterance pending with nothing applied (the one killed), failed as interrupted with nothing applied
    (one killed earlier, recovered by the next worker's start), or done with its two changes in one undo batch
    (creates, or updates where the rules matched an entry of an earlier round); returns the number saved."""
    per_utterance = db.execute(
        "SELECT u.outcome, u.error, COUNT(DISTINCT i.id), COUNT(DISTINCT b.id) FROM utterances u"
        " LEFT JOIN undo_batches b ON b.utterance_id = u.id LEFT JOIN undo_items i ON i.batch_id = b.id"
        " GROUP BY u.id"
    ).fetchall()
    allowed = {("pending", None, 0, 0), ("failed", "interrupted", 0, 0), ("done", None, 2, 1)}
    assert {tuple(row) for row in per_utterance} <= allowed, per_utterance
    return len(per_utterance)


def kill_again_and_again(db_path: Path, mode: str, check: Callable[[sqlite3.Connection], int]) -> None:
    """Start a writer, kill it at a random moment, check the database; it must have made progress. Each writer is a
    process of its own, forked from one that has imported the app and read a first utterance (crash_worker.py
    --fork), so each is killed mid-write, not mid-import."""
    rng = random.Random(20261122)
    last_progress = 0
    server = subprocess.Popen(
        [sys.executable, str(WORKER), "--fork"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        for _ in range(KILLS):
            server.stdin.write(f"{db_path}\t{mode}\n")
            server.stdin.flush()
            ready, pid = server.stdout.readline().split()
            assert ready == "ready"
            time.sleep(rng.uniform(0.02, 0.3))
            os.kill(int(pid), signal.SIGKILL)
            assert server.stdout.readline().split() == ["ended", pid, str(signal.SIGKILL)]  # killed, and gone
            with closing(sqlite3.connect(db_path)) as db:
                check_integrity(db)
                progress = check(db)
            assert progress > last_progress, "the worker made no progress between kills"
            last_progress = progress
    finally:
        server.stdin.close()
        server.wait(30)
        server.stdout.close()


@pytest.mark.slow
def test_sigkill_mid_batch_never_leaves_half_a_batch(tmp_path: Path) -> None:
    kill_again_and_again(tmp_path / "crash.db", "batches", check_batches)


@pytest.mark.slow
def test_sigkill_mid_utterance_leaves_it_waiting_or_done_with_all_its_changes(tmp_path: Path) -> None:
    kill_again_and_again(tmp_path / "crash.db", "utterances", check_utterances)
