"""How long recordings are kept: the oldest sounds go first once they are older or bigger than the settings allow.

Pruning removes the files and keeps the rows (marked pruned), so `murmur play` can say where a sound went. It
also empties the trash of sounds forgotten a week ago, and sweeps files no row names (a write cut short, or an
utterance deleted with its row).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.domain.enums import RecordingRemoval
from app.recordings.folder import RecordingsFolder
from app.store.models import Recording

TRASH_DAYS = 7  # a forgotten sound can be brought back by undo this long


@dataclass(frozen=True)
class Retention:
    keep: bool = True  # off: no sound is kept, and those kept before go at the next prune
    max_days: int = 30
    max_bytes: int = 500_000_000


def prune_due(session: Session, folder: RecordingsFolder, retention: Retention, now: datetime) -> bool:
    """Whether `prune` has anything to do, found by reading only (a start usually writes nothing)."""
    kept = session.exec(select(Recording).where(col(Recording.removed_at).is_(None))).all()
    if kept and (not retention.keep or sum(r.bytes for r in kept) > retention.max_bytes):
        return True
    if any(r.created_at < now - timedelta(days=retention.max_days) for r in kept):
        return True
    if set(folder.names()) != {r.file for r in kept}:
        return True
    trashed = set(folder.names(trashed=True))
    return bool(trashed and trashed - set(_forgotten_since(session, now - timedelta(days=TRASH_DAYS))))


def _forgotten_since(session: Session, moment: datetime) -> Sequence[str]:
    return session.exec(
        select(Recording.file).where(
            Recording.removed_why == RecordingRemoval.FORGOTTEN, col(Recording.removed_at) >= moment
        )
    ).all()


def prune(session: Session, folder: RecordingsFolder, retention: Retention, now: datetime) -> int:
    """Remove the sounds `retention` no longer allows, oldest first; returns how many."""
    kept = session.exec(
        select(Recording).where(col(Recording.removed_at).is_(None)).order_by(col(Recording.created_at).desc())
    ).all()
    oldest_allowed = now - timedelta(days=retention.max_days)
    total, pruned = 0, 0
    for recording in kept:  # newest first: what is over the size limit is the oldest
        total += recording.bytes
        if retention.keep and recording.created_at >= oldest_allowed and total <= retention.max_bytes:
            continue
        recording.removed_at, recording.removed_why = now, RecordingRemoval.PRUNED
        session.add(recording)
        folder.delete(recording.file)
        pruned += 1
    _empty_trash(session, folder, now - timedelta(days=TRASH_DAYS))
    _sweep(session, folder)
    session.flush()
    return pruned


def _empty_trash(session: Session, folder: RecordingsFolder, before: datetime) -> None:
    """Forgotten long enough ago: their undo can bring back the row, no longer the sound."""
    expired = session.exec(
        select(Recording.file).where(
            Recording.removed_why == RecordingRemoval.FORGOTTEN, col(Recording.removed_at) < before
        )
    ).all()
    for name in set(expired) & set(folder.names(trashed=True)):
        folder.delete(name, trashed=True)


def _sweep(session: Session, folder: RecordingsFolder) -> None:
    """Files no recording row names any more."""
    named = set(session.exec(select(Recording.file)).all())
    for trashed in (False, True):
        for name in set(folder.names(trashed=trashed)) - named:
            folder.delete(name, trashed=trashed)
