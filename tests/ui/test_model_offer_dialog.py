"""The offer of better speech models in the desktop app: the dialog's words, and the whole app deciding through it
(declining saved, "Not now" saving nothing, installing from the local model server and applying the settings, never
shown in the middle of a dictation). The models are model-shaped fakes (tests/support/fake_models.py)."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.config import Settings, SpeechSettings, load_settings, settings_path
from app.speech_in.engines import choose_engine, choose_final_engine
from app.speech_in.model_offer import model_offer
from app.speech_in.models import models_dir
from app.speech_in.offer_snooze import OFFER_AGAIN_AFTER
from app.ui.application import Murmur
from app.ui.model_offer_dialog import ModelOfferDialog, ModelOfferPrompt
from tests.support.fake_models import WHISPER_ENGLISH, publish_english_voice, publish_whisper
from tests.support.model_server import ModelServer
from tests.support.pulse import PulseAudio

WAIT_MS = 30_000


def shown(qtbot: QtBot, murmur: Murmur) -> tuple[ModelOfferPrompt, ModelOfferDialog]:
    """Offer the models as the app does once its window is up; the dialog it shows."""
    prompt = murmur.offer_models()
    with qtbot.waitSignal(prompt.shown, timeout=WAIT_MS) as blocker:
        pass  # worked out on a thread of its own; shown when it comes back
    dialog = blocker.args[0]
    assert isinstance(dialog, ModelOfferDialog)
    return prompt, dialog


def test_the_dialog_says_what_the_models_are_their_sizes_and_the_gain(qtbot: QtBot) -> None:
    offer = model_offer(Settings())
    assert offer is not None
    dialog = ModelOfferDialog(offer, SpeechSettings())
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.windowTitle() == "Better speech recognition" and not dialog.isModal()
    assert dialog.install_button.text() == "Install (148 MB)"
    assert (dialog.later_button.text(), dialog.never_button.text()) == ("Not now", "Don't ask again")
    assert [label.text() for label in dialog.model_labels] == [f"{WHISPER_ENGLISH} (148 MB): recognises what you say"]
    intro = dialog.findChild(QLabel, "intro")
    assert intro is not None and "built-in speech engine, which is rough on real voices" in intro.text()
    assert "the built-in engine gets about 69% of the words wrong; Whisper base about 12%" in dialog.accuracy.text()
    assert dialog.progress.isHidden() and dialog.note.isHidden()
    labels = dialog.findChildren(QLabel)
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)


def test_not_now_saves_no_setting_and_the_next_start_does_not_ask(qtbot: QtBot, murmur: Murmur) -> None:
    _, dialog = shown(qtbot, murmur)
    assert dialog.isVisible() and dialog.parent() is murmur.window
    qtbot.mouseClick(dialog.later_button, Qt.MouseButton.LeftButton)  # not now
    assert dialog.isHidden() and not settings_path().exists() and murmur.settings.speech.offer_models is True

    prompt = murmur.offer_models()  # the next start: put off, not asked
    with qtbot.waitSignal(prompt.worked_out, timeout=WAIT_MS) as blocker:
        pass
    assert blocker.args == [None] and prompt.dialog is None
    a_month_on = datetime.now(UTC) + OFFER_AGAIN_AFTER + timedelta(minutes=1)
    assert model_offer(murmur.settings, a_month_on) is not None  # it comes back in a month


@pytest.mark.parametrize("how", ["escape", "closed by the app"])
def test_escape_puts_it_off_too_but_the_app_closing_its_windows_does_not(
    qtbot: QtBot, murmur: Murmur, how: str
) -> None:
    _, dialog = shown(qtbot, murmur)
    if how == "escape":
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    else:
        dialog.close()  # as Qt closes every window at quit
    assert dialog.isHidden()
    prompt = murmur.offer_models()
    with qtbot.waitSignal(prompt.worked_out, timeout=WAIT_MS) as blocker:
        pass
    assert (blocker.args == [None]) is (how == "escape")


def test_dont_ask_again_is_saved(qtbot: QtBot, murmur: Murmur) -> None:
    _, dialog = shown(qtbot, murmur)
    qtbot.mouseClick(dialog.never_button, Qt.MouseButton.LeftButton)
    assert dialog.isHidden()
    assert murmur.settings.speech.offer_models is False and load_settings().speech.offer_models is False
    assert load_settings() == murmur.settings
    prompt = murmur.offer_models()  # and then never again
    with qtbot.waitSignal(prompt.worked_out, timeout=WAIT_MS) as blocker:
        pass
    assert blocker.args == [None] and prompt.dialog is None
    a_month_on = datetime.now(UTC) + OFFER_AGAIN_AFTER + timedelta(minutes=1)
    assert model_offer(murmur.settings, a_month_on) is None


def test_offline_the_install_says_so_in_a_sentence_naming_the_server(
    qtbot: QtBot, murmur: Murmur, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A name no resolver knows (RFC 2606): what a machine without a network meets for every name.
    monkeypatch.setenv("MURMUR_WHISPER_HUB", "https://hub.murmur.invalid")
    _, dialog = shown(qtbot, murmur)
    with qtbot.waitSignal(dialog.install_failed, timeout=WAIT_MS) as blocker:
        qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
    line = blocker.args[0]
    assert line == "Couldn't reach hub.murmur.invalid: you seem to be offline." and dialog.note.text() == line


def test_install_downloads_with_progress_and_the_next_dictation_uses_the_models(
    qtbot: QtBot, murmur: Murmur, server: ModelServer
) -> None:
    publish_whisper(server)
    publish_english_voice(server)  # the natural voice offered beside the models (tests/ui/test_voice_offer_dialog.py)
    notes = murmur.window.setup_notes
    murmur.check_setup()
    qtbot.waitUntil(lambda: "rough on real voices" in notes.text.text(), timeout=WAIT_MS)
    _, dialog = shown(qtbot, murmur)
    progress: list[tuple[int, int]] = []
    dialog.download_progressed.connect(lambda done, total: progress.append((done, total)))
    with qtbot.waitSignal(dialog.installed, timeout=WAIT_MS):
        qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
        assert dialog.progress.isVisible() and not dialog.install_button.isEnabled()
        assert dialog.later_button.text() == "Hide"  # the download goes on without the dialog
    assert len(progress) > 2 and progress[-1][0] == progress[-1][1] > 0
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)
    assert dialog.progress.value() == dialog.progress.maximum()
    assert dialog.note.text() == "Installed. Your next dictation uses them." and dialog.later_button.text() == "Close"
    assert dialog.install_button.isHidden() and dialog.never_button.isHidden()
    assert "rough on real voices" not in notes.text.text() and not notes.isHidden()  # the missing tray still said

    speech = murmur.settings.speech
    assert (speech.model, speech.whisper_model, speech.offer_models) == ("", WHISPER_ENGLISH, False)
    assert load_settings() == murmur.settings
    live = choose_engine(speech)  # what the next dictation starts with
    final = choose_final_engine(speech, live)
    assert final is not None and (final.kind, final.model_path) == ("whisper", models_dir(speech) / WHISPER_ENGLISH)


def test_a_failed_install_is_one_line_in_the_dialog_and_can_be_tried_again(
    qtbot: QtBot, murmur: Murmur, server: ModelServer
) -> None:
    # the hub has no whisper-base.en yet
    before = murmur.settings
    _, dialog = shown(qtbot, murmur)
    qtbot.mouseClick(dialog.voice_box, Qt.MouseButton.LeftButton)  # the models alone: the voice is unticked
    with qtbot.waitSignal(dialog.install_failed, timeout=WAIT_MS) as blocker:
        qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
    line = blocker.args[0]
    assert "whisper-base.en" in line and "\n" not in line and dialog.note.text() == line
    assert line.startswith("Couldn't get ") and "from 127.0.0.1: HTTP 404" in line and "http://" not in line
    assert dialog.install_button.isEnabled() and dialog.install_button.text() == "Try again (148 MB)"
    assert dialog.progress.isHidden() and dialog.later_button.text() == "Not now"
    assert not settings_path().exists() and murmur.settings == before

    publish_whisper(server)
    with qtbot.waitSignal(dialog.installed, timeout=WAIT_MS):
        qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
    assert load_settings().speech.whisper_model == WHISPER_ENGLISH


@pytest.mark.pulse
def test_never_shown_in_the_middle_of_a_dictation(qtbot: QtBot, murmur: Murmur, pulse_audio: PulseAudio) -> None:
    speech = replace(murmur.settings.speech, engine="pocketsphinx", device=pulse_audio.device)
    murmur.settings = replace(murmur.settings, speech=speech)
    with qtbot.waitSignal(murmur.voice.started, timeout=WAIT_MS):
        murmur.conductor.start_recording()
    prompt = murmur.offer_models()
    with qtbot.waitSignal(prompt.worked_out, timeout=WAIT_MS) as blocker:
        pass
    assert blocker.args[0] is not None and prompt.dialog is None  # an offer, held back while the user talks
    with qtbot.waitSignal(prompt.shown, timeout=WAIT_MS):
        murmur.conductor.stop_recording()
    assert prompt.dialog is not None and prompt.dialog.isVisible()
    murmur.voice.wait_for_transcripts(WAIT_MS / 1000)  # the recording's text is worked out before the app goes
