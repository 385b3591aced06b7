"""Writes forever, until killed; run by test_crash_safety.

`batches`: batches of 10 actions (5 creates, 5 updates) through `MurmurService.apply`.
`utterances`: offline utterances of two entries each through `MurmurService.submit`.
"""

import os
import random
import sys
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
            print("ready", flush=True)


def submit_utterances(service: MurmurService) -> None:
    round_number = 0
    while True:
        round_number += 1
        tag = f"{os.getpid()} {round_number}"  # unique: the rules would not create the same entry twice
        result = service.submit(f"buy stamps for letter {tag} and call the bank about account {tag}")
        assert len(result.applied) == 2, result.summary
        if round_number == 1:
            print("ready", flush=True)


def main(db_path: Path, mode: str) -> None:
    service = MurmurService(store=Store.open(db_path), interpreter=OfflineInterpreter())
    {"batches": apply_batches, "utterances": submit_utterances}[mode](service)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
