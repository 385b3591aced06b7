"""Murmur's start cue, played by the speakers as a recording starts, never reaches the engines: the recording
keeps only what the microphone heard after it. The real cue and speech go into a private PulseAudio whose sink
the microphone records."""

import threading
from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.speech_in.dictation import Dictation
from app.ui import sound_cues
from tests.support.cue_tone import cue_moments
from tests.support.pulse import PulseAudio
from tests.support.speech import pad_with_silence, word_error_rate

pytestmark = pytest.mark.pulse

SETTINGS = SpeechSettings(engine="pocketsphinx", device="pulse", final_engine="off")


@pytest.mark.parametrize("told_of_the_cue", [True, False])
def test_the_start_cue_is_not_in_what_the_engines_hear(
    pulse_audio: PulseAudio, flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path: Path, told_of_the_cue: bool
) -> None:
    text, wav = flite_corpus["rms"][1]  # "buy milk and bread"
    said = pad_with_silence(wav, tmp_path / "said.wav", 0.2, 0.5)  # said as soon as one can after the cue
    dictation = Dictation(SETTINGS)
    dictation.start(cue=told_of_the_cue)
    dictation.wait_for_audio()  # the microphone hears the whole cue: played before it sends sound, none of it
    played = threading.Event()

    def cue_ended() -> None:
        dictation.cue_ended()
        played.set()

    sound_cues.play(sound_cues.START, then=cue_ended)
    assert played.wait(timeout=10)
    pulse_audio.play(said)
    transcript = dictation.stop()
    # Without being told, the recording holds the cue: the microphone hears it, and the check can fail.
    assert bool(cue_moments(transcript.audio)) is not told_of_the_cue, cue_moments(transcript.audio)
    assert word_error_rate(text, transcript.text) <= 0.25, transcript.text
