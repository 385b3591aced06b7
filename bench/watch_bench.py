"""The window's watch for other processes' commits: what one look costs, beside the reload it saves.

At 10,000 entries (tests/support/big_store.py), the desktop app looks twice a second on its GUI thread
(`MurmurService.changed_since_last_look`, a `PRAGMA data_version` on a connection kept open), and reloads
the list only when the look says so. Printed: a look when nothing changed, a look after another
connection's commit, and the full reload (RefreshJob: entries, short IDs, usage, history, inbox, memories)
that each look avoids when nothing changed; then the reload after a change of the app's own, which knows the
entry it touched and reads only that one (the other lists as before); median and p99.

Goal: a look <= 100 µs, at least 1,000x cheaper than the reload.

Run: .venv/bin/python bench/watch_bench.py
"""

import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.assembly import build_service  # noqa: E402
from app.config import Settings  # noqa: E402
from app.ui.jobs import RefreshJob, ShownEntries  # noqa: E402 (plain Python: no Qt is started)
from tests.support.big_store import fill_store  # noqa: E402

ENTRIES = 10_000


def timed(step: Callable[[], object], runs: int, before: Callable[[], object] = lambda: None) -> list[float]:
    """Seconds per call of `step`, `before` run (and not timed) ahead of each."""
    times = []
    for _ in range(runs):
        before()
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return times


def show(name: str, times: list[float]) -> float:
    median, p99 = statistics.median(times), statistics.quantiles(times, n=100)[98]
    print(f"{name:<32} median {median * 1e6:10.1f} µs   p99 {p99 * 1e6:10.1f} µs   ({len(times)} runs)")
    return median


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "murmur.db"
        fill_store(db_path, ENTRIES, datetime.now(UTC))
        service = build_service(db_path, Settings(), offline=True)
        other = sqlite3.connect(db_path, isolation_level=None)

        def commit_elsewhere() -> None:
            other.execute("UPDATE entries SET revision = revision + 1 WHERE rowid = 1")

        try:
            service.changed_since_last_look()
            print(f"{ENTRIES:,} entries")
            idle = show("look, nothing changed", timed(service.changed_since_last_look, 20_000))
            show("look, after another's commit", timed(service.changed_since_last_look, 2_000, commit_elsewhere))
            everything = ShownEntries()  # told nothing of what changed, as after a look: every entry is read
            full = RefreshJob(service, 10.0, everything)
            reload = show("full reload (RefreshJob)", timed(full.run, 20, lambda: everything.changed(None)))
            print(f"a look is {reload / idle:,.0f}x cheaper than the reload it saves")
            print(f"looking twice a second costs {2 * idle * 1e6:.0f} µs of GUI time per second")
            shown = ShownEntries()
            refresh = RefreshJob(service, 10.0, shown)
            refresh.run()
            entry_id = shown.read(service).entries[0].id
            priorities = iter(range(10**6))

            def own_edit() -> None:
                service.edit([entry_id], {"priority": str(next(priorities) % 5 + 1)})
                shown.changed([entry_id])

            touched = show("reload after an own edit", timed(refresh.run, 20, own_edit))
            print(f"knowing the entry it touched, the reload takes {touched / reload:.0%} of the full one")
        finally:
            with closing(other):
                service.close()


if __name__ == "__main__":
    main()
