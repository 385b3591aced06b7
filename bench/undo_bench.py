"""Import a large file, then undo the import, on real SQLite files, while another writer keeps asking for the lock.

Prints, per size, the seconds to import the file (Murmur's JSON export) into an empty database and to undo
that import, and for each the longest another writer (a second connection doing `BEGIN IMMEDIATE`, as a
`murmur add` would) waited for the write lock: how long an utterance can be kept waiting. Goal: the undo of
50,000 entries under 5 s, and no wait longer than a submit's bound. Run:
.venv/bin/python bench/undo_bench.py [--entries 10000 50000]
"""

import argparse
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.domain.enums import Format  # noqa: E402
from app.offline import OfflineInterpreter  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from tests.support.big_store import fill_store  # noqa: E402
from tests.support.clock import FIXED_CLOCK  # noqa: E402

_PROBE_GAP_S = 0.02  # between two asks for the lock: often enough to see every hold, rarely enough not to slow it


@contextmanager
def longest_wait(path: Path) -> Iterator[list[float]]:
    """While inside, a second connection takes the write lock again and again; yields [its longest wait, s]."""
    longest = [0.0]
    stop = threading.Event()

    def probe() -> None:
        with closing(sqlite3.connect(path, isolation_level=None, timeout=600)) as db:
            while not stop.wait(_PROBE_GAP_S):
                started = time.perf_counter()
                db.execute("BEGIN IMMEDIATE")
                longest[0] = max(longest[0], time.perf_counter() - started)
                db.execute("ROLLBACK")

    thread = threading.Thread(target=probe)
    thread.start()
    try:
        yield longest
    finally:
        stop.set()
        thread.join()


def timed(path: Path, work: Callable[[], object]) -> tuple[float, float]:
    """Seconds `work` took, and the longest another writer waited meanwhile."""
    with longest_wait(path) as longest:
        started = time.perf_counter()
        work()
        took = time.perf_counter() - started
    return took, longest[0]


def bench(folder: Path, count: int) -> str:
    source_path, target_path, file = (
        folder / f"source-{count}.db",
        folder / f"target-{count}.db",
        folder / f"{count}.json",
    )
    fill_store(source_path, count, FIXED_CLOCK.now)
    source = MurmurService(store=Store.open(source_path), interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)
    file.write_text(source.export(Format.JSON), encoding="utf-8")
    source.close()
    target = MurmurService(store=Store.open(target_path), interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)
    imported, import_wait = timed(target_path, lambda: target.import_file(file, confirmed=True))
    undone, undo_wait = timed(target_path, target.undo)
    target.close()
    return f"{count:>8,} {imported:>9.2f} {import_wait:>13.2f} {undone:>7.2f} {undo_wait:>11.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, nargs="+", default=[10_000, 50_000])
    counts = parser.parse_args().entries
    folder = Path(tempfile.mkdtemp(prefix="murmur-undo-bench-"))
    print("goal: undo of 50,000 under 5 s; waits: the longest another writer waited for the lock")
    print(f"{'entries':>8} {'import s':>9} {'import wait s':>13} {'undo s':>7} {'undo wait s':>11}")
    for count in counts:
        print(bench(folder, count), flush=True)


if __name__ == "__main__":
    main()
