"""How results look: JSON objects (the CLI contract) and one-line human text."""

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from app.changes.executor import ActionFailure, AppliedAction
from app.changes.undo import HistoryBatch, UndoResult
from app.domain.actions import describe_action
from app.store.models import Entry, UndoItem, Utterance


def iso(moment: datetime | None, tz: ZoneInfo) -> str | None:
    return None if moment is None else moment.astimezone(tz).isoformat()


def entry_json(entry: Entry, short_id: str, tz: ZoneInfo) -> dict[str, Any]:
    return {
        "id": entry.id,
        "short_id": short_id,
        "content": entry.content,
        "summary": entry.summary,
        "category": entry.category.value,
        "priority": entry.priority,
        "due_at": iso(entry.due_at, tz),
        "due_text": entry.due_text,
        "cadence": None if entry.cadence is None else entry.cadence.value,
        "status": entry.status.value,
        "snooze_until": iso(entry.snooze_until, tz),
        "created_at": iso(entry.created_at, tz),
        "updated_at": iso(entry.updated_at, tz),
        "completed_at": iso(entry.completed_at, tz),
    }


def applied_json(item: AppliedAction, tz: ZoneInfo) -> dict[str, Any]:
    return {
        "action": describe_action(item.action),
        "entry": entry_json(item.entry, item.short_id, tz),
        "action_id": item.undo_item_id,
        "note": item.note or None,
    }


def failure_json(failure: ActionFailure) -> dict[str, Any]:
    return {
        "tool": failure.kind,
        "error": failure.error,
        "action": None if failure.action is None else describe_action(failure.action),
    }


def undo_item_json(item: UndoItem) -> dict[str, Any]:
    return {
        "action_id": item.id,
        "kind": item.kind,
        "entry_id": item.entry_id,
        "action": json.loads(item.description),
        "undone": item.undone_at is not None,
        "conflict": item.undo_conflict,
    }


def undo_json(result: UndoResult, tz: ZoneInfo) -> dict[str, Any]:
    return {
        "undo_id": result.batch.id,
        "label": result.batch.label,
        "reverted": [undo_item_json(item) for item in result.reverted],
        "conflicts": [undo_item_json(r.item) for r in result.conflicts],
    }


def history_json(batches: Sequence[HistoryBatch], tz: ZoneInfo) -> list[dict[str, Any]]:
    return [
        {
            "undo_id": h.batch.id,
            "label": h.batch.label,
            "utterance_id": h.batch.utterance_id,
            "created_at": iso(h.batch.created_at, tz),
            "undone": h.batch.undone_at is not None,
            "actions": [undo_item_json(item) for item in h.items],
        }
        for h in batches
    ]


def utterance_json(utterance: Utterance, tz: ZoneInfo) -> dict[str, Any]:
    return {
        "id": utterance.id,
        "text": utterance.text,
        "source": utterance.source.value,
        "created_at": iso(utterance.created_at, tz),
        "outcome": utterance.outcome.value,
        "error": utterance.error,
        "attempts": utterance.attempts,
    }


def when(moment: datetime | None, now: datetime, tz: ZoneInfo) -> str:
    """'today 17:00', 'tomorrow 09:00', 'Thu 26 Nov 09:00', with 'overdue' when past."""
    if moment is None:
        return ""
    local, today = moment.astimezone(tz), now.astimezone(tz).date()
    days = (local.date() - today).days
    day = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(days, f"{local:%a %d %b}")
    text = f"{day} {local:%H:%M}"
    return f"overdue {text}" if moment < now else text


def entry_line(entry: Entry, short_id: str, now: datetime, tz: ZoneInfo) -> str:
    priority = f"P{entry.priority}" if entry.priority else "  "
    extras = []
    if entry.due_at:
        extras.append(f"due {when(entry.due_at, now, tz)}")
    elif entry.due_text:
        extras.append(f"due '{entry.due_text}'")
    if entry.cadence:
        extras.append(entry.cadence.value)
    if entry.snooze_until:
        extras.append(f"snoozed until {when(entry.snooze_until, now, tz)}")
    if entry.status.value not in ("active", "snoozed"):
        extras.append(entry.status.value)
    tail = f"  ({', '.join(extras)})" if extras else ""
    return f"{short_id}  {priority}  {entry.category.value:<8}  {entry.summary}{tail}"


def applied_line(item: AppliedAction, now: datetime, tz: ZoneInfo) -> str:
    verb = {
        "create": "created",
        "update": "updated",
        "complete": "completed",
        "archive": "archived",
        "snooze": "snoozed",
    }
    note = f"  [{item.note}]" if item.note else ""
    return f"{verb[item.action.kind.value]:<9} {entry_line(item.entry, item.short_id, now, tz)}{note}"


def failure_line(failure: ActionFailure) -> str:
    return f"{failure.kind} failed: {failure.error}"


def dumps(data: Mapping[str, Any] | Sequence[Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)
