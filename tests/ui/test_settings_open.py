"""Opening Settings does none of the slow work of its other pages: the keyring is not asked until the Language
model or Sync tab is shown, the microphones are not listed until the Speech tab is."""

from collections.abc import Iterator
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from app import secrets
from app.config import Settings
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.llm_page import LlmPage
from app.ui.settings.sync_page import SyncPage
from tests.support.memory_keyring import MemoryKeyring, keyring_in_use


class ListeningKeyring(MemoryKeyring):
    """A keyring that notes each secret asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.asked.append(username)
        return super().get_password(service, username)


@pytest.fixture
def listening_keyring() -> Iterator[ListeningKeyring]:
    with keyring_in_use(ListeningKeyring()) as backend:
        yield backend


def opened(qtbot: QtBot) -> SettingsDialog:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_keyring_is_asked_when_its_pages_are_shown_not_on_open(
    qtbot: QtBot, listening_keyring: ListeningKeyring
) -> None:
    secrets.set_api_key("sk-kept")
    dialog = opened(qtbot)
    assert listening_keyring.asked == []
    assert dialog.findChild(LlmPage) is None and dialog.findChild(SyncPage) is None
    titles = [dialog.tabs.tabText(index) for index in range(dialog.tabs.count())]
    assert titles == ["General", "Speech", "Voice", "Language model", "Privacy", "Sync"]

    dialog.tabs.setCurrentIndex(titles.index("Language model"))
    assert dialog.tabs.currentWidget() is dialog.findChild(LlmPage) is dialog.llm_page
    assert secrets.API_KEY.account in listening_keyring.asked
    assert dialog.llm_page.api_key.placeholderText() == "unchanged"  # it found the key kept
    dialog.tabs.setCurrentIndex(titles.index("Sync"))
    assert dialog.tabs.currentWidget() is dialog.sync_page and secrets.SYNC_PASSWORD.account in listening_keyring.asked
    assert [dialog.tabs.tabText(index) for index in range(dialog.tabs.count())] == titles


def test_pages_never_shown_keep_their_settings_and_their_secrets(qtbot: QtBot) -> None:
    secrets.set_api_key("sk-kept")
    dialog = opened(qtbot)
    dialog.general_page.theme.setCurrentIndex(dialog.general_page.theme.findData("dark"))
    dialog._on_accepted()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    assert dialog.result_settings() == replace(Settings(), ui=replace(Settings().ui, theme="dark"))
    assert secrets.get_api_key() == "sk-kept"


def test_the_microphones_are_listed_once_the_speech_page_is_shown(qtbot: QtBot) -> None:
    dialog = opened(qtbot)
    page = dialog.speech_page
    with qtbot.assertNotEmitted(page.devices_listed, wait=300):
        pass
    assert page.device_note.text() == "Looking for microphones…"
    with qtbot.waitSignal(page.devices_listed, timeout=15_000):
        dialog.tabs.setCurrentWidget(page)
    assert page.device_note.text() != "Looking for microphones…"
