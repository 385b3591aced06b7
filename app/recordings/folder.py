"""The recordings folder beside the database (0700, its files 0600), and its trash of forgotten sounds."""

import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from app.private_files import ensure_private_dir

log = logging.getLogger("murmur.recordings")

SUFFIX = ".flac"


@dataclass(frozen=True)
class RecordingsFolder:
    path: Path

    @classmethod
    def beside(cls, db_path: Path) -> "RecordingsFolder":
        """Next to the database, as its backups are: a second profile (--db elsewhere) keeps its own."""
        return cls(db_path.parent / "recordings")

    @property
    def trash(self) -> Path:
        """Forgotten sounds, until undo brings them back or retention empties it."""
        return self.path / "trash"

    def new_file(self, utterance_id: int) -> Path:
        """A fresh file name (an utterance's number can come again once a newer database is restored)."""
        if not self.path.is_dir():  # made 0700 once; not re-checked file by file at every recording
            ensure_private_dir(self.path)
        return self.path / f"{utterance_id}-{uuid.uuid4().hex[:12]}{SUFFIX}"

    def file(self, name: str) -> Path:
        return self.path / name

    def to_trash(self, name: str) -> None:
        ensure_private_dir(self.trash)
        _move(self.path / name, self.trash / name)

    def from_trash(self, name: str) -> bool:
        """Put a forgotten sound back; False when the trash no longer holds it."""
        if not (self.trash / name).is_file():
            return False
        _move(self.trash / name, self.path / name)
        return True

    def delete(self, name: str, *, trashed: bool = False) -> None:
        (self.trash if trashed else self.path).joinpath(name).unlink(missing_ok=True)

    def names(self, *, trashed: bool = False) -> Iterator[str]:
        """The sound files there (a write cut short leaves none: the row is committed after its file)."""
        folder = self.trash if trashed else self.path
        if folder.is_dir():
            yield from (path.name for path in folder.iterdir() if path.suffix == SUFFIX and path.is_file())


def _move(source: Path, target: Path) -> None:
    try:
        source.replace(target)
    except FileNotFoundError:
        log.warning("the recording %s was already gone", source)
