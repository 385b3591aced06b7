"""How long recordings are kept: the oldest sounds go first once they are older or bigger than the settings allow.

Pruning removes the files and keeps the rows (marked pruned), so `murmur play` can say where a sound went. The
rows over the limits are found set-wise in SQL (a running total of sizes, newest first), so a new recording
costs the same with ten thousand kept. At start, the housekeeping also empties the trash of sounds forgotten a
week ago and sweeps files no row names (a write cut short, or an utterance deleted with its row).
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import text
from sqlmodel import Session, col, select

from app.domain.enums import RecordingRemoval
from app.recordings.folder import RecordingsFolder
from app.store.column_types import to_db_time
from app.store.models import Recording

TRASH_DAYS = 7  # a forgotten sound can be brought back by undo this long

# The kept recordings past the limits: too old, or beyond the size allowed counting from the newest. The running
# total is only worked out when all of them together are over the size (a sum is cheaper than a window).
_TOO_OLD = "SELECT id, file FROM recordings WHERE removed_at IS NULL AND (NOT :keep OR created_at < :oldest)"
_KEPT_BYTES = "SELECT COALESCE(SUM(bytes), 0) FROM recordings WHERE removed_at IS NULL"
_TOO_BIG = (
    "SELECT id, file FROM (SELECT id, file, SUM(bytes) OVER (ORDER BY created_at DESC, id DESC) AS total"
    " FROM recordings WHERE removed_at IS NULL) WHERE total > :max_bytes"
)
_PRUNED = text(
    "UPDATE recordings SET removed_at = :now, removed_why = :why WHERE id IN (SELECT value FROM json_each(:ids))"
)


@dataclass(frozen=True)
class Retention:
    keep: bool = True  # off: no sound is kept, and those kept before go at the next prune
    max_days: int = 30
    max_bytes: int = 500_000_000


def prune(session: Session, folder: RecordingsFolder, retention: Retention, now: datetime) -> int:
    """Remove the sounds `retention` no longer allows, oldest first; returns how many."""
    over = _over_the_limits(session, retention, now)
    _mark_pruned(session, [recording_id for recording_id, _ in over], now)
    for _, name in over:
        folder.delete(name)
    return len(over)


def housekeeping_due(session: Session, folder: RecordingsFolder, retention: Retention, now: datetime) -> bool:
    """Whether `housekeeping` has anything to do, found by reading only (a start usually writes nothing)."""
    if _over_the_limits(session, retention, now):
        return True
    kept = session.exec(select(Recording.file).where(col(Recording.removed_at).is_(None))).all()
    if set(folder.names()) != set(kept):
        return True
    trashed = set(folder.names(trashed=True))
    return bool(trashed and trashed - set(_forgotten_since(session, now - timedelta(days=TRASH_DAYS))))


def housekeeping(session: Session, folder: RecordingsFolder, retention: Retention, now: datetime) -> int:
    """At start: `prune`, then the trash emptied of what was forgotten a week ago and the files no row names."""
    pruned = prune(session, folder, retention, now)
    recent = set(_forgotten_since(session, now - timedelta(days=TRASH_DAYS)))
    for name in set(folder.names(trashed=True)) - recent:  # their undo can bring back the row, no longer the sound
        folder.delete(name, trashed=True)
    kept = {
        row.file: row.id for row in session.execute(text("SELECT file, id FROM recordings WHERE removed_at IS NULL"))
    }
    there = set(folder.names())
    for name in there - set(kept):
        folder.delete(name)
    # A row whose sound is gone (the trash emptied before its undo, a file removed by hand) says so from now on.
    _mark_pruned(session, [kept[name] for name in set(kept) - there], now)
    return pruned


def _mark_pruned(session: Session, ids: list[int], now: datetime) -> None:
    if ids:
        session.execute(_PRUNED, {"now": to_db_time(now), "why": RecordingRemoval.PRUNED.value, "ids": json.dumps(ids)})


def _over_the_limits(session: Session, retention: Retention, now: datetime) -> list[tuple[int, str]]:
    oldest = to_db_time(now - timedelta(days=retention.max_days))
    found = {row.id: row.file for row in session.execute(text(_TOO_OLD), {"keep": retention.keep, "oldest": oldest})}
    if session.execute(text(_KEPT_BYTES)).scalar_one() > retention.max_bytes:
        found |= {row.id: row.file for row in session.execute(text(_TOO_BIG), {"max_bytes": retention.max_bytes})}
    return list(found.items())


def _forgotten_since(session: Session, moment: datetime) -> Sequence[str]:
    return session.exec(
        select(Recording.file).where(
            Recording.removed_why == RecordingRemoval.FORGOTTEN, col(Recording.removed_at) >= moment
        )
    ).all()
