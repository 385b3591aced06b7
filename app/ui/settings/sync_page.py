"""Settings -> Sync: the CalDAV server, the account, the task list, "Test connection", and how sync stands."""

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton, QSpinBox, QWidget

from app import secrets
from app.config import SyncSettings
from app.presentation.times import in_sentence
from app.sync.account import NEEDS_CALDAV
from app.sync.status import SyncStatus
from app.ui.background import run_in_thread
from app.ui.settings.form import lay_out
from app.ui.worker import Call, Failed, JobOutcome

if TYPE_CHECKING:
    from app.sync.setup import Tried

SAVED_PASSWORD = "saved in the keyring; type to replace it"
# The settings a sync message names, as the fields of this page.
_FIELDS = {"sync.ca_file": "the Certificate authority field", "sync.username": "the User name field"}


def status_words(status: SyncStatus, now: datetime, tz: ZoneInfo) -> str:
    """'Last sync 14:02 · 3 changes waiting · 1 task skipped: ... · failed 14:07: ...' (the tray's tooltip says
    it too)."""
    if status.last_sync_at is None and status.last_error is None:
        return "Not synced yet"
    parts = [f"Last sync {in_sentence(status.last_sync_at, now, tz)}" if status.last_sync_at else "Never synced"]
    if status.queued:
        parts.append(f"{status.queued} change{'s' if status.queued != 1 else ''} waiting")
    if status.skipped:
        count = len(status.skipped)
        parts.append(f"{count} task{'s' if count != 1 else ''} skipped: {status.skipped[0]}")
    if status.last_error:
        at = f" {in_sentence(status.last_error_at, now, tz)}" if status.last_error_at else ""
        parts.append(f"failed{at}: {status.last_error}")
    return " · ".join(parts)


class SyncPage(QWidget):
    tested = Signal(str)  # the line the connection test ended with, as shown

    def __init__(self, settings: SyncSettings, status: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.url = QLineEdit(settings.url)
        self.url.setPlaceholderText("https://cloud.example.com/remote.php/dav")
        self.url.setAccessibleName("Sync server address")
        self.username = QLineEdit(settings.username)
        self.username.setAccessibleName("Sync user name")
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Sync password")
        self.password.setPlaceholderText(SAVED_PASSWORD if secrets.sync_password() else "an app password is safest")
        self.calendar = QComboBox()  # a name typed, or one of the lists Test connection found
        self.calendar.setEditable(True)
        self.calendar.setEditText(settings.calendar)
        self.calendar.setAccessibleName("Task list")
        self.calendar.setToolTip("Synced by name; made on the server when it is not there")
        self.ca_file = QLineEdit(settings.ca_file)
        self.ca_file.setPlaceholderText("the system's certificate authorities")
        self.ca_file.setToolTip("For a server with its own certificate authority; certificates are always checked")
        self.interval = QSpinBox()
        self.interval.setRange(1, 1440)
        self.interval.setValue(settings.interval_minutes)
        self.interval.setSuffix(" min")
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.test_connection)
        self.note = QLabel()
        self.note.setObjectName("sync_note")
        self.note.setWordWrap(True)
        self.status = QLabel(status)
        self.status.setObjectName("sync_status")
        self.status.setWordWrap(True)
        self._lay_out()

    def _lay_out(self) -> None:
        lay_out(
            self,
            ("Server address", self.url),
            ("User name", self.username),
            ("Password", self.password),
            ("Task list", self.calendar),
            ("Certificate authority", self.ca_file),
            ("Sync every", self.interval),
            ("", self.test_button),
            ("", self.note),
            ("Status", self.status),
        )

    def result(self, sync: SyncSettings) -> SyncSettings:
        """`sync` as this page sets it (the password goes to the keyring, see `save_password`)."""
        return replace(
            sync,
            url=self.url.text().strip(),
            username=self.username.text().strip(),
            calendar=self.calendar.currentText().strip() or sync.calendar,
            ca_file=self.ca_file.text().strip(),
            interval_minutes=self.interval.value(),
        )

    def save_password(self) -> None:
        """Keep a newly typed password in the keyring (a MurmurError, one line, when it cannot be)."""
        typed = self.password.text()
        if typed:
            secrets.set_secret(secrets.SYNC_PASSWORD, typed)

    def test_connection(self) -> None:
        """Reach the server as the form says (not yet saved), find or make the task list, off the GUI thread."""
        try:
            from app.sync.setup import try_account  # the caldav library loads only here
        except ModuleNotFoundError:
            self._show(NEEDS_CALDAV)
            return
        settings, typed = self.result(self.settings), self.password.text() or None
        if not settings.url:
            self._show("Type the server's address first")
            return
        self.test_button.setEnabled(False)
        self.note.setText("Connecting…")
        run_in_thread(Call("test-sync", lambda: try_account(settings, typed)), self, self._on_tested)

    def _on_tested(self, outcome: "JobOutcome[Tried]") -> None:
        self.test_button.setEnabled(True)
        if isinstance(outcome, Failed):
            self._show(outcome.error)
            return
        chosen = self.calendar.currentText()
        self.calendar.clear()
        self.calendar.addItems(outcome.result.task_lists)
        self.calendar.setEditText(chosen)
        self._show(outcome.result.line)

    def _show(self, line: str) -> None:
        for key, field in _FIELDS.items():
            line = line.replace(key, field)
        self.note.setText(line)
        self.tested.emit(line)
