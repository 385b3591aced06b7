"""Applies batches of 10 actions (5 creates, 5 updates) forever, until killed. Run by test_crash_safety."""

import random
import sys
from pathlib import Path

from app.domain.actions import CreateAction, UpdateAction
from app.domain.enums import Category
from app.service import MurmurService
from app.store import Store


class NoInterpreter:
    name = "none"


def main(db_path: Path) -> None:
    service = MurmurService(store=Store.open(db_path), interpreter=NoInterpreter())  # type: ignore[arg-type]
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


if __name__ == "__main__":
    main(Path(sys.argv[1]))
