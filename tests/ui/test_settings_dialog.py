from pathlib import Path

from pytestqt.qtbot import QtBot

from app import secrets
from app.config import Settings, load_settings, save_settings
from app.ui.settings_dialog import SettingsDialog


def test_settings_round_trip_with_the_key_in_the_keyring(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.hotkey.setText("<ctrl>+<shift>+m")
    dialog.hotkey_mode.setCurrentIndex(dialog.hotkey_mode.findData("toggle"))
    dialog.audio_cues.setChecked(False)
    dialog.engine.setCurrentIndex(dialog.engine.findData("pocketsphinx"))
    dialog.llm_model.setText("llama3.2")
    dialog.budget.setValue(5)
    dialog.redact.setChecked(False)
    dialog.api_key.setText("sk-test-123")
    dialog._on_accepted()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted

    path = save_settings(dialog.result_settings())
    loaded = load_settings(path)
    assert loaded.ui.hotkey == "<ctrl>+<shift>+m" and loaded.ui.hotkey_mode == "toggle"
    assert not loaded.ui.audio_cues and loaded.speech.engine == "pocketsphinx"
    assert loaded.llm.model == "llama3.2" and loaded.llm.monthly_budget == 5 and not loaded.privacy.redact
    assert secrets.get_api_key() == "sk-test-123"
    assert "sk-test-123" not in path.read_text()

    again = SettingsDialog(loaded)
    qtbot.addWidget(again)
    assert again.result_settings() == loaded
    assert again.api_key.placeholderText() == "unchanged"
