"""The recordings folder beside the database (0700, its files 0600), and its trash of forgotten sounds.

Murmur touches only what it made there: a folder it created (it holds Murmur's mark), and in it files of its
own naming. A `recordings` folder of the user's beside a database opened with --db (or one that is a link to
their music) is left alone, and the sounds go to a folder named after the database instead.
"""

import logging
import os
import re
import stat
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from app.private_files import ensure_private_dir

log = logging.getLogger("murmur.recordings")

SUFFIX = ".flac"
MARK = ".murmur-recordings"  # written into the folder when Murmur makes it: only a marked folder is Murmur's
_OWN_NAME = re.compile(r"\d+-[0-9a-f]{12}" + re.escape(SUFFIX))  # as `new_file` names them
_TRASH = "trash"


@dataclass(frozen=True)
class RecordingsFolder:
    path: Path

    @classmethod
    def beside(cls, db_path: Path) -> "RecordingsFolder":
        """Next to the database, as its backups are: a second profile (--db elsewhere) keeps its own. When a
        `recordings` folder there is not Murmur's, one named after the database."""
        usual = db_path.parent / "recordings"
        return cls(usual if _ours_or_free(usual) else db_path.parent / f"{db_path.name}-recordings")

    @property
    def owned(self) -> bool:
        """Whether Murmur made this folder: only then is anything in it removed by Murmur."""
        return _marked(self.path)

    @property
    def trash(self) -> Path:
        """Forgotten sounds, until undo brings them back or retention empties it."""
        return self.path / _TRASH

    def new_file(self, utterance_id: int) -> Path:
        """A fresh file name (an utterance's number can come again once a newer database is restored); an
        OSError when the folder is not Murmur's to write in."""
        if not self.path.is_dir():  # made 0700 once; not re-checked file by file at every recording
            ensure_private_dir(self.path)
            _mark(self.path)
        if not self.owned:
            raise PermissionError(f"{self.path} is not Murmur's recordings folder: no sound is kept there")
        return self.path / f"{utterance_id}-{uuid.uuid4().hex[:12]}{SUFFIX}"

    def file(self, name: str) -> Path:
        """Where the sound `name` is; a name Murmur never gives (a path, another file's) is never found."""
        return self.path / name if _own_name(name) else self.path / MARK / "none"

    def to_trash(self, name: str) -> None:
        if not (self.owned and _own_name(name)):
            return
        if not self.trash.is_dir():
            ensure_private_dir(self.trash)
        _move(self.path / name, self.trash / name)

    def from_trash(self, name: str) -> bool:
        """Put a forgotten sound back; False when the trash no longer holds it."""
        if not (self.owned and _own_name(name) and _own_file(self.trash / name)):
            return False
        _move(self.trash / name, self.path / name)
        return True

    def delete(self, name: str, *, trashed: bool = False) -> None:
        """Remove a sound of Murmur's; anything else (a name it never gives, a link, a folder not its own) stays."""
        path = (self.trash if trashed else self.path) / name
        if self.owned and _own_name(name) and _own_file(path):
            path.unlink(missing_ok=True)

    def names(self, *, trashed: bool = False) -> Iterator[str]:
        """The sound files Murmur wrote there (a write cut short leaves none: the row is committed after its file)."""
        folder = self.trash if trashed else self.path
        if self.owned and folder.is_dir() and not folder.is_symlink():
            yield from (path.name for path in folder.iterdir() if _own_name(path.name) and _own_file(path))


def _own_name(name: str) -> bool:
    return _OWN_NAME.fullmatch(name) is not None


def _own_file(path: Path) -> bool:
    """A regular file, not a link to one elsewhere."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _marked(folder: Path) -> bool:
    return not folder.is_symlink() and folder.is_dir() and _own_file(folder / MARK)


def _mark(folder: Path) -> None:
    os.close(os.open(folder / MARK, os.O_WRONLY | os.O_CREAT, 0o600))


def _ours_or_free(folder: Path) -> bool:
    """Whether Murmur may keep its sounds in `folder`: not there yet, marked as Murmur's, or made by an older
    Murmur that wrote no mark (owner-only, holding nothing but sounds of Murmur's naming): that one is marked now."""
    if not folder.exists() and not folder.is_symlink():
        return True
    if _marked(folder):
        return True
    if _made_by_an_older_murmur(folder):
        _mark(folder)
        return True
    return False


def _made_by_an_older_murmur(folder: Path) -> bool:
    try:
        if folder.is_symlink() or not folder.is_dir() or stat.S_IMODE(folder.stat().st_mode) & 0o077:
            return False
        inside = list(folder.iterdir())
        trash = [path for path in inside if path.name == _TRASH and path.is_dir() and not path.is_symlink()]
        sounds = [path for path in inside if path not in trash]
        kept = [*sounds, *(path for folder in trash for path in folder.iterdir())]
    except OSError:
        return False
    return all(_own_name(path.name) and _own_file(path) for path in kept)


def _move(source: Path, target: Path) -> None:
    try:
        source.replace(target)
    except FileNotFoundError:
        log.warning("the recording %s was already gone", source)
