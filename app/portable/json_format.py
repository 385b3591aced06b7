"""Murmur's own JSON: everything needed to restore, the rows exactly as stored, under a format number.

{"murmur_export": 1, "schema": <the database's>, "exported_at": ..., "entries": [...], "utterances": [...],
"memories": [...]}. Rows keep their stored text (UTC times with microseconds, enum values), so an export
imported into an empty database gives the same fields byte for byte. A file of a newer format, or one nested
past any export, is refused; a row that cannot be read, or that breaks a rule Murmur's own writes keep (a time
past 2200, a revision past any count, an ID of the wrong shape, a memory too long or holding a secret), is
reported with the line it starts on and skipped.
"""

import json
import re
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any

from app.bounds.checks import shown
from app.bounds.limits import MAX_ROW_ID
from app.changes.imports import IncomingEntry, Problem, ReadFile
from app.changes.memories import validate_kept_memory
from app.domain.checklist import ChecklistItem, dump_items, load_items
from app.domain.enums import Category, MemorySource, Status, UtteranceOutcome, UtteranceSource
from app.domain.recurrence import canonical_rule
from app.errors import UsageError
from app.portable.values import hex_id, in_range, optional_row_id, reason, whole_number
from app.store.column_types import to_db_time

FORMAT_VERSION = 1
_NOUNS = {"entries": "entry", "utterances": "utterance", "memories": "memory"}
_ROW_START = re.compile(r'^[ \t]*\{"', re.MULTILINE)  # the export starts each row on a line of its own
# An export nests 3 deep (the file, a list, a row); far deeper is not one, and would exhaust the parser's stack.
MAX_DEPTH = 16
_BRACKET = re.compile(r"[\[\]{}]")
_INNERMOST = re.compile(r"\[\]|\{\}")


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


def _nests_within(text: str, limit: int) -> bool:
    """Whether the JSON's arrays and objects nest at most `limit` deep, found without recursion: outside its
    strings, keep only the brackets, then take out the innermost pairs once per level."""
    unescaped = text.replace("\\\\", "").replace('\\"', "") if "\\" in text else text
    skeleton = "".join(_BRACKET.findall("".join(unescaped.split('"')[::2])))  # even pieces: outside strings
    for _ in range(limit):
        shorter = _INNERMOST.sub("", skeleton)
        if shorter == skeleton:
            return True  # all taken out, or brackets that never pair: not JSON, as the parser says
        skeleton = shorter
    return _INNERMOST.search(skeleton) is None


def _time(row: dict[str, Any], name: str, required: bool = False) -> datetime | None:
    value = row.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{name} is missing")
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise ValueError(f"{name} {value!r} has no time zone")
    return in_range(moment, name)


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
    priority = row.get("priority")
    if priority is not None:
        whole_number(priority, "priority", 1, 5)
    recurrence = _optional_text(row, "recurrence")
    if recurrence is not None and canonical_rule(recurrence) != recurrence:
        raise ValueError(f"recurrence {recurrence!r} is not a rule Murmur wrote")
    return IncomingEntry(
        line=line,
        id=hex_id(row.get("id"), "id"),
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
        revision=whole_number(row.get("revision", 1), "revision", 1),
        utterance_id=optional_row_id(row.get("utterance_id"), "utterance_id"),
        items=_items(row),
    )


def _checked_row(
    row: dict[str, Any], times: dict[str, bool], texts: Sequence[str], kinds: dict[str, type[StrEnum]]
) -> dict[str, object]:
    """An utterance or memory row, checked before it meets the table's constraints: its times (those marked
    True required) written as Murmur writes them, its words, kinds and revision."""
    checked: dict[str, object] = dict(row)
    for name, required in times.items():
        moment = _time(row, name, required)
        checked[name] = None if moment is None else to_db_time(moment)
    for name in texts:
        _text(row, name)
    for name, kind in kinds.items():
        kind(str(row.get(name)))
    for name in _OPTIONAL_TEXTS:
        _optional_text(row, name)
    checked["revision"] = whole_number(row.get("revision", 1), "revision", 1)
    return checked


def _utterance(row: dict[str, Any]) -> dict[str, object]:
    checked = _checked_row(row, _UTTERANCE_TIMES, ("text",), _UTTERANCE_KINDS)
    checked["id"] = whole_number(row.get("id"), "id", 1, MAX_ROW_ID)
    checked["attempts"] = whole_number(row.get("attempts") or 0, "attempts", 0)
    return checked


def _memory(row: dict[str, Any], now: datetime) -> dict[str, object]:
    """A memory meets the rules a remembered one does; none is used later than its import, or it would lead
    the profile every request carries for good."""
    checked = _checked_row(row, _MEMORY_TIMES, ("text",), _MEMORY_KINDS)
    checked["id"] = hex_id(row.get("id"), "id")
    checked["text"] = validate_kept_memory(str(row["text"]))
    checked["utterance_id"] = optional_row_id(row.get("utterance_id"), "utterance_id")
    stamp = to_db_time(now)
    for name in ("created_at", "updated_at", "used_at"):
        if datetime.fromisoformat(str(checked[name])) > now:
            checked[name] = stamp
    return checked


# Which times a row has, and whether it must: as the tables are declared.
_UTTERANCE_TIMES = {"created_at": True, "processed_at": False, "dismissed_at": False}
_MEMORY_TIMES = {"created_at": True, "updated_at": True, "used_at": True, "forgotten_at": False}
_OPTIONAL_TEXTS = ("error", "reply", "heard_text")
_MEMORY_KINDS: dict[str, type[StrEnum]] = {"source": MemorySource}
_UTTERANCE_KINDS: dict[str, type[StrEnum]] = {"source": UtteranceSource, "outcome": UtteranceOutcome}


def read_json(text: str, now: datetime) -> ReadFile:
    too_deep = UsageError(f"not a Murmur export: its JSON is nested more than {MAX_DEPTH} deep")
    if not _nests_within(text, MAX_DEPTH):
        raise too_deep
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"not a JSON file: {error.msg} at line {error.lineno}") from None
    except RecursionError:  # brackets that never close, which the count above leaves to the parser
        raise too_deep from None
    if not isinstance(data, dict) or "murmur_export" not in data:
        raise UsageError("not a Murmur export: the JSON has no murmur_export number")
    if not isinstance(data["murmur_export"], int) or data["murmur_export"] > FORMAT_VERSION:
        raise UsageError(
            f"this export is format {shown(data['murmur_export'])}, newer than this Murmur reads ({FORMAT_VERSION}): "
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
                    read.utterances.append(_utterance(row))
                else:
                    read.memories.append(_memory(row, now))
            except Exception as error:  # any error costs only this row: a file is anyone's text
                read.problems.append(Problem(line, f"{_NOUNS[name]} skipped: {reason(error)}"))
    return read
