import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QDoubleSpinBox, QPushButton
from pytestqt.qtbot import QtBot

from app import secrets
from app.agent import ledger
from app.config import LlmSettings, Settings, SpeechSettings, load_settings, save_settings, settings_path
from app.speech_in.capture import AudioDevice
from app.ui.activity import SILENCE_DBFS
from app.ui.application import Murmur
from app.ui.hotkey import hotkey_problem
from app.ui.settings.device_names import device_label, shown_devices
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.llm_page import CUSTOM, NONE
from app.ui.settings.models_panel import STATE_COLUMN
from tests.support.fake_models import VOSK_XX, WHISPER_ENGLISH, publish_whisper, vosk_zip, whisper_files
from tests.support.llm_server import FakeLlmServer, Reply, call
from tests.support.model_server import ModelServer
from tests.support.pulse import PulseAudio
from tests.support.speech import flite_wav, have


def test_settings_round_trip_with_the_key_in_the_keyring(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.general_page.hotkey.setText("<ctrl>+<shift>+m")
    dialog.general_page.hotkey_mode.setCurrentIndex(dialog.general_page.hotkey_mode.findData("toggle"))
    dialog.general_page.audio_cues.setChecked(False)
    dialog.speech_page.engine.setCurrentIndex(dialog.speech_page.engine.findData("pocketsphinx"))
    dialog.llm_page.preset.setCurrentIndex(dialog.llm_page.preset.findData(CUSTOM))
    dialog.llm_page.llm_model.setText("llama3.2")
    dialog.llm_page.budget.setValue(5)
    dialog.llm_page.tool_protocol.setCurrentIndex(dialog.llm_page.tool_protocol.findData("text"))
    dialog.llm_page.fallback.setCurrentIndex(dialog.llm_page.fallback.findData("inbox"))
    dialog.privacy_page.redact.setChecked(False)
    dialog.llm_page.api_key.setText("sk-test-123")
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
    assert again.llm_page.api_key.placeholderText() == "unchanged"


def llm_dialog(qtbot: QtBot, base_url: str) -> SettingsDialog:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.llm_page.preset.setCurrentIndex(dialog.llm_page.preset.findData(CUSTOM))
    dialog.llm_page.base_url.setText(base_url)
    dialog.llm_page.llm_model.setText("test-model")
    return dialog


def test_connection_test_reaches_the_local_server_and_tries_the_model(qtbot: QtBot) -> None:
    milk = call("create_entries", {"entries": [{"content": "Buy milk", "summary": "Buy milk", "category": "todo"}]})
    with FakeLlmServer([Reply(tool_calls=[milk])]) as llm:
        dialog = llm_dialog(qtbot, llm.base_url)
        with qtbot.waitSignal(dialog.llm_page.connection_tested, timeout=15_000):
            qtbot.mouseClick(dialog.llm_page.test_button, Qt.MouseButton.LeftButton)
    connected, tried = dialog.llm_page.connection_note.text().splitlines()
    assert connected == f"Connected to {llm.base_url}; model 'test-model' is ready"
    assert tried.startswith("Native tool calls work (")
    assert dialog.llm_page.test_button.isEnabled()


def test_connection_test_to_a_closed_port_shows_one_line(qtbot: QtBot) -> None:
    with socket.socket() as probe:  # a port nobody listens on: bound, then closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dialog = llm_dialog(qtbot, f"http://127.0.0.1:{port}/v1")
    with qtbot.waitSignal(dialog.llm_page.connection_tested, timeout=30_000):
        qtbot.mouseClick(dialog.llm_page.test_button, Qt.MouseButton.LeftButton)
    note = dialog.llm_page.connection_note.text()
    assert note and "\n" not in note and "Connected" not in note
    assert f"127.0.0.1:{port}" in note
    assert dialog.llm_page.test_button.isEnabled()


def test_a_model_is_downloaded_with_progress_used_and_removed(qtbot: QtBot, server: ModelServer) -> None:
    """The real model manager against a local HTTP server serving a model-shaped zip (tests/speech_in)."""
    server.listing([server.row(VOSK_XX, vosk_zip(VOSK_XX), lang="en-us")])
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    panel = dialog.speech_page.models
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
    assert row.text(STATE_COLUMN) == "installed" and panel.tree.currentItem() is row

    qtbot.mouseClick(panel.use_button, Qt.MouseButton.LeftButton)
    assert dialog.speech_page.model.text() == VOSK_XX
    assert dialog.result_settings().speech.model == VOSK_XX

    panel.select(VOSK_XX)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.speech_page.model.text() == "" and not (panel.manager.folder / VOSK_XX).exists()
    assert [panel.tree.topLevelItem(i).text(STATE_COLUMN) for i in range(panel.tree.topLevelItemCount())] == [""]


def test_a_whisper_model_is_downloaded_from_the_speech_page_and_used(qtbot: QtBot, server: ModelServer) -> None:
    """Where the window sends a user on the built-in engine: Settings → Speech lists Whisper's catalogue (no network
    needed), downloads one from the local stand-in for Hugging Face, and Use names it in the settings."""
    publish_whisper(server)
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    panel = dialog.speech_page.whisper_models
    assert panel.note.text().startswith("No Whisper model installed: the built-in engine, rough on real voices")
    with qtbot.waitSignal(panel.listed, timeout=15_000):
        qtbot.mouseClick(panel.list_button, Qt.MouseButton.LeftButton)
    panel.select(WHISPER_ENGLISH)
    assert panel.download_button.isEnabled()
    with qtbot.waitSignal(panel.downloaded, timeout=30_000):
        qtbot.mouseClick(panel.download_button, Qt.MouseButton.LeftButton)
    assert panel.note.text() == f"Installed {WHISPER_ENGLISH}; your next dictation uses it."
    folder = panel.manager.folder / WHISPER_ENGLISH
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name in whisper_files()} == whisper_files()
    qtbot.mouseClick(panel.use_button, Qt.MouseButton.LeftButton)
    assert dialog.result_settings().speech.whisper_model == WHISPER_ENGLISH
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.result_settings().speech.whisper_model == "" and not folder.exists()


def speech_page_shown(qtbot: QtBot, device: str) -> SettingsDialog:
    dialog = SettingsDialog(replace(Settings(), speech=SpeechSettings(device=device)))
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.speech_page.devices_listed, timeout=15_000):  # listed once the page is shown
        dialog.tabs.setCurrentWidget(dialog.speech_page)
    return dialog


def test_the_microphone_picker_lists_the_real_devices(qtbot: QtBot, pulse_audio: PulseAudio) -> None:
    """PortAudio lists the private PulseAudio's ALSA device; an unplugged choice is kept, marked."""
    dialog = speech_page_shown(qtbot, "USB headset")
    combo = dialog.speech_page.device
    names = [combo.itemData(i) for i in range(combo.count())]
    assert names[0] == "" and pulse_audio.device in names and "default" not in names  # ALSA's plugin: hidden
    assert combo.itemText(names.index(pulse_audio.device)) == "PulseAudio sound server"
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
    dialog = speech_page_shown(qtbot, pulse_audio.device)
    page = dialog.speech_page
    level = page.microphone_level
    qtbot.waitUntil(lambda: level.is_open, timeout=15_000)
    assert level.device == pulse_audio.device and page.level_note.text() == ""
    player = pulse_audio.play_async(wav)
    try:
        qtbot.waitUntil(lambda: page.level.value() > -35, timeout=15_000)  # speech, not the sink's silence
        microphone = level.microphone
        assert microphone is not None
        dialog.close()
        assert not dialog.isVisible() and not microphone.is_open and level.device is None
        assert page.level.value() == SILENCE_DBFS
        with qtbot.assertNotEmitted(level.level_measured, wait=500):  # the speech still plays: nobody hears it
            pass
    finally:
        player.terminate()
        player.wait(timeout=10)


def test_an_unknown_microphone_shows_one_line_next_to_the_meter(qtbot: QtBot, pulse_audio: PulseAudio) -> None:
    """An unplugged choice: one line beside the meter, no crash; choosing a real device clears it and opens it."""
    dialog = speech_page_shown(qtbot, "USB headset")
    page = dialog.speech_page
    qtbot.waitUntil(lambda: page.level_note.text() != "", timeout=15_000)
    note = page.level_note.text()
    assert "USB headset" in note and "\n" not in note and not page.level_note.wordWrap()
    assert page.level.value() == SILENCE_DBFS and not page.microphone_level.is_open

    page.device.setCurrentIndex(page.device.findData(pulse_audio.device))
    assert page.level_note.text() == ""
    qtbot.waitUntil(lambda: page.microphone_level.is_open, timeout=15_000)
    assert page.microphone_level.device == pulse_audio.device
    dialog.tabs.setCurrentIndex(0)  # the page is hidden: the stream is closed
    assert not page.microphone_level.is_open and page.microphone_level.device is None


# -- issue 14's list: the hotkey, the provider, the spin boxes, privacy, microphone names ----------------


def ok_button(dialog: SettingsDialog) -> QPushButton:
    button = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    assert button is not None
    return button


def shown_dialog(qtbot: QtBot, settings: Settings) -> SettingsDialog:
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def saved_if_accepted(dialog: SettingsDialog) -> Settings:
    """What the app does after the dialog (application.open_settings): save on OK, then read the file."""
    if dialog.result() == SettingsDialog.DialogCode.Accepted:
        save_settings(dialog.result_settings())
    return load_settings(settings_path())


def test_an_invalid_hotkey_stays_unsaved_with_one_line_under_the_field(qtbot: QtBot) -> None:
    dialog = shown_dialog(qtbot, Settings())
    dialog.tabs.setCurrentIndex(2)
    dialog.general_page.hotkey.setText("banana")
    qtbot.mouseClick(ok_button(dialog), Qt.MouseButton.LeftButton)
    note = dialog.general_page.hotkey_note.text()
    assert dialog.isVisible() and dialog.result() != SettingsDialog.DialogCode.Accepted
    assert "'banana' is not a hotkey" in note and "\n" not in note and dialog.tabs.currentIndex() == 0
    assert saved_if_accepted(dialog).ui.hotkey == "<ctrl>+<alt>+<space>"

    qtbot.keyClicks(dialog.general_page.hotkey, "x")  # typing again clears the complaint
    assert dialog.general_page.hotkey_note.text() == ""
    dialog.general_page.hotkey.setText("<ctrl>+<shift>+m")
    qtbot.mouseClick(ok_button(dialog), Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and saved_if_accepted(dialog).ui.hotkey == "<ctrl>+<shift>+m"


@pytest.fixture
def x_display(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private X server, so that pynput (which needs one to load) parses the hotkey itself."""
    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is not installed (Debian: xvfb)")
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp"], pass_fds=[write_end], stderr=subprocess.DEVNULL
    )
    os.close(write_end)
    try:
        with os.fdopen(read_end) as announced:
            number = announced.readline().strip()
        assert number, "Xvfb did not start"
        monkeypatch.setenv("DISPLAY", f":{number}")
        yield f":{number}"
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def test_pynputs_own_parser_judges_the_hotkey(qtbot: QtBot, x_display: str) -> None:
    """<bogus> has the shape of a key name but is none: only pynput's parser knows."""
    assert hotkey_problem("<ctrl>+<alt>+<space>") is None and hotkey_problem("<ctrl>++") is None
    dialog = shown_dialog(qtbot, Settings())
    dialog.general_page.hotkey.setText("<ctrl>+<bogus>")
    qtbot.mouseClick(ok_button(dialog), Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and "('<bogus>' is not a key)" in dialog.general_page.hotkey_note.text()


def test_record_keeps_the_pressed_combination_in_pynput_syntax(qtbot: QtBot) -> None:
    dialog = shown_dialog(qtbot, Settings())
    record, ctrl, alt, shift = dialog.general_page.record_hotkey, Qt.Modifier.CTRL, Qt.Modifier.ALT, Qt.Modifier.SHIFT
    qtbot.mouseClick(record, Qt.MouseButton.LeftButton)
    qtbot.keyPress(record, Qt.Key.Key_Control, Qt.KeyboardModifier.ControlModifier)  # modifiers alone: not yet
    assert record.recording
    qtbot.keyClick(record, Qt.Key.Key_Space, Qt.KeyboardModifier(ctrl | alt))
    assert dialog.general_page.hotkey.combination() == "<ctrl>+<alt>+<space>" and record.text() == "Record…"

    qtbot.mouseClick(record, Qt.MouseButton.LeftButton)
    qtbot.keyClick(record, Qt.Key.Key_M, Qt.KeyboardModifier(ctrl | shift))
    assert dialog.general_page.hotkey.combination() == "<ctrl>+<shift>+m"
    qtbot.mouseClick(record, Qt.MouseButton.LeftButton)
    qtbot.keyClick(record, Qt.Key.Key_F9, Qt.KeyboardModifier.AltModifier)
    assert dialog.general_page.hotkey.combination() == "<alt>+<f9>"

    qtbot.mouseClick(record, Qt.MouseButton.LeftButton)
    qtbot.keyClick(record, Qt.Key.Key_Escape)  # cancels: the field and the dialog stay
    assert dialog.general_page.hotkey.combination() == "<alt>+<f9>" and not record.recording and dialog.isVisible()
    qtbot.mouseClick(ok_button(dialog), Qt.MouseButton.LeftButton)
    assert saved_if_accepted(dialog).ui.hotkey == "<alt>+<f9>"


@pytest.fixture
def no_llm_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MURMUR_LLM_PRESET", "MURMUR_LLM_BASE_URL", "MURMUR_LLM_MODEL", "MURMUR_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_nothing_configured_shows_the_built_in_rules_with_the_server_fields_greyed(
    qtbot: QtBot, no_llm_environment: None
) -> None:
    dialog = shown_dialog(qtbot, Settings())
    llm = dialog.llm_page
    assert llm.preset.itemText(0) == "None: built-in rules" and llm.preset.currentData() == NONE
    assert not llm.base_url.isEnabled() and not llm.llm_model.isEnabled() and not llm.api_key.isEnabled()
    with qtbot.waitSignal(llm.connection_tested, timeout=5_000):
        qtbot.mouseClick(llm.test_button, Qt.MouseButton.LeftButton)
    assert "need no server" in llm.connection_note.text()
    llm.preset.setCurrentIndex(llm.preset.findData("ollama"))
    assert llm.base_url.isEnabled() and llm.llm_model.isEnabled() and llm.connection_note.text() == ""


def test_choosing_the_built_in_rules_clears_the_server_and_forgets_the_key(
    qtbot: QtBot, no_llm_environment: None
) -> None:
    secrets.set_api_key("sk-old")
    llm = LlmSettings(preset="openai", base_url="https://example.invalid/v1", model="gpt-4o")
    dialog = shown_dialog(qtbot, replace(Settings(), llm=llm))
    assert dialog.llm_page.preset.currentData() == "openai"
    dialog.llm_page.preset.setCurrentIndex(dialog.llm_page.preset.findData(NONE))
    qtbot.mouseClick(ok_button(dialog), Qt.MouseButton.LeftButton)
    saved = saved_if_accepted(dialog).llm
    assert (saved.preset, saved.base_url, saved.model) == ("", "", "") and secrets.get_api_key() is None


def test_a_stored_key_alone_is_a_custom_server_not_none(qtbot: QtBot, no_llm_environment: None) -> None:
    secrets.set_api_key("sk-alone")  # with no address the key reaches OpenAI: not "None"
    dialog = shown_dialog(qtbot, Settings())
    assert dialog.llm_page.preset.currentData() == CUSTOM


@pytest.mark.parametrize(
    ("base_url", "field"),
    [("", "the Server address"), ("http://127.0.0.1:9/v1", "the Model field")],
)
def test_the_connection_test_names_the_fields_not_the_settings_keys(
    qtbot: QtBot, no_llm_environment: None, base_url: str, field: str
) -> None:
    dialog = shown_dialog(qtbot, Settings())
    dialog.llm_page.preset.setCurrentIndex(dialog.llm_page.preset.findData(CUSTOM))
    dialog.llm_page.base_url.setText(base_url)
    with qtbot.waitSignal(dialog.llm_page.connection_tested, timeout=15_000):
        qtbot.mouseClick(dialog.llm_page.test_button, Qt.MouseButton.LeftButton)
    note = dialog.llm_page.connection_note.text()
    assert field in note and "llm." not in note and "murmur config" not in note


def test_every_spin_box_shows_whole_units_with_a_suffix_within_the_files_range(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    general, llm, voice = dialog.general_page, dialog.llm_page, dialog.voice_page
    spins = dialog.findChildren(QDoubleSpinBox)
    assert len(spins) == 6
    for spin in spins:
        money = "USD" in spin.suffix()
        assert spin.suffix() and spin.decimals() == (2 if money else 0)
    assert llm.follow_up.text() == "120 s" and general.toast_seconds.text() == "5 s"
    assert llm.budget.text() == "No budget"
    llm.budget.setValue(2.5)
    assert llm.budget.text() == "2.50 USD a month"
    assert (general.toast_seconds.minimum(), general.toast_seconds.maximum()) == (1, 120)  # as the file allows
    assert llm.follow_up.maximum() == 86_400
    assert voice.rate.text() == "100 %" and (voice.rate.minimum(), voice.rate.maximum()) == (50, 200)
    assert voice.volume.text() == "100 %" and voice.followup.text() == "6 s"


def test_the_privacy_boxes_say_what_checking_them_does(qtbot: QtBot) -> None:
    """PrivacySettings: redact masks before text leaves; keep_unredacted puts the originals back locally."""
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    privacy = dialog.privacy_page
    assert privacy.redact.isChecked() and privacy.redact.text().startswith("Mask ")
    assert not privacy.keep_unredacted.isChecked() and privacy.keep_unredacted.text().startswith("Put the masked")
    assert "placeholders" in privacy.redact.toolTip() and "placeholders" in privacy.keep_unredacted.toolTip()
    privacy.keep_unredacted.setChecked(True)
    assert dialog.result_settings().privacy.keep_unredacted
    privacy.redact.setChecked(False)  # nothing masked, nothing to put back
    assert not privacy.keep_unredacted.isEnabled() and not dialog.result_settings().privacy.redact


def alsa(index: int, name: str, is_default: bool = False) -> AudioDevice:
    return AudioDevice(index, name, 2, 44100, "ALSA", is_default)


def test_alsa_plugins_are_hidden_unless_chosen_or_alone() -> None:
    card = alsa(0, "HDA Intel PCH: ALC892 Analog (hw:0,0)")
    usb = alsa(1, "USB Audio Device: - (hw:2,0)")
    plugins = [alsa(i, n) for i, n in enumerate(("sysdefault", "front", "surround51", "dmix", "dsnoop"), 2)]
    pulse, default = alsa(7, "pulse"), alsa(8, "default", is_default=True)
    devices = [card, usb, *plugins, pulse, default]
    assert shown_devices(devices, "") == [card, usb, pulse]
    assert shown_devices(devices, "surround51") == [card, usb, plugins[2], pulse]
    assert shown_devices(plugins, "") == plugins  # nothing else: better noise than nothing
    assert [device_label(d) for d in (card, pulse, default)] == [
        "HDA Intel PCH: ALC892 Analog (hw:0,0)",
        "PulseAudio sound server",
        "default, the default",
    ]


def test_the_hotkey_is_deaf_while_settings_are_open(qtbot: QtBot, murmur: Murmur) -> None:
    """Recording a new hotkey in Settings presses the old one: it must not start dictation. (Here, after the
    tests that record from a PulseAudio sink: the dialog lists the microphones, which starts PortAudio.)"""
    seen: list[bool] = []

    def look_then_cancel() -> None:
        seen.append(murmur.hotkey.paused)
        dialog = QApplication.activeModalWidget()
        assert dialog is not None
        dialog.reject()

    QTimer.singleShot(300, look_then_cancel)
    murmur.open_settings()
    assert seen == [True] and murmur.hotkey.paused is False


def test_the_apps_connection_test_remembers_in_its_store_what_it_found_of_the_model(
    qtbot: QtBot, murmur: Murmur, no_llm_environment: None
) -> None:
    """Settings as the app opens it: a model the test finds unable to call tools is set aside in the app's
    database, as `murmur config test` sets it aside."""
    prose = Reply("Sure, milk is a great choice! Anything else?")
    said: list[str] = []

    def test_then_cancel() -> None:
        dialog = QApplication.activeModalWidget()
        try:
            assert isinstance(dialog, SettingsDialog)
            llm = dialog.llm_page
            llm.preset.setCurrentIndex(llm.preset.findData(CUSTOM))
            llm.base_url.setText(server.base_url)
            llm.llm_model.setText("test-model")
            with qtbot.waitSignal(llm.connection_tested, timeout=15_000) as tested:
                qtbot.mouseClick(llm.test_button, Qt.MouseButton.LeftButton)
            said.append(tested.args[0])
        finally:
            if dialog is not None:  # open, the dialog would keep open_settings waiting
                dialog.reject()

    with FakeLlmServer([prose, prose]) as server:
        QTimer.singleShot(300, test_then_cancel)
        murmur.open_settings()
    assert len(said) == 1 and "The model is set aside" in said[0]
    assert ledger.set_aside_reason(murmur.service.store, server.base_url, "test-model") is not None


def test_the_voice_tab_keeps_its_settings_and_downloads_a_piper_voice(qtbot: QtBot, server: ModelServer) -> None:
    """A voice-shaped download from the local server stands in for rhasspy/piper-voices (tests/speech_out has the real
    voice); Use names it as the voice, Remove forgets it."""
    server.piper_voices({"en_US-amy-medium": (b"model" * 500, b"{}")})
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    voice = dialog.voice_page
    voice.reply.setCurrentIndex(voice.reply.findData("always"))
    voice.rate.setValue(125)
    voice.volume.setValue(50)
    voice.followup.setValue(0)
    assert voice.followup.text() == "Never"
    panel = voice.voices
    with qtbot.waitSignal(panel.listed, timeout=15_000):
        qtbot.mouseClick(panel.list_button, Qt.MouseButton.LeftButton)
    row = panel.tree.findItems("en_US-amy-medium", Qt.MatchFlag.MatchExactly, 0)[0]
    assert [row.text(i) for i in range(4)] == ["en_US-amy-medium", "en_US", "0 MB", "medium"]
    panel.select("en_US-amy-medium")
    with qtbot.waitSignal(panel.downloaded, timeout=30_000):
        qtbot.mouseClick(panel.download_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.use_button, Qt.MouseButton.LeftButton)
    speech = dialog.result_settings().speech
    assert (speech.reply, speech.rate, speech.volume, speech.followup_seconds) == ("always", 1.25, 0.5, 0)
    assert speech.voice == "en_US-amy-medium"
    panel.select("en_US-amy-medium")
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.result_settings().speech.voice == ""


def test_trying_the_voice_on_a_missing_speaker_says_why_in_one_line(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.voice_page.voice.setText("espeak-ng")
    dialog.voice_page.output_device.setText("no such speaker")
    with qtbot.waitSignal(dialog.voice_page.voice_tried, timeout=15_000) as tried:
        qtbot.mouseClick(dialog.voice_page.try_voice, Qt.MouseButton.LeftButton)
    # Which line depends on the machine: other speakers (the private PulseAudio's, once started), or none at all.
    assert tried.args[0].startswith(("no output device named 'no such speaker'", "no speaker found"))
    assert "\n" not in tried.args[0]
    assert dialog.voice_page.try_voice.isEnabled()


@pytest.mark.pulse
def test_trying_the_voice_speaks_on_the_chosen_speaker(qtbot: QtBot, pulse_audio: PulseAudio) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.voice_page.voice.setText("espeak-ng")
    dialog.voice_page.output_device.setText(pulse_audio.device)
    with qtbot.waitSignal(dialog.voice_page.voice_tried, timeout=15_000) as tried:
        qtbot.mouseClick(dialog.voice_page.try_voice, Qt.MouseButton.LeftButton)
    assert tried.args[0].startswith("espeak-ng (en-us): ") and tried.args[0].endswith(" s of speech"), tried.args


def test_a_server_address_that_is_no_url_stays_unsaved_with_one_line(qtbot: QtBot, no_llm_environment: None) -> None:
    dialog = shown_dialog(qtbot, replace(Settings(), llm=LlmSettings(base_url="http://127.0.0.1:9/v1", model="m")))
    assert dialog.llm_page.preset.currentData() == CUSTOM
    dialog.llm_page.base_url.setText("banana://nowhere")
    qtbot.mouseClick(ok_button(dialog), Qt.MouseButton.LeftButton)
    note = dialog.llm_page.connection_note.text()
    assert dialog.isVisible() and dialog.result() != SettingsDialog.DialogCode.Accepted
    assert note == "The server address 'banana://nowhere' must start with http:// or https://."
    assert saved_if_accepted(dialog).llm.base_url == ""
