"""Settings -> Sync: the CalDAV server, the account, the task list, "Test connection", and how sync stands."""

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton, QSpinBox, QWidget

from app.api import secrets
from app.api.settings import SyncSettings
from app.api.sync import NEEDS_CALDAV
from app.ui.background import run_in_thread
from app.ui.settings.form import lay_out
from app.ui.settings.secret_file_box import SecretFileBox
from app.ui.worker import Call, Failed, JobOutcome

if TYPE_CHECKING:
    from app.api.sync_setup import Tried

SAVED_PASSWORD = "saved in the keyring; type to replace it"
SAVED_IN_FILE = "saved in the file below; type to replace it"
# The settings a sync message names, as the fields of this page.
_FIELDS = {"sync.ca_file": "the Certificate authority field", "sync.username": "the User name field"}


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
        self.keep_in_file = SecretFileBox(secrets.SYNC_PASSWORD)
        saved = SAVED_IN_FILE if self.keep_in_file.was_in_file else SAVED_PASSWORD
        self.password.setPlaceholderText(saved if secrets.sync_password() else "an app password is safest")
        self.kept_note = QLabel(self.keep_in_file.where_kept())
        self.kept_note.setObjectName("sync_password_kept")
        self.kept_note.setWordWrap(True)
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
            ("", self.keep_in_file),
            ("", self.kept_note),
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
        """Keep a newly typed password in the keyring, or the file where asked (a MurmurError, one line, when it
        cannot be); the box unticked, the password kept in the file is removed from it."""
        self.keep_in_file.save(self.password.text())

    def test_connection(self) -> None:
        """Reach the server as the form says (not yet saved), find or make the task list, off the GUI thread."""
        try:
            from app.api.sync_setup import try_account  # the caldav library loads only here
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
