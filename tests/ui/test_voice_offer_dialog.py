"""The natural voice in the desktop app's offer of speech models: its row (a box ticked by default, with its size),
the Install button's size following the box, and installing through the whole app from the local model server: the
voice becomes the one replies are spoken in, or, unticked, is not fetched and espeak-ng goes on speaking."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.config import Settings, SpeechSettings, load_settings
from app.speech_out.choice import choose_synthesizer
from app.speech_out.synthesis import PiperSynthesizer
from app.speech_out.voice_offer import ENGLISH_VOICE, first_run_offer
from app.ui.application import Murmur
from app.ui.model_offer_dialog import ModelOfferDialog
from tests.support.fake_models import publish_english_voice, publish_whisper
from tests.support.model_server import ModelServer
from tests.ui.test_model_offer_dialog import WAIT_MS, shown


def test_the_voice_is_a_row_of_its_own_ticked_with_its_size(qtbot: QtBot) -> None:
    offer = first_run_offer(Settings())
    assert offer is not None
    dialog = ModelOfferDialog(offer, SpeechSettings())
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.voice_box.isVisible() and dialog.voice_box.isChecked()
    assert dialog.voice_box.text() == f"A natural voice for replies, 63 MB ({ENGLISH_VOICE})"
    assert dialog.install_button.text() == "Install (211 MB)"
    qtbot.mouseClick(dialog.voice_box, Qt.MouseButton.LeftButton)
    assert not dialog.voice_box.isChecked() and dialog.install_button.text() == "Install (148 MB)"
    qtbot.mouseClick(dialog.voice_box, Qt.MouseButton.LeftButton)
    assert dialog.install_button.text() == "Install (211 MB)" and dialog.offer == offer
    without = ModelOfferDialog(offer.without_voice(), SpeechSettings())
    qtbot.addWidget(without)
    without.show()
    assert without.voice_box.isHidden() and without.install_button.text() == "Install (148 MB)"


def install(qtbot: QtBot, dialog: ModelOfferDialog) -> None:
    with qtbot.waitSignal(dialog.installed, timeout=WAIT_MS):
        qtbot.mouseClick(dialog.install_button, Qt.MouseButton.LeftButton)
        assert not dialog.voice_box.isEnabled()  # the choice is made once the download starts


def test_installing_sets_the_voice_replies_are_spoken_in(qtbot: QtBot, murmur: Murmur, server: ModelServer) -> None:
    publish_whisper(server)
    publish_english_voice(server)
    _, dialog = shown(qtbot, murmur)
    assert dialog.voice_box.isChecked()
    install(qtbot, dialog)
    speech = murmur.settings.speech
    assert speech.voice == ENGLISH_VOICE and load_settings() == murmur.settings
    synthesizer = choose_synthesizer(speech)  # what the next reply is spoken by
    assert isinstance(synthesizer, PiperSynthesizer) and synthesizer.name == f"Piper ({ENGLISH_VOICE})"


def test_unticked_the_voice_is_not_fetched(qtbot: QtBot, murmur: Murmur, server: ModelServer) -> None:
    publish_whisper(server)
    publish_english_voice(server)
    _, dialog = shown(qtbot, murmur)
    qtbot.mouseClick(dialog.voice_box, Qt.MouseButton.LeftButton)
    install(qtbot, dialog)
    assert murmur.settings.speech.voice == "" and load_settings().speech.whisper_model
    assert not any("piper-voices" in request["path"] for request in server.requests)
    assert choose_synthesizer(murmur.settings.speech).name.startswith("espeak-ng")
