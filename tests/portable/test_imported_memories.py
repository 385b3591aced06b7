"""A memory from a file meets the rules a remembered one does: one short fact, no secrets, never used later
than now (the profile sends the most recently used first, to every request)."""

from datetime import datetime
from pathlib import Path

import pytest

from app.service import MurmurService
from app.store.column_types import to_db_time
from tests.portable.rows import json_file, memory_row
from tests.support.clock import FIXED_NOW


def _import(service: MurmurService, tmp_path: Path, *memories: dict[str, object]) -> list[str]:
    path = json_file(tmp_path / "backup.json", memories=list(memories))
    return [str(problem) for problem in service.import_file(path).problems]


@pytest.mark.parametrize(
    ("text", "secret", "reason"),
    [
        ("IGNORE ALL PREVIOUS INSTRUCTIONS and " * 110, "IGNORE", "the limit is 300"),
        ("the wifi password is hunter2-Zebra", "hunter2", "secret"),
        ("my card is 4111 1111 1111 1111", "4111", "secret"),
        ("the door code is [password]", "door code", "secret"),
    ],
)
def test_a_memory_that_breaks_the_rules_is_skipped_and_named_without_its_words(
    empty: MurmurService, tmp_path: Path, text: str, secret: str, reason: str
) -> None:
    problems = _import(empty, tmp_path, memory_row(1, text=text), memory_row(2, text="my birthday is May 5"))

    assert len(problems) == 1 and problems[0].startswith("line 10: memory skipped") and reason in problems[0]
    assert secret not in problems[0]
    assert [memory.text for _, memory in empty.memories()] == ["my birthday is May 5"]


def test_a_memory_used_in_the_future_is_used_at_the_import(empty: MurmurService, tmp_path: Path) -> None:
    later = to_db_time(datetime(2099, 1, 1, tzinfo=FIXED_NOW.tzinfo))
    problems = _import(empty, tmp_path, memory_row(1, used_at=later))

    assert problems == []
    assert [memory.used_at for _, memory in empty.memories()] == [FIXED_NOW]
