"""How results look as JSON objects: the shapes scripts rely on (`--json`); their words are app.presentation's."""

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from app.changes.executor import ActionFailure, AppliedAction
from app.changes.undo import HistoryBatch, UndoRecord, UndoResult
from app.domain.actions import describe_action
from app.domain.checklist import items_of
from app.domain.recurrence import describe
from app.memory.entry_search import SearchPage
from app.presentation.run_report import RunReport
from app.presentation.runs import is_slow
from app.store.kept_runs import KeptRun
from app.store.models import Entry, Memory, UndoItem, Utterance


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
        "recurrence": entry.recurrence,
        "repeats": None if entry.recurrence is None else describe(entry.recurrence),
        "status": entry.status.value,
        "snooze_until": iso(entry.snooze_until, tz),
        "created_at": iso(entry.created_at, tz),
        "updated_at": iso(entry.updated_at, tz),
        "completed_at": iso(entry.completed_at, tz),
        # its checklist: stored, or read from a list-like summary (what ticking an item goes by)
        "items": [{"text": item.text, "done": item.done} for item in items_of(entry.summary, entry.items)],
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


def report_json(report: RunReport, tz: ZoneInfo) -> dict[str, Any]:
    """A run's (or an edit's) report as `--json` prints it; a run's reading (the model's words, the readings
    offered) with it when it has one."""
    data: dict[str, Any] = {
        "applied": [applied_json(item, tz) for item in report.applied],
        "failures": [failure_json(f) for f in report.failures],
        "summary": report.summary,
        "undo_id": report.undo_id,
    }
    if report.utterance_id is None:
        return data
    return data | {
        "memory_changes": [
            {"kind": c.kind, "memory_id": c.memory.id, "short_id": c.short_id, "text": c.memory.text}
            for c in report.memory_changes
        ],
        "utterance_id": report.utterance_id,
        "interpreter": report.interpreter,
        "fallback_reason": report.fallback_reason,
        "message": report.message,
        "question": report.question,
        "choices": [{"number": number, "label": label} for number, label in enumerate(report.choices, start=1)],
    }


def undo_item_json(item: UndoItem | UndoRecord) -> dict[str, Any]:
    return {
        "action_id": item.id,
        "kind": item.kind,
        "entry_id": item.entry_id,
        "subject": item.subject.value,  # "entry", "memory", "utterance" or "recording" (entry_id is then its ID)
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
            "origin": h.batch.origin,
            "utterance_id": h.batch.utterance_id,
            "created_at": iso(h.batch.created_at, tz),
            "undone": h.batch.undone_at is not None,
            "actions": [undo_item_json(item) for item in h.items],
        }
        for h in batches
    ]


def page_json(page: SearchPage, tz: ZoneInfo) -> dict[str, Any]:
    """A page of entries found: each as its line shows it, how many there are, where the next page starts."""
    rows = [
        {
            "id": row.id,
            "short_id": page.short_ids[row.id],
            "summary": row.summary,
            "category": row.category.value,
            "priority": row.priority,
            "due_at": iso(row.due_at, tz),
            "due_text": row.due_text,
            "repeats": None if row.recurrence is None else describe(row.recurrence),
            "status": row.status.value,
        }
        for row in page.rows
    ]
    return {"entries": rows, "total": page.total, "next_offset": page.next_offset}


def memory_json(memory: Memory, short_id: str, tz: ZoneInfo) -> dict[str, Any]:
    return {
        "id": memory.id,
        "short_id": short_id,
        "text": memory.text,
        "source": memory.source.value,
        "created_at": iso(memory.created_at, tz),
        "updated_at": iso(memory.updated_at, tz),
        "used_at": iso(memory.used_at, tz),
        "forgotten_at": iso(memory.forgotten_at, tz),
    }


def utterance_json(utterance: Utterance, tz: ZoneInfo) -> dict[str, Any]:
    return {
        "id": utterance.id,
        "text": utterance.text,
        "source": utterance.source.value,
        "created_at": iso(utterance.created_at, tz),
        "outcome": utterance.outcome.value,
        "error": utterance.error,
        "attempts": utterance.attempts,
        "heard_text": utterance.heard_text,  # the words first heard, when corrected or replaced
        "dismissed_at": iso(utterance.dismissed_at, tz),
    }


def kept_run_json(run: KeptRun, tz: ZoneInfo) -> dict[str, Any]:
    """A kept run (`murmur runs --json`): no words, as it was kept, with the stages that were slow."""
    return {
        "id": run.id,
        "began": iso(run.began, tz),
        "source": run.source,
        "ms": dict(run.ms),
        "slow": [stage for stage, ms in run.ms.items() if is_slow(stage, ms)],
        "ended": run.ending.value,
        "applied": run.applied,
        "interpreter": run.interpreter,
        "failed": run.failed,
        "error": run.error or None,
        "events": [{"kind": event.kind, "stage": event.stage, "ms": event.ms} for event in run.events],
    }
