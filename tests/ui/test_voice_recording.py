"""A recording's sound goes with its words from the microphone to the store: the app keeps it with the utterance.
The microphone is a fake that hands on real speech (flite), as the real one's would."""

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.ui.application import Murmur
from tests.support.fake_dictation import FakeMicrophone
from tests.support.speech import captured_speech

WAIT_MS = 15_000


def test_what_the_microphone_heard_is_kept_with_the_utterance(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone, tmp_path: Path
) -> None:
    murmur = murmur_with_microphone
    microphone.audio = captured_speech("buy oat milk", tmp_path)
    murmur.conductor.start_recording()
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.conductor.stop_recording()
    [entry] = murmur.service.entries(list(Status))
    assert entry.utterance_id is not None
    assert murmur.service.recording_sound(entry.utterance_id) == microphone.audio
