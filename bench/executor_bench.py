"""Apply and undo batches of 10 actions against stores of 100, 1,000 and 10,000 entries.

Prints the median milliseconds per batch for each size. Goal: under 20 ms at 10,000 entries,
nearly flat as the store grows. Run: `make bench` (or .venv/bin/python bench/executor_bench.py).
"""

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.changes.executor import execute  # noqa: E402
from app.changes.undo import undo_latest  # noqa: E402
from app.domain.actions import Action, ArchiveAction, CompleteAction, CreateAction, SnoozeAction, UpdateAction  # noqa: E402
from app.domain.clock import Clock  # noqa: E402
from app.domain.enums import Category  # noqa: E402
from app.store import Store  # noqa: E402
from app.store.models import Entry, new_entry_id  # noqa: E402

SIZES = (100, 1_000, 10_000)
ROUNDS = 40


def fill(store: Store, count: int) -> list[str]:
    ids = [new_entry_id() for _ in range(count)]
    with store.write() as session:
        session.add_all(
            Entry(id=i, content=f"entry {n}", summary=f"Entry {n}", category=Category.TODO, source_text="bench")
            for n, i in enumerate(ids)
        )
    return ids


def mixed_batch(rng: random.Random, ids: list[str]) -> list[Action]:
    """4 creates, 3 updates, 1 complete, 1 archive, 1 snooze: the shape of a busy utterance."""
    a, b, c, d, e, f = rng.sample(ids, 6)
    return [
        *(
            CreateAction(
                content=f"new {n}", summary=f"New {n}", category=Category.TODO, source_text="bench", due_text="friday"
            )
            for n in range(4)
        ),
        UpdateAction(entry_id=a[:8], changes={"priority": 2}),
        UpdateAction(entry_id=b[:8], changes={"summary": "Renamed"}),
        UpdateAction(entry_id=c[:8], changes={"due_date": "tomorrow at 5pm"}),
        CompleteAction(entry_id=d[:8]),
        ArchiveAction(entry_id=e[:8]),
        SnoozeAction(entry_id=f[:8], until_text="next week"),
    ]


def bench(size: int) -> tuple[float, float]:
    rng = random.Random(size)
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "bench.db")
        ids = fill(store, size)
        clock = Clock.system()
        apply_ms, undo_ms = [], []
        for _ in range(ROUNDS):
            batch = mixed_batch(rng, ids)
            started = time.perf_counter()
            with store.write() as session:
                result = execute(session, batch, clock)
            apply_ms.append((time.perf_counter() - started) * 1000)
            assert not result.failures, result.failures
            started = time.perf_counter()
            with store.write() as session:
                undone = undo_latest(session, clock.now)
            undo_ms.append((time.perf_counter() - started) * 1000)
            assert not undone.conflicts
        store.close()
    return statistics.median(apply_ms), statistics.median(undo_ms)


def main() -> None:
    print(f"{'entries':>8}  {'apply ms/batch':>15}  {'undo ms/batch':>14}   (median of {ROUNDS} batches of 10 actions)")
    for size in SIZES:
        apply_ms, undo_ms = bench(size)
        print(f"{size:>8}  {apply_ms:>15.2f}  {undo_ms:>14.2f}")


if __name__ == "__main__":
    main()
