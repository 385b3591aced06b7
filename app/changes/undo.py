"""Undo: revert a batch, or one action of it, exactly as it was before, unless it changed since.

Each undo item holds the entry's row as stored before the action (null for a create) and the
revision the action left. If the entry's revision is still that one, the row is put back column
for column (a created entry is deleted); if not, someone edited it since, and the item is
reported as a conflict instead of clobbering the newer change.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from itertools import groupby

from sqlalchemy import or_, text
from sqlmodel import Session, col, select

from app.domain.enums import UndoKind, UndoSubject
from app.errors import UndoError, Words, command
from app.store import Store
from app.store.column_types import to_db_time
from app.store.models import UndoBatch, UndoItem, Utterance


@dataclass(frozen=True)
class UndoRecord:
    """An undo item as an undo reports it: read in bulk as plain rows, not through the ORM, as the undo of an
    import reports tens of thousands (seconds as ORM objects)."""

    id: int
    position: int
    kind: UndoKind
    entry_id: str
    subject: UndoSubject
    description: str
    undone_at: datetime | None
    undo_conflict: str | None


@dataclass(frozen=True)
class RevertedItem:
    item: UndoRecord
    conflict: str | None  # None: reverted; otherwise why it was left as it is


@dataclass(frozen=True)
class UndoResult:
    batch: UndoBatch
    items: list[RevertedItem]

    @property
    def reverted(self) -> list[UndoRecord]:
        return [r.item for r in self.items if r.conflict is None]

    @property
    def conflicts(self) -> list[RevertedItem]:
        return [r for r in self.items if r.conflict is not None]


# Each subject's table; each has an `id` (an utterance's is a number, read from the text kept) and a `revision`
# counted up by every change undo can take back.
_TABLES = {
    UndoSubject.ENTRY: "entries",
    UndoSubject.MEMORY: "memories",
    UndoSubject.UTTERANCE: "utterances",
    UndoSubject.RECORDING: "recordings",  # the row only: its sound follows it out of the trash (app/recordings)
    UndoSubject.WORD: "vocabulary",
}


# A large batch (an import of tens of thousands of rows) is reverted this many actions at a time, each chunk its
# own short transaction (`undo_in_chunks`), so an utterance said meanwhile waits a moment, not the whole undo. Not
# fewer: each chunk rewrites most pages of the entries' indexes (its rows are spread over all of them).
UNDO_CHUNK = 5000

_GONE = "the {noun} no longer exists"
_CHANGED = "the {noun} was changed again since; left as it is now"


def _current_revision(session: Session, table: str, row_id: str) -> int | None:
    return session.execute(text(f"SELECT revision FROM {table} WHERE id = :id"), {"id": row_id}).scalar()


def _restore_rows(session: Session, table: str, rows: Sequence[dict[str, object]]) -> None:
    """Put rows back column for column, one statement per set of columns (older records may hold fewer)."""
    by_columns: dict[tuple[str, ...], list[dict[str, object]]] = {}
    for row in rows:
        by_columns.setdefault(tuple(name for name in row if name != "id"), []).append(row)
    for columns, group in by_columns.items():
        assignments = ", ".join(f"{name} = :{name}" for name in columns)
        session.execute(text(f"UPDATE {table} SET {assignments} WHERE id = :id"), group)


def _revert(session: Session, item: UndoItem, now: datetime) -> None:
    table, noun = _TABLES[item.subject], item.subject.value
    revision = _current_revision(session, table, item.entry_id)
    if revision is None:
        conflict = _GONE.format(noun=noun)
    elif revision != item.after_revision:
        conflict = _CHANGED.format(noun=noun)
    else:
        conflict = None
        if item.before_row is None:
            session.execute(text(f"DELETE FROM {table} WHERE id = :id"), {"id": item.entry_id})
        else:
            _restore_rows(session, table, [json.loads(item.before_row)])
        item.undone_at = now
    item.undo_conflict = conflict
    session.add(item)


@dataclass(frozen=True)
class _Pending:
    """An action not undone yet, as much of it as choosing how to revert it needs."""

    id: int
    position: int
    subject: UndoSubject
    creates: bool  # a create: reverting it deletes the row
    alone: bool  # the batch's only pending action on its row: it can be reverted with others, set-wise

    @property
    def kind(self) -> tuple[UndoSubject, bool, bool]:
        return self.subject, self.creates, self.alone


def _pending(session: Session, batch_id: int, below: int | None, limit: int | None) -> list[_Pending]:
    """The batch's pending actions before position `below`, last first, at most `limit`."""
    rows = session.execute(
        text(
            "SELECT id, position, subject, before_row IS NULL AS creates, NOT EXISTS (SELECT 1 FROM undo_items AS other"
            "  WHERE other.entry_id = item.entry_id AND other.subject = item.subject AND other.batch_id = item.batch_id"
            "  AND other.id != item.id AND other.undone_at IS NULL) AS alone "
            "FROM undo_items AS item WHERE batch_id = :batch AND undone_at IS NULL "
            "AND (:below IS NULL OR position < :below) ORDER BY position DESC LIMIT :limit"
        ),
        {"batch": batch_id, "below": below, "limit": -1 if limit is None else limit},  # -1: no limit
    )
    return [_Pending(r.id, r.position, UndoSubject(r.subject), bool(r.creates), bool(r.alone)) for r in rows]


def _revert_together(session: Session, subject: UndoSubject, creates: bool, ids: list[int], now: datetime) -> None:
    """Revert actions on distinct rows of one table in a few statements, not one per row: the conflicts are
    found set-wise by revision (as `_revert` finds them one by one), then the rest are deleted or restored."""
    table, noun = _TABLES[subject], subject.value
    chosen = "undo_items.id IN (SELECT value FROM json_each(:ids))"
    current = f"FROM {table} WHERE {table}.id = undo_items.entry_id"
    params: dict[str, object] = {"ids": json.dumps(ids)}
    session.execute(
        text(
            f"UPDATE undo_items SET undo_conflict = CASE WHEN NOT EXISTS (SELECT 1 {current}) THEN :gone "
            f"WHEN (SELECT revision {current}) != after_revision THEN :changed END WHERE {chosen}"
        ),
        params | {"gone": _GONE.format(noun=noun), "changed": _CHANGED.format(noun=noun)},
    )
    revertible = f"FROM undo_items WHERE {chosen} AND undo_conflict IS NULL"
    if creates:
        session.execute(text(f"DELETE FROM {table} WHERE id IN (SELECT entry_id {revertible})"), params)
    else:
        befores = session.execute(text(f"SELECT before_row {revertible}"), params).scalars()
        _restore_rows(session, table, [json.loads(before) for before in befores])
    session.execute(
        text(f"UPDATE undo_items SET undone_at = :now WHERE {chosen} AND undo_conflict IS NULL"),
        params | {"now": to_db_time(now)},
    )


def _revert_pending(session: Session, pending: list[_Pending], now: datetime) -> None:
    """Revert `pending` (last first): each run of actions alike on rows no other pending action touches goes
    together; an action sharing its row with another (a create, then an update of it) goes one by one, in order."""
    for (subject, creates, alone), run in groupby(pending, key=lambda p: p.kind):
        ids = [p.id for p in run]
        if alone:
            _revert_together(session, subject, creates, ids, now)
            continue
        for item_id in ids:
            item = session.get(UndoItem, item_id)
            assert item is not None
            _revert(session, item, now)
    session.flush()


def _undo_chunk(
    session: Session, batch: UndoBatch, now: datetime, below: int | None, limit: int | None
) -> list[_Pending]:
    """Revert up to `limit` of the batch's pending actions before position `below`, last first; the batch is
    marked undone with its last chunk. Returns the actions looked at."""
    assert batch.id is not None
    pending = _pending(session, batch.id, below, limit)
    _revert_pending(session, pending, now)
    if limit is None or len(pending) < limit:
        batch.undone_at = now
        session.add(batch)
    return pending


def _result(session: Session, batch: UndoBatch, item_ids: list[int]) -> UndoResult:
    """The batch's actions `item_ids` as they are now, last first."""
    session.flush()
    names = ", ".join(field.name for field in fields(UndoRecord))
    rows = session.execute(
        text(f"SELECT {names} FROM undo_items WHERE id IN (SELECT value FROM json_each(:ids)) ORDER BY position DESC"),
        {"ids": json.dumps(item_ids)},
    ).all()
    records = [
        UndoRecord(
            id=row.id,
            position=row.position,
            kind=UndoKind(row.kind),
            entry_id=row.entry_id,
            subject=UndoSubject(row.subject),
            description=row.description,
            undone_at=_time(row.undone_at),
            undo_conflict=row.undo_conflict,
        )
        for row in rows
    ]
    return UndoResult(
        batch=batch, items=[RevertedItem(item=record, conflict=record.undo_conflict) for record in records]
    )


def _time(stored: str | None) -> datetime | None:
    return None if stored is None else datetime.fromisoformat(stored)


def latest_batch(session: Session) -> UndoBatch:
    """The user's newest batch not undone yet: their own words, or an assistant's request they said yes to. What an
    assistant writes in the background is not what "undo" means (it is taken back by number, from the history)."""
    said_yes_to = select(Utterance.id).where(col(Utterance.held).is_not(None))
    batch = session.exec(
        select(UndoBatch)
        .where(
            col(UndoBatch.undone_at).is_(None),
            or_(col(UndoBatch.origin).is_(None), col(UndoBatch.utterance_id).in_(said_yes_to)),
        )
        .order_by(col(UndoBatch.id).desc())
        .limit(1)
    ).first()
    if batch is None:
        raise UndoError("nothing to undo")
    return batch


def batch_to_undo(session: Session, batch_id: int) -> UndoBatch:
    """Batch `batch_id`, any one from the history, not only the newest, when it is not undone yet."""
    batch = session.get(UndoBatch, batch_id)
    if batch is None:
        listed = command("history", instead=Words("the History lists them"), phrase="{} lists them")
        raise UndoError(f"no batch {batch_id} in the history", listed)
    if batch.undone_at is not None:
        raise UndoError(f"batch {batch_id} was already undone")
    return batch


def undo_latest(session: Session, now: datetime) -> UndoResult:
    """Revert the newest batch not undone yet, last action first."""
    return undo_batch(session, latest_batch(session), now)


def undo_batch_id(session: Session, batch_id: int, now: datetime) -> UndoResult:
    """Revert batch `batch_id`, any one from the history, not only the newest."""
    return undo_batch(session, batch_to_undo(session, batch_id), now)


def undo_batch(session: Session, batch: UndoBatch, now: datetime) -> UndoResult:
    """Revert every action of `batch` not undone yet, last first, in the caller's transaction."""
    return _result(session, batch, [p.id for p in _undo_chunk(session, batch, now, below=None, limit=None)])


def undo_in_chunks(
    store: Store, pick: Callable[[Session], UndoBatch], now: datetime, chunk: int = UNDO_CHUNK
) -> UndoResult:
    """Revert the batch `pick` chooses, `chunk` actions per transaction, last first.

    Resumable rather than all-or-nothing: each chunk commits its reverts with their actions marked undone, and
    the batch is marked undone with the last chunk. When the process dies (or the lock cannot be had) between
    chunks, the batch stays in the history with the rest of its actions pending, and undoing it again (the
    newest batch, or this one by number) carries on from there; an action edited in between is a conflict,
    left as it is, as always. Another writer gets the lock between chunks.
    """
    looked_at: list[int] = []
    below: int | None = None
    batch_id: int | None = None  # chosen once: a batch made between two chunks is not the one undone
    while True:
        with store.write() as session:
            batch = pick(session) if batch_id is None else batch_to_undo(session, batch_id)
            batch_id = batch.id
            pending = _undo_chunk(session, batch, now, below, chunk)
        looked_at += [p.id for p in pending]
        if batch.undone_at is not None:
            break
        below = pending[-1].position
    with store.read() as session:
        return _result(session, batch, looked_at)


def undo_item(session: Session, item_id: int, now: datetime) -> UndoResult:
    """Revert one action of a batch (from history), leaving the rest of the batch applied."""
    item = session.get(UndoItem, item_id)
    if item is None:
        raise UndoError(f"no action {item_id} in the history")
    if item.undone_at is not None:
        raise UndoError(f"action {item_id} was already undone")
    batch = session.get(UndoBatch, item.batch_id)
    assert batch is not None
    _revert(session, item, now)
    result = _result(session, batch, [item_id])
    assert batch.id is not None
    if not _pending(session, batch.id, below=None, limit=1):
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
