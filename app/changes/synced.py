"""Changes that arrive from the sync server, written as one undo batch labelled "sync".

Each is an entry created, changed field by field, or archived (the server deleted it), with its undo item, so
`murmur undo` takes a whole sync back like any other batch. The caller holds the write transaction.
"""

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlmodel import Session

from app.domain.checklist import load_items, progress
from app.domain.enums import Status, UndoKind
from app.store.models import Entry, UndoBatch, UndoItem
from app.store.queries import encode_row, raw_entry_row

SYNC_LABEL = "sync"


class SyncBatch:
    """The undo batch of one sync, made when its first change is."""

    def __init__(self, session: Session, now: datetime) -> None:
        self.session = session
        self.now = now
        self.batch: UndoBatch | None = None
        self.count = 0

    @property
    def undo_id(self) -> int | None:
        return None if self.batch is None else self.batch.id

    def _record(self, kind: UndoKind, entry: Entry, before_row: str | None, described: Mapping[str, Any]) -> None:
        if self.batch is None:
            self.batch = UndoBatch(label=SYNC_LABEL, created_at=self.now)
            self.session.add(self.batch)
            self.session.flush()
        assert self.batch.id is not None
        self.session.add(
            UndoItem(
                batch_id=self.batch.id,
                position=self.count,
                kind=kind,
                entry_id=entry.id,
                description=json.dumps({"kind": kind, "summary": entry.summary, "synced": True, **described}),
                before_row=before_row,
                after_revision=entry.revision,
            )
        )
        self.count += 1

    def create(self, entry: Entry) -> None:
        self.session.add(entry)
        self.session.flush()
        self._record(UndoKind.CREATE, entry, None, {})

    def update(self, entry: Entry, values: Mapping[str, object]) -> None:
        """Set the fields in `values` that differ from the entry's; nothing is recorded when none does."""
        changes = {name: value for name, value in values.items() if getattr(entry, name) != value}
        if not changes:
            return
        before = self._change(entry, changes)
        shown = {name: _shown(name, value) for name, value in changes.items() if name != "completed_at"}
        kind = UndoKind.COMPLETE if changes.get("status") is Status.COMPLETED else UndoKind.UPDATE
        self._record(kind, entry, before, {"changes": shown} if shown else {})

    def archive(self, entry: Entry) -> None:
        """The server deleted it: archived here, never deleted, so undo (or the user) can bring it back."""
        if entry.status is Status.ARCHIVED:
            return
        before = self._change(entry, {"status": Status.ARCHIVED, "snooze_until": None})
        self._record(UndoKind.ARCHIVE, entry, before, {"reason": "deleted on the sync server"})

    def _change(self, entry: Entry, changes: Mapping[str, object]) -> str:
        """Write `changes` as one revision of the entry; its row as stored before, for undo."""
        self.session.flush()
        before = raw_entry_row(self.session, entry.id)
        assert before is not None
        for name, value in changes.items():
            setattr(entry, name, value)
        entry.updated_at = self.now
        entry.revision += 1
        self.session.add(entry)
        self.session.flush()
        return encode_row(before)


def _shown(name: str, value: object) -> object:
    """A field's new value as the history shows it."""
    if name == "items":  # a checklist as its progress: "2 of 4 done"
        return f"{progress(load_items(value if isinstance(value, str) else None))} done"
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes")
    return getattr(value, "value", value)
