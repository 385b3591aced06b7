"""A recording's row and file together: kept with its utterance, found again, its sound forgotten (undoably).

The row is the truth and the file follows it, after the row's change is committed: a row whose sound was
forgotten has it in the trash; an undo puts the row back, and `follow_undo` brings the file back out of the trash
with it.
"""

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlmodel import Session, col, select

from app.changes.memories import batch_label
from app.domain.enums import RecordingRemoval, UndoKind, UndoSubject
from app.domain.verbs import PAST_TENSE
from app.errors import NoRecordingError, RecordingGoneError, Words, command
from app.recordings.folder import RecordingsFolder
from app.recordings.sound import seconds_of, write_sound
from app.store.models import Recording, UndoBatch, UndoItem, Utterance
from app.store.queries import encode_row

_LISTED = command("inbox", instead=Words("the Inbox lists them"))
_UNDO = command("history", instead=Words("the History's undo brings it back"), phrase="undo it ({}) to get it back")
_KEEP_LONGER = command(
    "config",
    "set",
    "recordings.max_days",
    "DAYS",
    instead=Words("recordings.max_days in the settings file keeps them longer"),
    phrase="keep them longer with {}",
)


def keep(session: Session, folder: RecordingsFolder, utterance_id: int, pcm: bytes, now: datetime) -> Recording:
    """Write `pcm` as the utterance's recording, its row in the caller's transaction (after the file: a crash
    leaves a file no row names, which retention sweeps, never a row without its file)."""
    path = folder.new_file(utterance_id)
    size = write_sound(path, pcm)
    recording = Recording(
        utterance_id=utterance_id, file=path.name, bytes=size, seconds=seconds_of(pcm), created_at=now
    )
    session.add(recording)
    session.flush()
    return recording


def recording_file(session: Session, folder: RecordingsFolder, utterance_id: int) -> Path:
    """The file of utterance `utterance_id`'s recording; NoRecordingError or RecordingGoneError saying why not."""
    recording = session.exec(select(Recording).where(Recording.utterance_id == utterance_id)).first()
    if recording is None:
        if session.get(Utterance, utterance_id) is None:
            raise NoRecordingError(f"no utterance {utterance_id}", _LISTED)
        raise NoRecordingError(f"utterance {utterance_id} has no recording: it was typed, or said with recordings off")
    if recording.removed_why is RecordingRemoval.FORGOTTEN:
        raise RecordingGoneError(f"the recording of utterance {utterance_id} was forgotten", _UNDO)
    path = folder.file(recording.file)
    if recording.removed_at is not None or not path.is_file():
        raise RecordingGoneError(
            f"the recording of utterance {utterance_id} was removed by the retention settings", _KEEP_LONGER
        )
    return path


@dataclass(frozen=True)
class Forgetting:
    """What `forget_sounds` did: the sounds moved to the trash, the bytes they held, the batch undo takes back."""

    count: int
    bytes: int
    batch_id: int | None
    files: tuple[str, ...] = ()  # moved to the trash by `to_trash` once the forgetting is committed


def kept_recordings(
    session: Session, utterance_id: int | None = None, older_than: datetime | None = None
) -> Sequence[Recording]:
    """The recordings whose sound is kept, oldest first: of one utterance, or made before `older_than`, or all."""
    query = select(Recording).where(col(Recording.removed_at).is_(None)).order_by(col(Recording.created_at))
    if utterance_id is not None:
        query = query.where(Recording.utterance_id == utterance_id)
    if older_than is not None:
        query = query.where(col(Recording.created_at) < older_than)
    return session.exec(query).all()


def recorded_of(session: Session, utterance_ids: Collection[int]) -> set[int]:
    """Those of `utterance_ids` whose recording is kept."""
    query = select(Recording.utterance_id).where(
        col(Recording.removed_at).is_(None), col(Recording.utterance_id).in_(list(utterance_ids))
    )
    return set(session.exec(query).all())


def removals_of(session: Session, utterance_ids: Collection[int]) -> dict[int, RecordingRemoval | None]:
    """Of `utterance_ids`, those with a recording: None while its sound is kept, else why it went (the others never
    had one)."""
    recordings = session.exec(select(Recording).where(col(Recording.utterance_id).in_(list(utterance_ids))))
    return {
        r.utterance_id: None if r.removed_at is None else (r.removed_why or RecordingRemoval.PRUNED) for r in recordings
    }


def forget_sounds(session: Session, recordings: Sequence[Recording], now: datetime) -> Forgetting:
    """Mark these recordings' sound forgotten, in one undo batch (the utterances' words stay as they are); the
    files go to the trash with `to_trash` after the caller's transaction commits, so a write that fails leaves
    every sound where its row says it is."""
    if not recordings:
        return Forgetting(0, 0, None)
    batch = UndoBatch(label=_label(session, recordings), created_at=now)
    session.add(batch)
    session.flush()
    assert batch.id is not None
    for position, recording in enumerate(recordings):
        assert recording.id is not None
        before = encode_row(_row(recording))
        recording.removed_at, recording.removed_why = now, RecordingRemoval.FORGOTTEN
        recording.revision += 1
        session.add(recording)
        said = session.get(Utterance, recording.utterance_id)
        session.add(
            UndoItem(
                batch_id=batch.id,
                position=position,
                kind=UndoKind.FORGET_AUDIO,
                entry_id=str(recording.id),
                description=json.dumps({"text": said.text if said else ""}, ensure_ascii=False),
                subject=UndoSubject.RECORDING,
                before_row=before,
                after_revision=recording.revision,
            )
        )
    session.flush()
    return Forgetting(len(recordings), sum(r.bytes for r in recordings), batch.id, tuple(r.file for r in recordings))


def to_trash(folder: RecordingsFolder, forgetting: Forgetting) -> Forgetting:
    for name in forgetting.files:
        folder.to_trash(name)
    return forgetting


def follow_undo(session: Session, folder: RecordingsFolder, undone: Collection[str], now: datetime) -> set[str]:
    """Bring back out of the trash the sounds of the recordings `undone` (their IDs) made kept again; returns the
    IDs of those whose sound is gone (the trash was emptied since), their rows marked removed."""
    trashed, kept = set(folder.names(trashed=True)), set(folder.names())
    ids = [int(number) for number in undone]
    lost: set[str] = set()
    for row in session.exec(select(Recording).where(col(Recording.id).in_(ids), col(Recording.removed_at).is_(None))):
        if row.file in trashed and folder.from_trash(row.file) or row.file in kept:
            continue
        row.removed_at, row.removed_why = now, RecordingRemoval.PRUNED  # the housekeeping emptied the trash
        session.add(row)
        lost.add(str(row.id))
    return lost


def _row(recording: Recording) -> dict[str, object]:
    """The columns a forgetting changes, as stored, for its undo to put back."""
    return {"id": recording.id, "removed_at": None, "removed_why": None, "revision": recording.revision}


def _label(session: Session, recordings: Sequence[Recording]) -> str:
    verb = PAST_TENSE[UndoKind.FORGET_AUDIO]
    if len(recordings) > 1:
        return f"{verb} {len(recordings)} utterances"
    said = session.get(Utterance, recordings[0].utterance_id)
    return batch_label(verb, said.text if said else "")
