"""The vocabulary's replacements in the app: what the microphone heard is put in the user's words, what they
typed in the window is kept as typed."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.ui.application import Murmur
from app.vocabulary.words import replacement
from tests.support.fake_dictation import FakeMicrophone

WAIT_MS = 15_000


def test_a_dictation_gets_the_replacements_and_typed_text_does_not(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur = murmur_with_microphone
    murmur.service.keep_words([replacement("so worse", "Saoirse")])
    microphone.text = "buy a present for so worse"  # what the bundled engine writes for the name
    with qtbot.waitSignal(murmur.voice.started):
        murmur.conductor.start_recording()
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.conductor.stop_recording()
    qtbot.keyClicks(murmur.window.input, "write so worse than before")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(murmur.window.input, Qt.Key.Key_Return)
    summaries = sorted(entry.summary for entry in murmur.service.entries(list(Status)))
    assert summaries == ["Buy a present for Saoirse", "Write so worse than before"]
