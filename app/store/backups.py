"""Backups of the database: taken with SQLite's online backup API, rotated, checked, and restored safely.

The online backup copies a consistent snapshot while another process writes (WAL mode), so a backup is
never half of one transaction. Each is a standalone file (DELETE journal, no -wal beside it), owner-only,
written under a temporary name and renamed into place, so a crash never leaves half a backup under a real
name. They live in a `backups` folder beside the database, named by when (UTC) and why:
`murmur-20261124T070000Z-daily.db`.

A restore works on a copy beside the database: the copy is checked, brought up to date and checked again, so
a backup that would leave a list Murmur cannot open, or whose schema is not exactly Murmur's (another program's
trigger or view would run on every change to the list), is refused with nothing changed. Only then is the
database as it was kept as a backup of its own (restoring that one undoes the restore) and the copy put in
its place through the same API. The database itself is never opened as a list first: a restore mends one
that no longer opens.
"""

import logging
import os
import re
import shutil
import sqlite3
import stat
import time
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from enum import StrEnum
from functools import cache
from pathlib import Path

from app.errors import SchemaTooNewError, StoreError
from app.private_files import PRIVATE_FILE, ensure_private_dir, output_target
from app.processes import pid_alive
from app.store.migrations import MIGRATIONS, is_murmurs, migrate, schema_version

log = logging.getLogger("murmur.backups")

DAILY_KEPT = 7
WEEKLY_KEPT = 4
OCCASIONAL_KEPT = 5  # of the backups before a migration, and before a restore
BUSY_TIMEOUT_S = 5.0
_STAMP = "%Y%m%dT%H%M%SZ"


class BackupKind(StrEnum):
    DAILY = "daily"  # the automatic one, at most one per local day, rotated
    MANUAL = "manual"  # `murmur backup` without a path: kept until removed by hand
    PRE_MIGRATION = "pre-migration"  # taken before a schema migration
    PRE_RESTORE = "pre-restore"  # the database as it was before a restore


_NAME = re.compile(r"^murmur-(\d{8}T\d{6}Z)(?:-\d+)?-(" + "|".join(k.value for k in BackupKind) + r")\.db$")


@dataclass(frozen=True)
class Backup:
    path: Path
    kind: BackupKind
    taken_at: datetime  # UTC, from the file's name
    size: int  # bytes


def backups_dir(db_path: Path) -> Path:
    return db_path.parent / "backups"


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    else:
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
    # A backup may come from anywhere: what its schema runs (a trigger during the migration, a view) may call
    # only what cannot harm, as SQLite advises for files of unknown origin. Murmur's own migrations need no more.
    db.execute("PRAGMA trusted_schema = OFF")
    return db


def _beside(path: Path, purpose: str) -> Path:
    # Named by process: two at once never write into one file; left by a crash, it is this pid's, so it is
    # ours to remove (remove_abandoned_copies, at the next start).
    return path.with_name(f".{path.name}.{os.getpid()}.{purpose}")


_BESIDE = re.compile(r"^\.(?P<target>.+)\.(?P<pid>\d+)\.(?P<purpose>partial|restoring)$")
# No copy takes this long to write and put in place: one older was left by a process that is gone, whatever its
# pid says now (pids are reused).
ABANDONED_AFTER = timedelta(days=1)


def _made_beside(name: str) -> tuple[str, int, str] | None:
    """The target's name, the pid and the purpose of a name `_beside` gives; None for any other name."""
    match = _BESIDE.match(name)
    return (match["target"], int(match["pid"]), match["purpose"]) if match else None


def _copy_writer(path: Path, db_path: Path) -> int | None:
    """The pid of the process that made `path`, when it is a copy a backup or a restore of this database makes: a
    backup being written in the backups folder, beside the database a restore's copy or that copy being written."""
    made = _made_beside(path.name)
    if made is None:
        return None
    target, pid, purpose = made
    if path.parent == backups_dir(db_path):
        return pid if purpose == "partial" and _NAME.match(target) else None
    restoring = (db_path.name, pid, "restoring")
    return pid if made == restoring or (purpose == "partial" and _made_beside(target) == restoring) else None


def _abandoned(path: Path, db_path: Path) -> bool:
    pid = _copy_writer(path, db_path)
    if pid is None:
        return False
    try:
        info = path.lstat()
    except FileNotFoundError:  # removed by another Murmur starting at the same time
        return False
    if not stat.S_ISREG(info.st_mode):  # a link or a folder of that name is not a copy Murmur wrote
        return False
    return not pid_alive(pid) or time.time() - info.st_mtime > ABANDONED_AFTER.total_seconds()


def remove_abandoned_copies(db_path: Path) -> None:
    """Remove the copies a backup or a restore killed midway left, in the backups folder and beside the database:
    those of processes that are gone, and any older than a run takes. Every other file stays."""
    for folder in (db_path.parent, backups_dir(db_path)):
        try:
            left = [path for path in folder.iterdir() if _abandoned(path, db_path)] if folder.is_dir() else []
            for path in left:
                path.unlink(missing_ok=True)
                log.info("removed %s, left by a backup or a restore that did not finish", path)
        except OSError as error:  # never stops the command: the copy is only space taken
            log.warning("cannot remove what a backup left in %s: %s", folder, error.strerror)


def _copy(db_path: Path, target: Path, raw: bool = False) -> None:
    """A consistent, standalone copy of the database at `target`, owner-only from its first byte; `raw`:
    byte for byte, for a file SQLite cannot read (kept as it was)."""
    temporary = _beside(target, "partial")
    temporary.unlink(missing_ok=True)
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    try:
        if raw:
            shutil.copyfile(db_path, temporary)  # into the file made above: its owner-only mode stays
        else:
            with closing(_connect(db_path, read_only=True)) as source, closing(_connect(temporary)) as copy:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # one file that opens alone
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _free_name(folder: Path, kind: BackupKind, now: datetime) -> Path:
    stamp = f"{now.astimezone(UTC):{_STAMP}}"
    path, number = folder / f"murmur-{stamp}-{kind.value}.db", 1
    while path.exists():  # two in one second: never one over the other
        number += 1
        path = folder / f"murmur-{stamp}-{number}-{kind.value}.db"
    return path


def back_up(
    db_path: Path,
    kind: BackupKind,
    now: datetime,
    target: Path | None = None,
    force: bool = False,
    raw: bool = False,
) -> Backup:
    """Copy the database to `target` (a file there is replaced only with `force`), or into its backups folder
    under a name saying when and why; `raw`: byte for byte (see _copy)."""
    if not db_path.is_file():
        raise StoreError(f"there is no database at {db_path} to back up")
    if target is None:
        try:
            folder = ensure_private_dir(backups_dir(db_path))
        except OSError as error:
            raise StoreError(f"cannot make the backups folder {backups_dir(db_path)}: {error.strerror}") from None
        target = _free_name(folder, kind, now)
    else:
        target = output_target(target, force)
    try:
        _copy(db_path, target, raw)
    except sqlite3.Error as error:
        raise StoreError(f"cannot back up {db_path}: {error}") from None
    except OSError as error:
        raise StoreError(f"cannot write the backup {target}: {error.strerror}") from None
    log.info("backed up %s to %s (%s)", db_path, target, kind.value)
    return Backup(target, kind, now.astimezone(UTC).replace(microsecond=0), target.stat().st_size)


def list_backups(db_path: Path) -> list[Backup]:
    """The backups in the database's backups folder, newest first; files Murmur did not name are left out."""
    folder = backups_dir(db_path)
    found = []
    try:
        for path in folder.iterdir() if folder.is_dir() else ():
            if match := _NAME.match(path.name):
                try:
                    size = path.stat().st_size
                except FileNotFoundError:  # pruned by another Murmur process meanwhile
                    continue
                taken = datetime.strptime(match.group(1), _STAMP).replace(tzinfo=UTC)
                found.append(Backup(path, BackupKind(match.group(2)), taken, size))
    except OSError as error:  # another user's folder (--db on a database that is not ours)
        raise StoreError(f"cannot read the backups folder {folder}: {error.strerror}") from None
    return sorted(found, key=lambda b: (b.taken_at, b.path.name), reverse=True)


def take_daily_if_due(db_path: Path, now: datetime, tz: tzinfo) -> Backup | None:
    """Today's automatic backup, unless there is one from this local day already (then only a listing)."""
    if not db_path.is_file():
        return None
    today = now.astimezone(tz).date()
    if any(b.kind is BackupKind.DAILY and b.taken_at.astimezone(tz).date() == today for b in list_backups(db_path)):
        return None
    taken = back_up(db_path, BackupKind.DAILY, now)
    prune(db_path, now, tz)
    return taken


def _kept_dailies(dailies: list[Backup], tz: tzinfo) -> set[Path]:
    """The newest of each of the last 7 days that have one, and the oldest of each of the last 4 weeks."""
    by_day: dict[date, Backup] = {}
    by_week: dict[tuple[int, int], Backup] = {}
    for backup in dailies:  # newest first
        local = backup.taken_at.astimezone(tz).date()
        by_day.setdefault(local, backup)
        by_week[(local.isocalendar().year, local.isocalendar().week)] = backup  # the last written: its oldest
    days = sorted(by_day, reverse=True)[:DAILY_KEPT]
    weeks = sorted(by_week, reverse=True)[:WEEKLY_KEPT]
    return {by_day[day].path for day in days} | {by_week[week].path for week in weeks}


def prune(db_path: Path, now: datetime, tz: tzinfo) -> list[Path]:
    """Remove the automatic backups past their keeping; what the user took by hand stays, and so does one
    dated after `now` (taken while the clock was ahead): its place in the rotation is unknown."""
    backups = [b for b in list_backups(db_path) if b.taken_at <= now]
    kept = _kept_dailies([b for b in backups if b.kind is BackupKind.DAILY], tz)
    for kind in (BackupKind.PRE_MIGRATION, BackupKind.PRE_RESTORE):
        kept |= {b.path for b in [b for b in backups if b.kind is kind][:OCCASIONAL_KEPT]}
    removed = [b.path for b in backups if b.kind is not BackupKind.MANUAL and b.path not in kept]
    for path in removed:
        path.unlink(missing_ok=True)
        log.info("removed the old backup %s", path)
    return removed


def find_backup(db_path: Path, given: Path) -> Path:
    """The backup the user named: a file, or a bare name as `murmur backups` lists it (in the backups folder)."""
    listed = backups_dir(db_path) / given.name
    return given if given.exists() or not listed.exists() else listed


def _tables(db: sqlite3.Connection) -> frozenset[str]:
    return frozenset(row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))


_Schema = dict[tuple[str, str], tuple[str, str | None]]  # (type, name) -> (the table it is on, its SQL)
_SQLITES_OWN_TABLES = frozenset({"sqlite_sequence", "sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"})
_TYPE_ORDER = ("trigger", "view", "table", "index")  # what acts by itself first; a table before its indexes


def _schema(db: sqlite3.Connection) -> _Schema:
    """Every object of the database's schema with the table it is on and its SQL (whitespace aside), but for
    what SQLite keeps by itself: its counters and statistics, and the tables behind each full-text index."""
    shadows = {row[1] for row in db.execute("PRAGMA table_list") if row[0] == "main" and row[2] == "shadow"}
    return {
        (kind, name): (table, " ".join(sql.split()) if sql else sql)
        for kind, name, table, sql in db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
        if name not in shadows and not (kind == "table" and name in _SQLITES_OWN_TABLES)
    }


@cache
def _murmur_schema() -> _Schema:
    """The schema of a database brought up to date: exactly what a restored one must hold."""
    with closing(sqlite3.connect(":memory:", isolation_level=None)) as db:
        migrate(db, ":memory:")
        return _schema(db)


def _schema_mismatch(db: sqlite3.Connection, shown: Path) -> str | None:
    """One line naming the first object of the database's schema that is not as Murmur makes it (missing, added
    or altered), or None when the schema is exactly Murmur's."""
    found, murmurs = _schema(db), _murmur_schema()
    altered = {key for key in found.keys() & murmurs.keys() if found[key] != murmurs[key]}
    differing = sorted((found.keys() ^ murmurs.keys()) | altered, key=lambda k: (_TYPE_ORDER.index(k[0]), k[1]))
    if not differing:
        return None
    kind, name = differing[0]
    if (kind, name) not in found:
        return f"{shown} lacks Murmur's {kind} {name}: it is not a whole backup"
    made = "that Murmur did not make" if (kind, name) not in murmurs else "changed from the one Murmur made"
    return f"{shown} holds {'an' if kind == 'index' else 'a'} {kind} '{name}' {made}; nothing was changed"


def _integrity(db: sqlite3.Connection) -> str | None:
    """What SQLite's integrity check finds first, or None when the file is whole."""
    checked = [row[0] for row in db.execute("PRAGMA integrity_check")]
    return None if checked == ["ok"] else checked[0]


def _check(db: sqlite3.Connection, shown: Path) -> int:
    """The schema version of a whole Murmur database with a list in it that this Murmur can read."""
    if not is_murmurs(db):
        raise StoreError(f"{shown} is not a Murmur database")
    if problem := _integrity(db):
        raise StoreError(f"{shown} is damaged (SQLite's integrity check: {problem}); choose another backup")
    version = schema_version(db)
    if version > len(MIGRATIONS):
        raise SchemaTooNewError(
            f"{shown} was made by a newer Murmur (schema {version}; this one knows {len(MIGRATIONS)}): "
            "upgrade Murmur to restore it"
        )
    if "entries" not in _tables(db):  # empty, or only stamped: restoring it would empty the list
        raise StoreError(f"{shown} holds no list: it is not a backup")
    return version


def check_backup(path: Path) -> int:
    """The backup's schema version, once it is known to be a whole Murmur database this Murmur can read."""
    if not path.is_file():
        raise StoreError(f"no backup at {path}")
    try:
        with closing(_connect(path, read_only=True)) as db:
            return _check(db, path)
    except sqlite3.Error as error:
        raise _unrestorable(path, error) from None


def _unrestorable(path: Path, error: sqlite3.Error) -> StoreError:
    return StoreError(f"{path} is not a database Murmur can restore (SQLite says: {error})")


def _prepare(backup_path: Path, copy: Path) -> None:
    """Copy the backup to `copy`, check it, bring it up to date and check it again: what will be put in place."""
    try:
        _copy(backup_path, copy)
    except OSError as error:
        raise StoreError(f"cannot copy {backup_path} beside the database: {error.strerror}") from None
    except sqlite3.Error as error:
        raise _unrestorable(backup_path, error) from None
    with closing(_connect(copy)) as db:
        db.isolation_level = None
        try:
            _check(db, backup_path)
        except sqlite3.Error as error:
            raise _unrestorable(backup_path, error) from None
        try:
            migrate(db, str(backup_path))
            problem, mismatch = _integrity(db), _schema_mismatch(db, backup_path)
        except sqlite3.Error as error:
            raise StoreError(f"{backup_path} cannot be brought up to date; nothing was changed ({error})") from None
    if problem:
        raise StoreError(f"{backup_path} is damaged once brought up to date ({problem}); nothing was changed")
    if mismatch:  # another program's trigger or view would run on every change to the list
        raise StoreError(mismatch)


def _readable(db_path: Path) -> bool:
    """Whether SQLite reads the file as a database at all; one it cannot is kept byte for byte and replaced whole."""
    try:
        with closing(_connect(db_path, read_only=True)) as db:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as error:  # locked, or not ours to open: not a question of its bytes
        raise StoreError(f"cannot read the database {db_path}: {error}; nothing was changed") from None
    except sqlite3.DatabaseError:
        return False
    return True


def _put_in_place(copy: Path, db_path: Path, readable: bool) -> None:
    """The prepared copy becomes the database: through SQLite when it reads the database (other connections
    see the change), else by renaming the copy over what is there (missing, or bytes SQLite cannot read)."""
    if not readable:
        os.replace(copy, db_path)
        for sidecar in ("-wal", "-shm"):  # they belonged to the bytes just replaced
            Path(f"{db_path}{sidecar}").unlink(missing_ok=True)
        return
    with closing(_connect(db_path)) as live, closing(_connect(copy, read_only=True)) as source:
        source.backup(live)  # one step, under the live database's write lock: readers see old or new
        live.isolation_level = None
        live.execute("PRAGMA journal_mode = WAL")  # the copy brings its DELETE mode


def restore_backup(db_path: Path, backup_path: Path, now: datetime) -> Backup | None:
    """Put the backup's data in place of the database's; returns the backup of the database as it was (none
    when there was no database)."""
    if not backup_path.is_file():
        raise StoreError(f"no backup at {backup_path}")
    if not db_path.parent.is_dir():
        raise StoreError(f"the folder {db_path.parent} does not exist")
    copy = _beside(db_path, "restoring")
    try:
        _prepare(backup_path, copy)
        there = db_path.exists()
        readable = there and _readable(db_path)
        before = back_up(db_path, BackupKind.PRE_RESTORE, now, raw=not readable) if there else None
        try:
            _put_in_place(copy, db_path, readable)
        except (sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot restore {backup_path}: {error}; the database is as it was") from None
    finally:
        copy.unlink(missing_ok=True)
    log.info("restored %s from %s; the database as it was: %s", db_path, backup_path, before.path if before else "none")
    return before
