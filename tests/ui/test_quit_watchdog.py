"""Quit's last resort, on real processes: a step of the quit that hangs in a real blocking call (reading from a
server on 127.0.0.1 that never answers), or a process whose exit waits for such a thread, ends by the deadline,
with the hung step and the threads named in the log and the database closed."""

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.silent_server import silent_server

# Left out of `make test-fast`: each test waits a hung quit out to its deadline in a real process.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
GRACE = 1.0

# argv: the silent server's port, the database, how the process hangs ("step": in a step of the quit, on the main
# thread; "exit": at the process's exit, which waits for a thread that is not a daemon).
HANGING = f"""
import logging, socket, sys, threading
from app.store import Store
from app.ui.quit_watchdog import QuitWatchdog
logging.getLogger("murmur").setLevel(logging.INFO)
logging.getLogger("murmur").addHandler(logging.StreamHandler(sys.stderr))
store = Store.open(sys.argv[2])
watchdog = QuitWatchdog(store.close, grace={GRACE})
reader = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
if sys.argv[3] == "step":
    watchdog.step("waiting for the sync under way", 0.5)
    reader.recv(1)
else:
    threading.Thread(target=reader.recv, args=(1,), name="murmur-sync").start()
    watchdog.last_step("ending the process", 0)
    sys.exit(0)
"""


@pytest.mark.parametrize(
    ("hang", "named", "holding"),
    [("step", "waiting for the sync under way", "reader.recv(1)"), ("exit", "ending the process", "- murmur-sync")],
)
def test_a_quit_that_hangs_ends_by_its_deadline(tmp_path: Path, hang: str, named: str, holding: str) -> None:
    db, script = tmp_path / "murmur.db", tmp_path / "hanging.py"  # a file: the log quotes its lines
    script.write_text(HANGING)
    with silent_server() as port:
        began = time.monotonic()
        done = subprocess.run(
            [sys.executable, str(script), str(port), str(db), hang],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=30,
        )
        took = time.monotonic() - began
    print(f"a quit hung at {hang!r} ended after {took:.1f} s (grace {GRACE:.0f} s)")
    assert done.returncode == 0, done.stderr
    assert took < 10, done.stderr  # the interpreter's start included
    assert f"quit: {named} did not end in time; ending the process" in done.stderr
    assert holding in done.stderr, done.stderr  # what held it: where the main thread stood, or the thread by name
    with sqlite3.connect(db) as connection:  # closed whole: readable, nothing left to recover
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
