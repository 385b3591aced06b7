"""The settings dialog: its pages as tabs (General, Speech, Voice, Language model, Privacy, Sync, and Your words when
the dialog is given where they are kept), OK and Cancel.

It edits a copy of `Settings`; the caller saves what `result_settings()` returns, once OK found every page's
values savable (a refused field is shown, with its reason, and the dialog stays open). Secrets go straight to
the keyring, never into the settings file; a keyring problem is shown, not raised.
"""

from dataclasses import replace

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTabWidget, QVBoxLayout, QWidget

from app.agent.connection import test_connection
from app.config import Settings
from app.errors import MurmurError
from app.ui.settings.general_page import GeneralPage
from app.ui.settings.llm_page import ConnectionTest, LlmPage
from app.ui.settings.privacy_page import PrivacyPage
from app.ui.settings.speech_page import SpeechPage
from app.ui.settings.sync_page import SyncPage
from app.ui.settings.voice_page import VoicePage
from app.ui.settings.words_page import WordBook, WordsPage


class SettingsDialog(QDialog):
    def __init__(
        self,
        settings: Settings,
        parent: QWidget | None = None,
        connection_test: ConnectionTest = test_connection,
        sync_status: str = "",
        words: WordBook | None = None,
    ) -> None:
        """`connection_test`: what "Test connection" runs (the app's also remembers in its database what it finds
        of the model); `sync_status`: how sync stands, in words; `words`: where the user's vocabulary is kept
        (its page changes it at once, not on OK)."""
        super().__init__(parent)
        self.setWindowTitle("Murmur settings")
        self.settings = settings
        self.general_page = GeneralPage(settings.ui)
        self.speech_page = SpeechPage(settings.speech)
        self.voice_page = VoicePage(settings.speech, lambda: self.result_settings().speech)
        self.llm_page = LlmPage(settings.llm, connection_test)
        self.privacy_page = PrivacyPage(settings.privacy)
        self.sync_page = SyncPage(settings.sync, sync_status)
        self.tabs = QTabWidget()
        for page, title in (
            (self.general_page, "General"),
            (self.speech_page, "Speech"),
            (self.voice_page, "Voice"),
            (self.llm_page, "Language model"),
            (self.privacy_page, "Privacy"),
            (self.sync_page, "Sync"),
        ):
            self.tabs.addTab(page, title)
        self.words_page = WordsPage(words) if words is not None else None
        if self.words_page is not None:
            self.tabs.addTab(self.words_page, "Your words")
        self.error = QLabel()
        self.error.setObjectName("status")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._on_accepted)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def result_settings(self) -> Settings:
        """The settings as the pages set them."""
        s = self.settings
        return replace(
            s,
            ui=self.general_page.result(s.ui),
            speech=self.voice_page.result(self.speech_page.result(s.speech)),
            llm=self.llm_page.result(s.llm),
            privacy=self.privacy_page.result(s.privacy),
            sync=self.sync_page.result(s.sync),
        )

    def done(self, result: int) -> None:
        self.speech_page.stop_meter()
        super().done(result)

    def _refused(self, settings: Settings) -> QWidget | None:
        """The first field whose value cannot be saved, its reason shown; None when all can."""
        field = self.general_page.refused(settings.ui)
        return field if field is not None else self.llm_page.refused(settings.llm)

    def _on_accepted(self) -> None:
        """Check the pages' values, keep newly typed secrets in the keyring (or forget the API key for the
        built-in rules); stay open, showing why, when a field is refused or the keyring refuses."""
        field = self._refused(self.result_settings())
        if field is not None:
            self.tabs.setCurrentWidget(self._page_of(field))
            field.setFocus()
            return
        try:
            self.llm_page.save_key()
            self.sync_page.save_password()
        except MurmurError as error:
            self.error.setText(str(error))
            return
        self.accept()

    def _page_of(self, field: QWidget) -> QWidget:
        pages = (self.tabs.widget(index) for index in range(self.tabs.count()))
        return next(page for page in pages if page is not None and page.isAncestorOf(field))
