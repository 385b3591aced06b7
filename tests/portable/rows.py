"""Rows as Murmur's JSON export writes them, to change one value at a time, and the file that holds them."""

from pathlib import Path

from app.portable.json_format import write_json
from app.store.column_types import to_db_time
from tests.support.clock import FIXED_NOW

STAMP = to_db_time(FIXED_NOW)


def entry_row(number: int = 1, **changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": f"{number:032x}", "content": "Buy milk", "summary": "Buy milk", "category": "todo",
        "priority": None, "due_at": None, "due_text": None, "status": "active", "snooze_until": None,
        "source_text": "buy milk", "utterance_id": None, "created_at": STAMP, "updated_at": STAMP,
        "completed_at": None, "revision": 1, "recurrence": None, "items": None,
    }  # fmt: skip
    return row | changes


def utterance_row(number: int = 1, **changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": number, "text": f"buy milk {number}", "source": "cli", "created_at": STAMP, "outcome": "done",
        "error": None, "attempts": 1, "processed_at": STAMP, "conversation_id": None, "lease_host": None,
        "lease_pid": None, "lease_until": None, "session_id": None, "reply": None, "dismissed_at": None,
        "heard_text": None, "revision": 1,
    }  # fmt: skip
    return row | changes


def memory_row(number: int = 1, **changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": f"{number:032x}", "text": f"my locker is number {number}", "source": "user", "utterance_id": None,
        "created_at": STAMP, "updated_at": STAMP, "used_at": STAMP, "forgotten_at": None, "revision": 1,
    }  # fmt: skip
    return row | changes


def json_file(
    path: Path,
    entries: list[dict[str, object]] | None = None,
    utterances: list[dict[str, object]] | None = None,
    memories: list[dict[str, object]] | None = None,
) -> Path:
    """The rows in an export file at `path`: with none before them, an entry is on line 6, an utterance on
    line 8 and a memory on line 10."""
    path.write_text(write_json(entries or [], utterances or [], memories or [], 10, FIXED_NOW), encoding="utf-8")
    return path
