"""The first start's notes on what is missing: a line for each of no microphone, no tray and no speech
engine, none when all is there, shown at the top of the window until closed."""

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.config import SpeechSettings
from app.ui.application import Murmur
from app.ui.setup_notes import NO_MICROPHONE, NO_TRAY, SetupCheck, SetupFacts, missing_parts
from tests.support.fake_models import whisper_folder


def test_each_missing_part_gets_one_line() -> None:
    assert missing_parts(SetupFacts(2, None, tray=True, speech_problem=None)) == []
    assert missing_parts(SetupFacts(0, None, tray=True, speech_problem=None)) == [NO_MICROPHONE]
    assert missing_parts(SetupFacts(0, "PortAudio library not found", tray=False, speech_problem="no model")) == [
        "The microphone can't be used: PortAudio library not found. Typing works.",
        NO_TRAY,
        "Speech can't start: no model.",
    ]


def test_the_check_finds_a_speech_engine_without_its_model(tmp_path: Path) -> None:
    speech = SpeechSettings(engine="vosk", models_dir=str(tmp_path / "models"))
    lines = SetupCheck(speech, tray=True).run()
    assert any(line.startswith("Speech can't start: no Vosk model for language 'en'") for line in lines), lines
    bundled = SetupCheck(replace(speech, engine="pocketsphinx"), tray=True).run()
    assert not [line for line in bundled if line.startswith("Speech can't start")]


def test_while_the_built_in_engine_is_all_dictation_uses_the_notes_say_it_is_rough_and_where_whisper_is(
    tmp_path: Path,
) -> None:
    speech = SpeechSettings(models_dir=str(tmp_path / "models"))
    rough = (
        "The built-in engine is rough on real voices: Settings → Speech downloads Whisper (whisper-base.en), "
        "which gets far more words right."
    )
    assert rough in SetupCheck(speech, tray=True).run()
    whisper_folder(tmp_path / "models", "whisper-base.en")
    assert rough not in SetupCheck(speech, tray=True).run()  # Whisper writes the text now
    assert rough in SetupCheck(replace(speech, final_engine="live"), tray=True).run()  # Whisper turned off
    assert rough not in SetupCheck(replace(speech, engine="vosk"), tray=True).run()  # no engine: said otherwise


def test_the_notes_say_what_to_do_in_the_window_not_at_a_terminal(tmp_path: Path) -> None:
    speech = SpeechSettings(engine="vosk", models_dir=str(tmp_path / "models"))
    lines = SetupCheck(speech, tray=False).run()
    assert any(line.endswith("; Settings → Speech downloads Vosk models.") for line in lines), lines
    assert "Start or stop listening" in NO_TRAY
    assert not [line for line in lines if "murmur " in line]


def test_the_window_says_there_is_no_tray_until_closed(qtbot: QtBot, murmur: Murmur) -> None:
    notes = murmur.window.setup_notes
    assert notes.isHidden()
    murmur.check_setup()  # the fixture's app has no tray
    qtbot.waitUntil(lambda: not notes.isHidden(), timeout=10_000)
    assert NO_TRAY in notes.text.text().splitlines()
    qtbot.mouseClick(notes.close_button, Qt.MouseButton.LeftButton)
    assert notes.isHidden()
