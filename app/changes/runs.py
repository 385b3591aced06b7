"""An utterance's run: held by one process at a time, and all or nothing to the user.

The write that starts a run (saving the utterance, or a retry) takes a lease on it: the holder's
host and pid, and an expiry. The run applies its changes turn by turn under the lease, and the
write that records how it ended gives the lease back, marking the utterance done in the same
transaction as its last change. A lease whose holder is gone (killed, crashed) marks an interrupted
run: what it applied is reverted and the utterance waits in the inbox, failed with "interrupted".
A second run of a leased utterance is refused while its holder lives, so nothing is applied twice.
"""

import os
import socket
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.changes.undo import RevertedItem, undo_batch
from app.domain.enums import UtteranceOutcome
from app.errors import RunInProgressError
from app.processes import pid_alive
from app.store.models import UndoBatch, Utterance, utc_now
from app.store.queries import short_id_of

# A backstop for holders whose pid tells nothing (another host sharing the file, a pid reused after a
# reboot); renewed with every applied turn, so only a run silent for this long can lose its lease.
LEASE = timedelta(minutes=15)
INTERRUPTED = "interrupted"


def holder_alive(utterance: Utterance) -> bool:
    """Whether a live process (this one included) holds the lease on `utterance`."""
    if utterance.lease_pid is None or utterance.lease_until is None or utterance.lease_until <= utc_now():
        return False
    if utterance.lease_host != socket.gethostname():
        return True  # its processes cannot be seen from here: trust the expiry
    return pid_alive(utterance.lease_pid)


def take_lease(utterance: Utterance) -> None:
    """Hold `utterance` for this process; refused while a live one holds it (recover a dead holder's run first)."""
    if holder_alive(utterance):
        raise RunInProgressError(
            f"utterance {utterance.id} is being run by process {utterance.lease_pid} on {utterance.lease_host}; "
            "try again once it has finished"
        )
    utterance.lease_host, utterance.lease_pid = socket.gethostname(), os.getpid()
    renew_lease(utterance)


def renew_lease(utterance: Utterance) -> None:
    utterance.lease_until = utc_now() + LEASE


def end_run(
    session: Session, utterance: Utterance, outcome: UtteranceOutcome, error: str | None, now: datetime
) -> None:
    """Record how the run ended and give the lease back."""
    if utterance.outcome is not outcome or utterance.processed_at is None:
        utterance.processed_at = now
    utterance.outcome, utterance.error = outcome, error
    utterance.lease_host = utterance.lease_pid = utterance.lease_until = None
    session.add(utterance)


def revert_run(session: Session, utterance: Utterance, error: str, now: datetime) -> None:
    """Revert what the run applied and leave the utterance failed with `error` (retryable). A change
    edited since is kept, as undo keeps it, and the error names it: a retry would make it again."""
    # The run's own batches: an earlier run of an utterance that is not done was reverted already.
    batches = session.exec(
        select(UndoBatch).where(UndoBatch.utterance_id == utterance.id, col(UndoBatch.undone_at).is_(None))
    ).all()
    kept: list[RevertedItem] = []
    for batch in batches:
        kept += undo_batch(session, batch, now).conflicts
        batch.label = f"abandoned: {error}"[:200]
        session.add(batch)
    if kept:
        changes = ", ".join(f"{k.item.kind} {short_id_of(session, k.item.entry_id)}" for k in kept)
        error = f"{error}; kept {len(kept)} of its changes, edited since: {changes}"
    end_run(session, utterance, UtteranceOutcome.FAILED, error, now)


def interrupted_runs(session: Session) -> list[Utterance]:
    """Utterances whose run's holder is gone."""
    leased = session.exec(select(Utterance).where(col(Utterance.lease_pid).is_not(None))).all()
    return [utterance for utterance in leased if not holder_alive(utterance)]


def recover_interrupted(session: Session, now: datetime) -> list[int]:
    """Revert the runs whose holder is gone; returns their utterances' IDs."""
    runs = interrupted_runs(session)
    for utterance in runs:
        revert_run(session, utterance, INTERRUPTED, now)
    return [utterance.id for utterance in runs if utterance.id is not None]
