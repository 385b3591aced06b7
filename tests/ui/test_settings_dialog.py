import socket
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app import secrets
from app.config import Settings, SpeechSettings, load_settings, save_settings
from app.speech.capture import sounddevice_module
from app.ui.activity import SILENCE_DBFS
from app.ui.settings_dialog import SettingsDialog
from tests.support.fake_models import VOSK_XX, vosk_zip
from tests.support.llm_server import FakeLlmServer, Reply, call
from tests.support.model_server import ModelServer
from tests.support.pulse import PulseAudio
from tests.support.speech import flite_wav, have


def test_settings_round_trip_with_the_key_in_the_keyring(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.hotkey.setText("<ctrl>+<shift>+m")
    dialog.hotkey_mode.setCurrentIndex(dialog.hotkey_mode.findData("toggle"))
    dialog.audio_cues.setChecked(False)
    dialog.engine.setCurrentIndex(dialog.engine.findData("pocketsphinx"))
    dialog.llm_model.setText("llama3.2")
    dialog.budget.setValue(5)
    dialog.tool_protocol.setCurrentIndex(dialog.tool_protocol.findData("text"))
    dialog.fallback.setCurrentIndex(dialog.fallback.findData("inbox"))
    dialog.redact.setChecked(False)
    dialog.api_key.setText("sk-test-123")
    dialog._on_accepted()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted

    path = save_settings(dialog.result_settings())
    loaded = load_settings(path)
    assert loaded.ui.hotkey == "<ctrl>+<shift>+m" and loaded.ui.hotkey_mode == "toggle"
    assert not loaded.ui.audio_cues and loaded.speech.engine == "pocketsphinx"
    assert loaded.llm.model == "llama3.2" and loaded.llm.monthly_budget == 5 and not loaded.privacy.redact
    assert loaded.llm.tool_protocol == "text" and loaded.llm.fallback == "inbox"
    assert secrets.get_api_key() == "sk-test-123"
    assert "sk-test-123" not in path.read_text()

    again = SettingsDialog(loaded)
    qtbot.addWidget(again)
    assert again.result_settings() == loaded
    assert again.api_key.placeholderText() == "unchanged"


def llm_dialog(qtbot: QtBot, base_url: str) -> SettingsDialog:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.base_url.setText(base_url)
    dialog.llm_model.setText("test-model")
    return dialog


def test_connection_test_reaches_the_local_server_and_tries_the_model(qtbot: QtBot) -> None:
    milk = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})
    with FakeLlmServer([Reply(tool_calls=[milk])]) as llm:
        dialog = llm_dialog(qtbot, llm.base_url)
        with qtbot.waitSignal(dialog.connection_tested, timeout=15_000):
            qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    connected, tried = dialog.connection_note.text().splitlines()
    assert connected == f"Connected to {llm.base_url}; model 'test-model' is ready"
    assert tried.startswith("Native tool calls work (")
    assert dialog.test_button.isEnabled()


def test_connection_test_to_a_closed_port_shows_one_line(qtbot: QtBot) -> None:
    with socket.socket() as probe:  # a port nobody listens on: bound, then closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dialog = llm_dialog(qtbot, f"http://127.0.0.1:{port}/v1")
    with qtbot.waitSignal(dialog.connection_tested, timeout=30_000):
        qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    note = dialog.connection_note.text()
    assert note and "\n" not in note and "Connected" not in note
    assert f"127.0.0.1:{port}" in note
    assert dialog.test_button.isEnabled()


def test_a_model_is_downloaded_with_progress_used_and_removed(qtbot: QtBot, server: ModelServer) -> None:
    """The real model manager against a local HTTP server serving a model-shaped zip (tests/speech)."""
    server.listing([server.row(VOSK_XX, vosk_zip(VOSK_XX), lang="en-us")])
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    panel = dialog.models
    assert panel.tree.topLevelItemCount() == 0
    with qtbot.waitSignal(panel.listed, timeout=15_000):
        qtbot.mouseClick(panel.list_button, Qt.MouseButton.LeftButton)
    panel.select(VOSK_XX)
    assert panel.download_button.isEnabled() and not panel.use_button.isEnabled()

    progress: list[tuple[int, int]] = []
    panel.download_progressed.connect(lambda done, total: progress.append((done, total)))
    with qtbot.waitSignal(panel.downloaded, timeout=30_000):
        qtbot.mouseClick(panel.download_button, Qt.MouseButton.LeftButton)
    assert len(progress) > 1 and progress[-1][0] == progress[-1][1] == len(vosk_zip(VOSK_XX))
    assert panel.progress.isHidden()
    row = panel.tree.findItems(VOSK_XX, Qt.MatchFlag.MatchExactly, 0)[0]
    assert row.text(3) == "installed" and panel.tree.currentItem() is row

    qtbot.mouseClick(panel.use_button, Qt.MouseButton.LeftButton)
    assert dialog.model.text() == VOSK_XX
    assert dialog.result_settings().speech.model == VOSK_XX

    panel.select(VOSK_XX)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.model.text() == "" and not (panel.manager.folder / VOSK_XX).exists()
    assert [panel.tree.topLevelItem(i).text(3) for i in range(panel.tree.topLevelItemCount())] == [""]


def rescan_devices() -> None:
    """PortAudio scans devices once, when sounddevice is first imported: an earlier test may have done
    that before the private PulseAudio ran. sounddevice has no public re-scan; these two are its way."""
    sounddevice = sounddevice_module()
    sounddevice._terminate()
    sounddevice._initialize()


def speech_page_shown(qtbot: QtBot, device: str) -> SettingsDialog:
    dialog = SettingsDialog(replace(Settings(), speech=SpeechSettings(device=device)))
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.devices_listed, timeout=15_000):
        dialog.show()
    dialog.tabs.setCurrentWidget(dialog.speech_page)
    return dialog


def test_the_microphone_picker_lists_the_real_devices(qtbot: QtBot, pulse_audio: PulseAudio) -> None:
    """PortAudio lists the private PulseAudio's ALSA device; an unplugged choice is kept, marked."""
    rescan_devices()
    dialog = SettingsDialog(replace(Settings(), speech=SpeechSettings(device="USB headset")))
    qtbot.addWidget(dialog)
    qtbot.waitSignal(dialog.devices_listed, timeout=15_000).wait()
    combo = dialog.device
    names = [combo.itemData(i) for i in range(combo.count())]
    assert names[0] == "" and pulse_audio.device in names
    assert combo.currentText() == "USB headset (not found)"
    assert dialog.result_settings().speech.device == "USB headset"
    combo.setCurrentIndex(combo.findData(pulse_audio.device))
    assert dialog.result_settings().speech.device == pulse_audio.device


@pytest.mark.pulse
def test_the_level_meter_shows_speech_from_the_chosen_microphone_until_closed(
    qtbot: QtBot, pulse_audio: PulseAudio, tmp_path: Path
) -> None:
    """flite speech played into the private PulseAudio moves the meter; closing the dialog closes the stream."""
    if not have("flite"):
        pytest.skip("flite is not installed")
    wav = flite_wav("the meeting is at ten in the morning", tmp_path / "speech.wav")
    rescan_devices()
    dialog = speech_page_shown(qtbot, pulse_audio.device)
    level = dialog.microphone_level
    qtbot.waitUntil(lambda: level.is_open, timeout=15_000)
    assert level.device == pulse_audio.device and dialog.level_note.text() == ""
    player = pulse_audio.play_async(wav)
    try:
        qtbot.waitUntil(lambda: dialog.level.value() > -35, timeout=15_000)  # speech, not the sink's silence
        microphone = level.microphone
        assert microphone is not None
        dialog.close()
        assert not dialog.isVisible() and not microphone.is_open and level.device is None
        assert dialog.level.value() == SILENCE_DBFS
        with qtbot.assertNotEmitted(level.level_measured, wait=500):  # the speech still plays: nobody hears it
            pass
    finally:
        player.terminate()
        player.wait(timeout=10)


def test_an_unknown_microphone_shows_one_line_next_to_the_meter(qtbot: QtBot, pulse_audio: PulseAudio) -> None:
    """An unplugged choice: one line beside the meter, no crash; choosing a real device clears it and opens it."""
    rescan_devices()
    dialog = speech_page_shown(qtbot, "USB headset")
    qtbot.waitUntil(lambda: dialog.level_note.text() != "", timeout=15_000)
    note = dialog.level_note.text()
    assert "USB headset" in note and "\n" not in note and not dialog.level_note.wordWrap()
    assert dialog.level.value() == SILENCE_DBFS and not dialog.microphone_level.is_open

    dialog.device.setCurrentIndex(dialog.device.findData(pulse_audio.device))
    assert dialog.level_note.text() == ""
    qtbot.waitUntil(lambda: dialog.microphone_level.is_open, timeout=15_000)
    assert dialog.microphone_level.device == pulse_audio.device
    dialog.tabs.setCurrentIndex(0)  # the page is hidden: the stream is closed
    assert not dialog.microphone_level.is_open and dialog.microphone_level.device is None
