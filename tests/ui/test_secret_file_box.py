"""Settings without a keyring (keyring's fail backend, this machine's real state): the Sync page and the API key
field offer to keep the secret in a file only the user can read; untouched, saving is refused as before; ticked,
the secret lands in the file, owner-only, never in the settings file; the page then says where it is kept, and
unticked it is removed from the file."""

import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from keyring.backends.fail import Keyring as FailKeyring
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app import secrets
from app.config import LlmSettings, Settings, SyncSettings
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.llm_page import NONE
from tests.support.memory_keyring import keyring_in_use

OFFER = "Keep it in a file only you can read"
WHERE = "In ~/.local/share/murmur/credentials, as git's credential store keeps passwords"


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No keyring, and a home whose data folder is the usual ~/.local/share/murmur."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MURMUR_DATA_DIR", str(tmp_path / "home" / ".local" / "share" / "murmur"))
    monkeypatch.delenv(secrets.SYNC_PASSWORD.env, raising=False)
    with keyring_in_use(FailKeyring()):
        yield


def dialog_for(qtbot: QtBot, settings: Settings) -> SettingsDialog:
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    return dialog


def test_the_sync_password_is_kept_in_the_file_only_when_the_box_is_ticked(qtbot: QtBot, no_keyring: None) -> None:
    settings = replace(Settings(), sync=SyncSettings(url="https://dav.example/", username="alice"))
    dialog = dialog_for(qtbot, settings)
    page = dialog.sync_page
    assert page.keep_in_file.text() == OFFER and page.keep_in_file.toolTip() == WHERE
    assert not page.keep_in_file.isHidden() and not page.keep_in_file.isChecked() and page.kept_note.text() == ""
    page.password.setText("s3cret-pass")
    dialog._on_accepted()
    assert "cannot save the sync password: no system keyring" in dialog.error.text()
    assert dialog.result() != SettingsDialog.DialogCode.Accepted and not secrets.credentials_path().exists()

    page.keep_in_file.setChecked(True)
    dialog._on_accepted()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    kept = secrets.credentials_path()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and secrets.sync_password() == "s3cret-pass"
    assert "s3cret-pass" not in str(dialog.result_settings())

    again = dialog_for(qtbot, settings).sync_page
    assert again.keep_in_file.isChecked()
    assert again.kept_note.text() == "Kept in ~/.local/share/murmur/credentials, readable by you alone."
    assert again.password.placeholderText() == "saved in the file below; type to replace it"
    again.keep_in_file.setChecked(False)
    again.save_password()
    assert secrets.sync_password() is None and not kept.exists()


def test_the_api_key_field_offers_the_file_too(qtbot: QtBot, no_keyring: None) -> None:
    llm = LlmSettings(preset="openai", model="gpt-4o-mini")
    page = dialog_for(qtbot, replace(Settings(), llm=llm)).llm_page
    assert page.keep_in_file.text() == OFFER and not page.keep_in_file.isHidden()
    page.api_key.setText("sk-kept-1234")
    page.keep_in_file.setChecked(True)
    page.save_key()
    assert secrets.get_api_key() == "sk-kept-1234" and secrets.in_file(secrets.API_KEY)


def test_a_keyring_that_works_needs_no_file(qtbot: QtBot) -> None:
    page = dialog_for(qtbot, Settings()).sync_page
    assert page.keep_in_file.isHidden()


def test_the_built_in_rules_need_no_key_so_no_keyring_problem_shows(qtbot: QtBot, no_keyring: None) -> None:
    page = dialog_for(qtbot, Settings()).llm_page
    assert page.preset.currentData() == NONE
    assert page.keyring_note.isHidden() and page.keep_in_file.isHidden()
    page.preset.setCurrentIndex(page.preset.findData("openai"))  # a key is needed now, and the keyring is missed
    assert "no system keyring" in page.keyring_note.text() and not page.keyring_note.isHidden()
    assert not page.keep_in_file.isHidden()


def test_the_dialog_keeps_its_width_whichever_page_is_shown(qtbot: QtBot, no_keyring: None) -> None:
    """The pages shown last are made as they are first shown: none may widen the dialog (it would stay wide)."""
    dialog = dialog_for(qtbot, replace(Settings(), llm=LlmSettings(preset="openai")))  # the file offered too
    dialog.show()
    qtbot.waitExposed(dialog)
    width = dialog.width()
    for index in [*range(dialog.tabs.count()), 0]:
        dialog.tabs.setCurrentIndex(index)
        QApplication.processEvents()
        assert dialog.width() == width, f"{dialog.tabs.tabText(index)} made the dialog {dialog.width()} px wide"
