"""Undo: revert a batch, or one action of it, exactly as it was before, unless it changed since.

Each undo item holds the entry's row as stored before the action (null for a create) and the
revision the action left. If the entry's revision is still that one, the row is put back column
for column (a created entry is deleted); if not, someone edited it since, and the item is
reported as a conflict instead of clobbering the newer change.
"""

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text
from sqlmodel import Session, col, select

from app.domain.enums import UndoSubject
from app.errors import UndoError
from app.store.models import UndoBatch, UndoItem, Utterance


@dataclass(frozen=True)
class RevertedItem:
    item: UndoItem
    conflict: str | None  # None: reverted; otherwise why it was left as it is


@dataclass(frozen=True)
class UndoResult:
    batch: UndoBatch
    items: list[RevertedItem]

    @property
    def reverted(self) -> list[UndoItem]:
        return [r.item for r in self.items if r.conflict is None]

    @property
    def conflicts(self) -> list[RevertedItem]:
        return [r for r in self.items if r.conflict is not None]


# Each subject's table; each has an `id` (an utterance's is a number, read from the text kept) and a `revision`
# counted up by every change undo can take back.
_TABLES = {UndoSubject.ENTRY: "entries", UndoSubject.MEMORY: "memories", UndoSubject.UTTERANCE: "utterances"}


def _current_revision(session: Session, table: str, row_id: str) -> int | None:
    return session.execute(text(f"SELECT revision FROM {table} WHERE id = :id"), {"id": row_id}).scalar()


def _restore_row(session: Session, table: str, row: dict[str, object]) -> None:
    columns = [name for name in row if name != "id"]
    assignments = ", ".join(f"{name} = :{name}" for name in columns)
    session.execute(text(f"UPDATE {table} SET {assignments} WHERE id = :id"), row)


def _revert(session: Session, item: UndoItem, now: datetime) -> RevertedItem:
    table, noun = _TABLES[item.subject], item.subject.value
    revision = _current_revision(session, table, item.entry_id)
    if revision is None:
        conflict = f"the {noun} no longer exists"
    elif revision != item.after_revision:
        conflict = f"the {noun} was changed again since; left as it is now"
    else:
        conflict = None
        if item.before_row is None:
            session.execute(text(f"DELETE FROM {table} WHERE id = :id"), {"id": item.entry_id})
        else:
            _restore_row(session, table, json.loads(item.before_row))
        item.undone_at = now
    item.undo_conflict = conflict
    session.add(item)
    return RevertedItem(item=item, conflict=conflict)


def _pending_items(session: Session, batch_id: int) -> list[UndoItem]:
    query = (
        select(UndoItem)
        .where(UndoItem.batch_id == batch_id, col(UndoItem.undone_at).is_(None))
        .order_by(col(UndoItem.position).desc())
    )
    return list(session.exec(query).all())


def undo_latest(session: Session, now: datetime) -> UndoResult:
    """Revert the newest batch not undone yet, last action first."""
    batch = session.exec(
        select(UndoBatch).where(col(UndoBatch.undone_at).is_(None)).order_by(col(UndoBatch.id).desc()).limit(1)
    ).first()
    if batch is None:
        raise UndoError("nothing to undo")
    return undo_batch(session, batch, now)


def undo_batch_id(session: Session, batch_id: int, now: datetime) -> UndoResult:
    """Revert batch `batch_id`, any one from the history, not only the newest."""
    batch = session.get(UndoBatch, batch_id)
    if batch is None:
        raise UndoError(f"no batch {batch_id} in the history; `murmur history` lists them")
    if batch.undone_at is not None:
        raise UndoError(f"batch {batch_id} was already undone")
    return undo_batch(session, batch, now)


def undo_batch(session: Session, batch: UndoBatch, now: datetime) -> UndoResult:
    """Revert every action of `batch` not undone yet, last first."""
    assert batch.id is not None
    items = [_revert(session, item, now) for item in _pending_items(session, batch.id)]
    batch.undone_at = now
    session.add(batch)
    return UndoResult(batch=batch, items=items)


def undo_item(session: Session, item_id: int, now: datetime) -> UndoResult:
    """Revert one action of a batch (from history), leaving the rest of the batch applied."""
    item = session.get(UndoItem, item_id)
    if item is None:
        raise UndoError(f"no action {item_id} in the history")
    if item.undone_at is not None:
        raise UndoError(f"action {item_id} was already undone")
    batch = session.get(UndoBatch, item.batch_id)
    assert batch is not None
    result = UndoResult(batch=batch, items=[_revert(session, item, now)])
    assert batch.id is not None
    if not _pending_items(session, batch.id):
        batch.undone_at = now
        session.add(batch)
    return result


@dataclass(frozen=True)
class HistoryBatch:
    batch: UndoBatch
    items: list[UndoItem]
    said: str | None = None  # the words the batch came from, when it came from an utterance


def history(session: Session, limit: int = 20) -> list[HistoryBatch]:
    """Batches, newest first, with their actions in the order they were applied."""
    batches = session.exec(select(UndoBatch).order_by(col(UndoBatch.id).desc()).limit(limit)).all()
    result = []
    for batch in batches:
        items = session.exec(
            select(UndoItem).where(UndoItem.batch_id == batch.id).order_by(col(UndoItem.position))
        ).all()
        utterance = session.get(Utterance, batch.utterance_id) if batch.utterance_id is not None else None
        result.append(HistoryBatch(batch=batch, items=list(items), said=utterance.text if utterance else None))
    return result
