"""The settings dialog: its pages as tabs (General, Speech, Voice, Language model, Privacy, Sync, and Your words when
the dialog is given where they are kept), OK and Cancel.

It edits a copy of `Settings`; the caller saves and applies what `result_settings()` returns (every field takes
effect in the running app, none waits for a restart), once OK found every page's values savable (a refused field
is shown, with its reason, and the dialog stays open). Secrets go straight to the keyring, never into the settings
file; a keyring problem is shown, not raised.

The pages that read the keyring (Language model, Sync) are made when their tab is first shown: a keyring answers
over D-Bus and its first use loads every backend, which the dialog would otherwise wait for before it appears.
A page never shown leaves its settings as they were.
"""

from dataclasses import replace
from functools import cached_property
from typing import TypeVar

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTabWidget, QVBoxLayout, QWidget

from app.api.settings import Settings
from app.errors import MurmurError
from app.ui.settings.general_page import GeneralPage
from app.ui.settings.llm_page import ConnectionTest, LlmPage, load_and_test_connection
from app.ui.settings.privacy_page import PrivacyPage
from app.ui.settings.speech_page import SpeechPage
from app.ui.settings.sync_page import SyncPage
from app.ui.settings.voice_page import VoicePage
from app.ui.settings.words_page import WordBook, WordsPage

Page = TypeVar("Page", bound=QWidget)
LATER = {"Language model": "llm_page", "Sync": "sync_page"}  # tab title: the page made when it is first shown


class SettingsDialog(QDialog):
    def __init__(
        self,
        settings: Settings,
        parent: QWidget | None = None,
        connection_test: ConnectionTest = load_and_test_connection,
        sync_status: str = "",
        words: WordBook | None = None,
    ) -> None:
        """`connection_test`: what "Test connection" runs (the app's also remembers in its database what it finds
        of the model); `sync_status`: how sync stands, in words; `words`: where the user's vocabulary is kept
        (its page changes it at once, not on OK)."""
        super().__init__(parent)
        self.setWindowTitle("Murmur settings")
        self.settings = settings
        self.key_changed = False  # OK kept a new API key, or forgot the stored one: the model is reached anew
        self._connection_test, self._sync_status = connection_test, sync_status
        self.general_page = GeneralPage(settings.ui)
        self.speech_page = SpeechPage(settings.speech)
        self.voice_page = VoicePage(settings.speech, lambda: self.result_settings().speech)
        self.privacy_page = PrivacyPage(settings.privacy)
        self.tabs = QTabWidget()
        for page, title in (
            (self.general_page, "General"),
            (self.speech_page, "Speech"),
            (self.voice_page, "Voice"),
            (QWidget(), "Language model"),
            (self.privacy_page, "Privacy"),
            (QWidget(), "Sync"),
        ):
            self.tabs.addTab(page, title)
        self.tabs.currentChanged.connect(self._on_current_changed)
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

    @cached_property
    def llm_page(self) -> LlmPage:
        return self._in_its_tab(LlmPage(self.settings.llm, self._connection_test), "Language model")

    @cached_property
    def sync_page(self) -> SyncPage:
        return self._in_its_tab(SyncPage(self.settings.sync, self._sync_status), "Sync")

    def _in_its_tab(self, page: Page, title: str) -> Page:
        """`page` in place of its tab's stand-in, the tab shown staying shown."""
        index = next(i for i in range(self.tabs.count()) if self.tabs.tabText(i) == title)
        stand_in, current = self.tabs.widget(index), self.tabs.currentIndex()
        with QSignalBlocker(self.tabs):  # the tabs shift while one is swapped: no page is made for that
            self.tabs.removeTab(index)
            self.tabs.insertTab(index, page, title)
            self.tabs.setCurrentIndex(current)
        if stand_in is not None:
            stand_in.deleteLater()
        return page

    def _made(self, name: str) -> bool:
        return name in self.__dict__  # where cached_property keeps the page once made

    def _on_current_changed(self, index: int) -> None:
        if name := LATER.get(self.tabs.tabText(index)):
            getattr(self, name)  # made now, as it is shown

    def result_settings(self) -> Settings:
        """The settings as the pages set them."""
        s = self.settings
        return replace(
            s,
            ui=self.general_page.result(s.ui),
            speech=self.voice_page.result(self.speech_page.result(s.speech)),
            llm=self.llm_page.result(s.llm) if self._made("llm_page") else s.llm,
            privacy=self.privacy_page.result(s.privacy),
            sync=self.sync_page.result(s.sync) if self._made("sync_page") else s.sync,
        )

    def done(self, result: int) -> None:
        self.speech_page.stop_meter()
        super().done(result)

    def _refused(self, settings: Settings) -> QWidget | None:
        """The first field whose value cannot be saved, its reason shown; None when all can."""
        field = self.general_page.refused(settings.ui)
        if field is None and self._made("llm_page"):
            field = self.llm_page.refused(settings.llm)
        return field

    def _on_accepted(self) -> None:
        """Check the pages' values, keep newly typed secrets in the keyring (or forget the API key for the
        built-in rules); stay open, showing why, when a field is refused or the keyring refuses."""
        field = self._refused(self.result_settings())
        if field is not None:
            self.tabs.setCurrentWidget(self._page_of(field))
            field.setFocus()
            return
        try:
            if self._made("llm_page"):
                self.key_changed = self.llm_page.save_key()
            if self._made("sync_page"):
                self.sync_page.save_password()
        except MurmurError as error:
            self.error.setText(str(error))
            return
        self.accept()

    def _page_of(self, field: QWidget) -> QWidget:
        pages = (self.tabs.widget(index) for index in range(self.tabs.count()))
        return next(page for page in pages if page is not None and page.isAncestorOf(field))
