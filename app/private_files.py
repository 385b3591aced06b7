"""Owner-only files: what Murmur keeps (everything the user said, settings, logs) is readable by the user alone.

Folders are 0700 and files 0600. New ones are made so (the process umask, and an explicit mode where a
file is made); ones found looser, left by an older version or another program, are tightened with a log
line each. Things of another user's (a database opened with --db as root) are left as they are.
"""

import glob
import logging
import os
import stat
from pathlib import Path

from app.errors import OutputPathError
from app.paths import config_dir, data_dir

log = logging.getLogger("murmur.files")

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
_OTHERS = 0o077  # the group's and everyone's bits


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (0700), or tighten it and the files directly in it; subfolders (downloaded speech
    models) stay as they are."""
    path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    _tighten(path, PRIVATE_DIR)
    for child in path.iterdir():
        ensure_private_file(child)
    return path


def ensure_private_file(path: Path) -> None:
    """Tighten an existing regular file to owner-only (a missing one is left for its writer to create)."""
    if path.is_file() and not path.is_symlink():
        _tighten(path, PRIVATE_FILE)


def write_private_text(path: Path, text: str) -> None:
    """Replace `path` atomically (a crash never leaves half a file) with `text`, owner-only from the first byte."""
    temporary = path.with_name(f"{path.name}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    os.fchmod(descriptor, PRIVATE_FILE)  # a temporary left by a crash keeps its old mode through O_TRUNC
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, path)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    return "a socket" if stat.S_ISSOCK(mode) else "a special file"


def output_target(path: Path, force: bool) -> Path:
    """Where to write a file the user named: `path`, or through a link the file it points to (the link stays).
    What is not a regular file is refused (a rename over a device or a pipe would replace it with a file),
    and so is a file already there unless `force`."""
    try:
        mode = path.stat().st_mode  # through a link: what it points to is what would be written
    except FileNotFoundError:
        if path.is_symlink():
            raise OutputPathError(f"{path} is not a regular file (a link to nothing); name a file to write") from None
        if not path.parent.is_dir():
            raise OutputPathError(f"the folder {path.parent} does not exist") from None
        return path
    except OSError as error:
        raise OutputPathError(f"cannot write {path}: {error.strerror}") from None
    if not stat.S_ISREG(mode):
        raise OutputPathError(f"{path} is not a regular file ({_kind(mode)}); name a file to write")
    if not force:
        raise OutputPathError(f"{path} exists; add --force to replace it")
    return path.resolve() if path.is_symlink() else path


def secure_files_at_start() -> None:
    """Once logging works: whatever this process creates from now on is owner-only, whichever library
    creates it (the umask), and the data and settings folders that exist, and the files in them, are
    tightened (the log folder is, by setup_logging)."""
    os.umask(_OTHERS)
    for folder in (data_dir(), config_dir()):
        try:
            if folder.is_dir():
                ensure_private_dir(folder)
        except OSError as error:  # someone else's folder (--db as another user): theirs to keep
            log.warning("cannot check the permissions of %s: %s", folder, error.strerror)


def create_private_database(path: Path) -> None:
    """Before SQLite opens `path`: a new database file is made 0600 (SQLite gives its -wal and -shm the
    database's mode). An existing file is not touched here: it may be another program's, which is refused
    as it is. Murmur's own data folder is made private; a folder the user picked with --db is theirs."""
    if path.parent == data_dir():
        ensure_private_dir(path.parent)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    except OSError:
        pass  # it exists, or SQLite will say why it cannot open it, in a way the user can act on


def tighten_database_files(path: Path) -> None:
    """Once `path` is known to be a Murmur database: it and the files named after it (-wal, -shm, backups)
    are owner-only."""
    for sibling in path.parent.glob(f"{glob.escape(path.name)}*"):
        ensure_private_file(sibling)


def _tighten(path: Path, mode: int) -> None:
    info = path.stat()
    if info.st_uid != os.getuid() or not stat.S_IMODE(info.st_mode) & _OTHERS:
        return
    tightened = stat.S_IMODE(info.st_mode) & mode
    try:
        path.chmod(tightened)
    except OSError as error:
        log.warning("cannot tighten the permissions of %s: %s", path, error.strerror)
        return
    log.info("tightened permissions of %s to %04o", path, tightened)
