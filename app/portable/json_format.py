"""Murmur's own JSON: everything needed to restore, the rows exactly as stored, under a format number.

{"murmur_export": 1, "schema": <the database's>, "exported_at": ..., "entries": [...], "utterances": [...],
"memories": [...]}. Rows keep their stored text (UTC times with microseconds, enum values), so an export
imported into an empty database gives the same fields byte for byte. A file of a newer format is refused;
a row that cannot be read is reported with the line it starts on and skipped.
"""

import json
import re
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any

from app.changes.imports import IncomingEntry, Problem, ReadFile
from app.domain.checklist import ChecklistItem, dump_items, load_items
from app.domain.enums import Category, MemorySource, Status, UtteranceOutcome, UtteranceSource
from app.domain.recurrence import canonical_rule
from app.errors import InvalidActionError, UsageError
from app.store.column_types import to_db_time

FORMAT_VERSION = 1
_NOUNS = {"entries": "entry", "utterances": "utterance", "memories": "memory"}
_ROW_START = re.compile(r'^[ \t]*\{"', re.MULTILINE)  # the export starts each row on a line of its own


def write_json(
    entries: Sequence[dict[str, object]],
    utterances: Sequence[dict[str, object]],
    memories: Sequence[dict[str, object]],
    schema: int,
    now: datetime,
) -> str:
    def rows(name: str, items: Sequence[dict[str, object]]) -> str:
        body = ",".join(f"\n    {json.dumps(row, ensure_ascii=False)}" for row in items)
        return f'  "{name}": [{body}\n  ]'

    head = f'  "murmur_export": {FORMAT_VERSION},\n  "schema": {schema},\n  "exported_at": "{to_db_time(now)}"'
    parts = [head, rows("entries", entries), rows("utterances", utterances), rows("memories", memories)]
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _row_lines(text: str) -> list[int]:
    """The line each row starts on, in file order (rows of all three lists together)."""
    lines, line, counted = [], 1, 0
    for found in _ROW_START.finditer(text):
        line += text.count("\n", counted, found.start())  # counted on from the last row: one pass over the text
        counted = found.start()
        lines.append(line)
    return lines


def _time(row: dict[str, Any], name: str, required: bool = False) -> datetime | None:
    value = row.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{name} is missing")
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise ValueError(f"{name} {value!r} has no time zone")
    return moment


def _text(row: dict[str, Any], name: str) -> str:
    value = row.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} is missing")
    return value


def _optional_text(row: dict[str, Any], name: str) -> str | None:
    value = row.get(name)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name} is not text")
    return value


def _items(row: dict[str, Any]) -> tuple[ChecklistItem, ...]:
    raw = _optional_text(row, "items")
    items = load_items(raw)
    if dump_items(items) != raw:  # what Murmur writes reads back the same
        raise ValueError(f"items {raw!r} is not a checklist Murmur wrote")
    return items


def _entry(row: dict[str, Any], line: int) -> IncomingEntry:
    entry_id = _text(row, "id")
    if len(entry_id) != 32 or any(c not in "0123456789abcdef" for c in entry_id):
        raise ValueError(f"id {entry_id!r} is not a Murmur entry ID")
    priority = row.get("priority")
    if priority is not None and (not isinstance(priority, int) or not 1 <= priority <= 5):
        raise ValueError(f"priority {priority!r} is not between 1 and 5")
    recurrence = _optional_text(row, "recurrence")
    if recurrence is not None and canonical_rule(recurrence) != recurrence:
        raise ValueError(f"recurrence {recurrence!r} is not a rule Murmur wrote")
    utterance_id = row.get("utterance_id")
    revision = row.get("revision", 1)
    if not isinstance(revision, int) or revision < 1:
        raise ValueError(f"revision {revision!r} is not a whole number")
    return IncomingEntry(
        line=line,
        id=entry_id,
        summary=_text(row, "summary"),
        content=_text(row, "content"),
        category=Category(str(row.get("category"))),
        source_text=_text(row, "source_text"),
        created_at=_time(row, "created_at", required=True),  # type: ignore[arg-type]
        updated_at=_time(row, "updated_at", required=True),
        priority=priority,
        due_at=_time(row, "due_at"),
        due_text=_optional_text(row, "due_text"),
        recurrence=recurrence,
        status=Status(str(row.get("status"))),
        snooze_until=_time(row, "snooze_until"),
        completed_at=_time(row, "completed_at"),
        revision=revision,
        utterance_id=utterance_id if isinstance(utterance_id, int) else None,
        items=_items(row),
    )


def _checked_row(
    row: dict[str, Any], times: Sequence[str], texts: Sequence[str], kinds: dict[str, type[StrEnum]]
) -> dict[str, object]:
    """An utterance or memory row, checked before it meets the table's constraints."""
    for name in times:
        _time(row, name, required=name == "created_at")
    for name in texts:
        _text(row, name)
    for name, kind in kinds.items():
        kind(str(row.get(name)))
    return {"revision": 1} | dict(row)


_MEMORY_KINDS: dict[str, type[StrEnum]] = {"source": MemorySource}
_UTTERANCE_KINDS: dict[str, type[StrEnum]] = {"source": UtteranceSource, "outcome": UtteranceOutcome}


def read_json(text: str) -> ReadFile:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"not a JSON file: {error.msg} at line {error.lineno}") from None
    if not isinstance(data, dict) or "murmur_export" not in data:
        raise UsageError("not a Murmur export: the JSON has no murmur_export number")
    if not isinstance(data["murmur_export"], int) or data["murmur_export"] > FORMAT_VERSION:
        raise UsageError(
            f"this export is format {data['murmur_export']}, newer than this Murmur reads ({FORMAT_VERSION}): "
            "upgrade Murmur to import it"
        )
    lines = iter(_row_lines(text))
    read = ReadFile()
    for name in ("entries", "utterances", "memories"):
        rows = data.get(name, [])
        if not isinstance(rows, list):
            raise UsageError(f"not a Murmur export: {name} is not a list")
        for row in rows:
            line = next(lines, 0)
            try:
                if not isinstance(row, dict):
                    raise ValueError("not an object")
                if name == "entries":
                    read.entries.append(_entry(row, line))
                elif name == "utterances":
                    read.utterances.append(
                        _checked_row(row, ("created_at", "processed_at"), ("text",), _UTTERANCE_KINDS)
                        | {"attempts": row.get("attempts") or 0}
                    )
                else:
                    read.memories.append(
                        _checked_row(row, ("created_at", "updated_at", "used_at"), ("id", "text"), _MEMORY_KINDS)
                    )
            except (ValueError, InvalidActionError) as error:
                read.problems.append(Problem(line, f"{_NOUNS[name]} skipped: {error}"))
    return read
