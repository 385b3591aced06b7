"""Backups of the database: taken with SQLite's online backup API, rotated, checked, and restored safely.

The online backup copies a consistent snapshot while another process writes (WAL mode), so a backup is
never half of one transaction. Each is a standalone file (DELETE journal, no -wal beside it), owner-only,
written under a temporary name and renamed into place, so a crash never leaves half a backup under a real
name. They live in a `backups` folder beside the database, named by when (UTC) and why:
`murmur-20261124T070000Z-daily.db`. A restore checks the backup first, keeps the database as it was as a
backup of its own (restoring that one undoes the restore), then copies the backup in through the same API.
"""

import logging
import os
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from enum import StrEnum
from pathlib import Path

from app.errors import SchemaTooNewError, StoreError
from app.private_files import PRIVATE_FILE, ensure_private_dir
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
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    return sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)


def _copy(db_path: Path, target: Path) -> None:
    """A consistent, standalone copy of the database at `target`, owner-only from its first byte."""
    # Named by process: two taking the same name at once never write into one file; left by a crash, it
    # is this pid's, so it is ours to remove.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    temporary.unlink(missing_ok=True)
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    try:
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


def back_up(db_path: Path, kind: BackupKind, now: datetime, target: Path | None = None) -> Backup:
    """Copy the database to `target`, or into its backups folder under a name saying when and why."""
    if not db_path.is_file():
        raise StoreError(f"there is no database at {db_path} to back up")
    if target is None:
        try:
            folder = ensure_private_dir(backups_dir(db_path))
        except OSError as error:
            raise StoreError(f"cannot make the backups folder {backups_dir(db_path)}: {error.strerror}") from None
        target = _free_name(folder, kind, now)
    elif target.exists():
        raise StoreError(f"{target} exists; choose another name (a backup never replaces a file)")
    elif not target.parent.is_dir():
        raise StoreError(f"the folder {target.parent} does not exist")
    try:
        _copy(db_path, target)
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


def check_backup(path: Path) -> int:
    """The backup's schema version, once it is known to be a whole Murmur database this Murmur can read."""
    if not path.is_file():
        raise StoreError(f"no backup at {path}")
    try:
        with closing(_connect(path, read_only=True)) as db:
            if not is_murmurs(db):
                raise StoreError(f"{path} is not a Murmur database")
            checked = [row[0] for row in db.execute("PRAGMA integrity_check")]
            version = schema_version(db)
    except sqlite3.Error as error:
        raise StoreError(f"{path} is not a database Murmur can restore (SQLite says: {error})") from None
    if checked != ["ok"]:
        raise StoreError(f"{path} is damaged (SQLite's integrity check: {checked[0]}); choose another backup")
    if version > len(MIGRATIONS):
        raise SchemaTooNewError(
            f"{path} was made by a newer Murmur (schema {version}; this one knows {len(MIGRATIONS)}): "
            "upgrade Murmur to restore it"
        )
    return version


def restore_backup(db_path: Path, backup_path: Path, now: datetime) -> Backup:
    """Put the backup's data in place of the database's; returns the backup of the database as it was."""
    check_backup(backup_path)
    before = back_up(db_path, BackupKind.PRE_RESTORE, now)
    with closing(_connect(db_path)) as live:
        try:
            with closing(_connect(backup_path, read_only=True)) as source:
                source.backup(live)  # one step, under the live database's write lock: readers see old or new
        except sqlite3.Error as error:
            raise StoreError(f"cannot restore {backup_path}: {error}; the database is as it was") from None
        live.isolation_level = None
        try:
            live.execute("PRAGMA journal_mode = WAL")  # the copy may bring the backup's DELETE mode
            migrate(live, str(db_path))  # an older backup is brought forward
        except sqlite3.Error as error:  # each step is all or nothing: the next open tries again
            raise StoreError(f"restored {backup_path}, but could not bring it up to date: {error}") from None
    log.info("restored %s from %s; the database as it was is in %s", db_path, backup_path, before.path)
    return before
