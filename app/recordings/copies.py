"""Recordings copied out with a backup or an export, when the user asks: a folder beside the file, owner-only."""

import shutil
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session

from app.private_files import PRIVATE_FILE, ensure_private_dir
from app.recordings.folder import RecordingsFolder
from app.recordings.kept import kept_recordings


@dataclass(frozen=True)
class RecordingCopies:
    folder: Path
    count: int
    bytes: int


def copies_folder(beside: Path) -> Path:
    """`murmur-2026-01-01.db` -> `murmur-2026-01-01.db.recordings`: the two travel together."""
    return beside.with_name(f"{beside.name}.recordings")


def copy_kept(
    session: Session, folder: RecordingsFolder, target: Path, utterance_ids: Collection[int] | None
) -> RecordingCopies:
    """Copy the kept recordings (of `utterance_ids`, or all) into `target`, under their own names (which start with
    their utterance's number)."""
    chosen = [r for r in kept_recordings(session) if utterance_ids is None or r.utterance_id in utterance_ids]
    ensure_private_dir(target)
    size = 0
    for recording in chosen:
        copied = target / recording.file
        shutil.copyfile(folder.file(recording.file), copied)
        copied.chmod(PRIVATE_FILE)
        size += recording.bytes
    return RecordingCopies(target, len(chosen), size)
