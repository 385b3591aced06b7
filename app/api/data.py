"""The user's data in and out: export formats, imports, backups, restore and the recordings copied beside them."""

from app.changes.imports import ImportOutcome
from app.portable.common import SUFFIX
from app.recordings.copies import RecordingCopies
from app.service import restore_database
from app.store.backups import Backup

__all__ = ["Backup", "ImportOutcome", "RecordingCopies", "SUFFIX", "restore_database"]
