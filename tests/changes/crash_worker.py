"""Writes forever, until killed; run by test_crash_safety.

`batches`: batches of 10 actions (5 creates, 5 updates) through `MurmurService.apply`.
`utterances`: offline utterances of two entries each through `MurmurService.submit`.

`crash_worker.py DB MODE` is one such writer; `crash_worker.py --fork` is a server of them: it imports and warms up
once, then for each line `DB<tab>MODE` on its stdin forks a writer (a process of its own, killed as any other) and
says `ended PID STATUS` when it is gone. Each writer says `ready PID` once its first write is in.
"""

import os
import random
import sys
import tempfile
import threading
from pathlib import Path

from app.domain.actions import CreateAction, UpdateAction
from app.domain.enums import Category
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store


def apply_batches(service: MurmurService) -> None:
    ids: list[str] = []
    round_number = 0
    while True:
        round_number += 1
        batch = [
            CreateAction(content=f"entry {round_number}.{i}", summary="x", category=Category.TODO, source_text="x")
            for i in range(5)
        ]
        batch += [
            UpdateAction(entry_id=entry_id, changes={"priority": random.randint(1, 5)})
            for entry_id in random.sample(ids, min(5, len(ids)))
        ]
        batch += [
            CreateAction(content="filler", summary="x", category=Category.NOTE, source_text="x")
            for _ in range(10 - len(batch))
        ]
        result = service.apply(batch, label="crash test")
        assert not result.failures, result.failures
        ids.extend(item.entry.id for item in result.applied if item.action.kind.value == "create")
        if round_number == 1:
            print(f"ready {os.getpid()}", flush=True)


def submit_utterances(service: MurmurService) -> None:
    round_number = 0
    while True:
        round_number += 1
        tag = f"{os.getpid()} {round_number}"  # unique: the rules would not create the same entry twice
        result = service.submit(f"buy stamps for letter {tag} and call the bank about account {tag}")
        assert len(result.applied) == 2, result.summary
        if round_number == 1:
            print(f"ready {os.getpid()}", flush=True)


def main(db_path: Path, mode: str) -> None:
    service = MurmurService(store=Store.open(db_path), interpreter=OfflineInterpreter())
    {"batches": apply_batches, "utterances": submit_utterances}[mode](service)


def warm_up() -> None:
    """The first utterance of a process loads the rules' word tables: done here once, on a scratch database."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "warm.db")
        MurmurService(store=store, interpreter=OfflineInterpreter()).submit("buy stamps and call the bank")
        store.close()
    assert threading.active_count() == 1, "a thread left running would be forked in a state it cannot go on from"


def fork_writers() -> None:
    warm_up()
    for line in sys.stdin:
        db_path, mode = line.rstrip("\n").split("\t")
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            try:
                random.seed()  # each writer its own updates, as a process started afresh has
                main(Path(db_path), mode)
            finally:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        print(f"ended {pid} {status}", flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork"]:
        fork_writers()
    else:
        main(Path(sys.argv[1]), sys.argv[2])
