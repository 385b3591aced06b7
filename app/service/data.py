"""The user's data in and out: export, import, backups and restore."""

from collections.abc import Collection, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlmodel import Session

from app.bounds.limits import MASS_CHANGE_CAP
from app.changes.imports import ImportOutcome, import_in_chunks, preview_import
from app.changes.originals import shareable
from app.domain.enums import Category, Format, Status
from app.errors import UsageError
from app.presentation.imports import import_waits_for_yes
from app.private_files import output_target, write_private_text
from app.recordings.copies import RecordingCopies, copies_folder, copy_kept
from app.service.core import ServiceCore
from app.store.backups import Backup, BackupKind, back_up, find_backup, list_backups, restore_backup, take_daily_if_due
from app.store.queries import entries_by_age, schema_of, stored_rows

if TYPE_CHECKING:  # the formats (and their libraries) load for an export or an import only
    from app.portable.common import StoredRows


class DataArea(ServiceCore):
    """Export and import (the formats load on first use), backups, recordings copied beside them."""

    def export(
        self,
        fmt: Format,
        statuses: Sequence[Status] = tuple(Status),
        categories: Sequence[Category] = (),
        with_said: bool = False,
    ) -> str:
        """The entries with these statuses (as stored) and categories (any, when none is named) in `fmt`;
        `with_said`: an iCalendar file carries the words said too (a JSON backup always does)."""
        return self._exported(fmt, statuses, categories, with_said)[0]

    def _exported(
        self, fmt: Format, statuses: Sequence[Status], categories: Sequence[Category], with_said: bool
    ) -> tuple[str, "StoredRows"]:
        """The export's text, and the rows it carries as stored (none but in JSON)."""
        from app.portable.common import StoredRows
        from app.portable.files import write_entries

        clock = self.clock()
        with self.store.read() as session:
            entries = [
                entry
                for entry in entries_by_age(session)
                if entry.status in statuses and (not categories or entry.category in categories)
            ]
            everything = set(statuses) == set(Status) and not categories
            ids = {entry.id for entry in entries}
            # JSON is Murmur's own backup, rows as stored; the files for other apps carry no secret put back.
            if fmt is Format.JSON:
                stored = _stored_rows(session, ids, everything)
            else:
                stored = StoredRows(entries=[], utterances=[], memories=[], schema=0)
                entries = shareable(session, entries)
        return write_entries(fmt, entries, stored, clock.tz, clock.now, with_said), stored

    def export_file(
        self,
        path: Path,
        fmt: Format,
        statuses: Sequence[Status] = tuple(Status),
        categories: Sequence[Category] = (),
        force: bool = False,
        with_said: bool = False,
        with_audio: bool = False,
    ) -> RecordingCopies | None:
        """`export()` written to `path` whole or not at all, readable by the user alone (it is all they said);
        a file there is replaced only with `force`, a link is written through. `with_audio` (JSON, the format that
        carries what was said): the recordings of its utterances too, in a folder beside it."""
        if with_audio and fmt is not Format.JSON:
            raise UsageError("only a JSON export carries what was said: add --format json to export the recordings")
        target = output_target(path, force)
        written, stored = self._exported(fmt, statuses, categories, with_said)
        try:
            write_private_text(target, written)
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror}") from None
        if not with_audio:
            return None
        return self.copy_recordings(target, {int(str(row["id"])) for row in stored.utterances})

    def import_file(
        self, path: Path, fmt: Format | None = None, dry_run: bool = False, confirmed: bool = False
    ) -> ImportOutcome:
        """Add what the file at `path` holds as one undoable batch, skipping what is already here; with
        `dry_run`, say what would be added and change nothing. More new entries than MASS_CHANGE_CAP wait for the
        user's yes (`confirmed`): ImportWaitsForYes, and nothing is added."""
        from app.portable.common import format_of
        from app.portable.files import read_entries, read_text

        clock = self.clock()
        read = read_entries(format_of(path, fmt), read_text(path), clock.tz, clock.now)
        if dry_run:
            with self.store.read() as session:
                return preview_import(session, read, clock.now)
        most = None if confirmed else MASS_CHANGE_CAP
        outcome = import_in_chunks(self.store, read, clock.now, f"imported {path.name}", most)
        if outcome.held:
            raise import_waits_for_yes(path, fmt, outcome.added)
        return outcome

    def back_up(self, target: Path | None = None, force: bool = False) -> Backup:
        """A backup by hand: to `target` (replacing a file there only with `force`), or into the backups folder,
        where it is kept until removed by hand."""
        return back_up(self.store.path, BackupKind.MANUAL, self.clock().now, target, force)

    def copy_recordings(self, beside: Path, utterance_ids: Collection[int] | None = None) -> RecordingCopies:
        """The kept recordings (of `utterance_ids`, or all) copied into a folder beside a backup or an export; they
        are left out of both unless asked for."""
        with self.store.read() as session:
            try:
                return copy_kept(session, self.recordings, copies_folder(beside), utterance_ids)
            except OSError as error:
                raise UsageError(f"cannot copy the recordings beside {beside}: {error.strerror}") from None

    def backups(self) -> list[Backup]:
        return list_backups(self.store.path)

    def take_daily_backup(self) -> Backup | None:
        """Today's automatic backup, when there is none yet (7 daily and 4 weekly are kept)."""
        clock = self.clock()
        return take_daily_if_due(self.store.path, clock.now, clock.tz)


def restore_database(db_path: Path, backup: Path, now: datetime) -> Backup | None:
    """Put a backup (a file, or a name from the backups folder) in place of the database at `db_path`; returns
    the backup of the database as it was. A function, not a method: it never opens the live database, since one
    that no longer opens is what a restore is there to mend."""
    return restore_backup(db_path, find_backup(db_path, backup), now)


def _stored_rows(session: Session, entry_ids: set[str], everything: bool) -> "StoredRows":
    """The rows Murmur's own export carries: the chosen entries, what was said (all of it, or what the chosen
    entries came from), and the memories."""
    entries = [row for row in stored_rows(session, "entries") if row["id"] in entry_ids]
    said = {row["utterance_id"] for row in entries}
    utterances = [row for row in stored_rows(session, "utterances") if everything or row["id"] in said]
    from app.portable.common import StoredRows

    return StoredRows(entries, utterances, stored_rows(session, "memories"), schema_of(session))
