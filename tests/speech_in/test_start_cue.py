"""Murmur's start cue, played by the speakers as a recording starts, never reaches the engines: the recording
keeps only what the microphone heard after it, and cuts off the cue's notes that speakers sounded later than they
said. The real cue and speech go into a private PulseAudio whose sink the microphone records."""

import threading
from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.speech_in.cue_heard import cue_moments
from app.speech_in.cue_notes import START
from app.speech_in.dictation import Dictation, Transcript
from app.ui import sound_cues
from tests.support.pulse import PulseAudio, slow_speakers
from tests.support.speech import pad_with_silence, word_error_rate

pytestmark = pytest.mark.pulse

SETTINGS = SpeechSettings(engine="pocketsphinx", device="pulse", final_engine="off")
SLOW_SPEAKERS_MSEC = 250  # Bluetooth speakers, on top of PulseAudio's own latency


def dictated_after_the_cue(pulse_audio: PulseAudio, said: Path, *, told_of_the_cue: bool = True) -> Transcript:
    """A recording with the start cue played once the microphone is heard (so it hears all of the cue), and `said`
    played once the cue's player says it ended."""
    dictation = Dictation(SETTINGS)
    dictation.start(cue=START if told_of_the_cue else None)
    dictation.wait_for_audio()
    played = threading.Event()

    def cue_ended() -> None:
        dictation.cue_ended()
        played.set()

    sound_cues.play(START, then=cue_ended)
    assert played.wait(timeout=10)
    pulse_audio.play(said)
    return dictation.stop()


@pytest.mark.parametrize("told_of_the_cue", [True, False])
def test_the_start_cue_is_not_in_what_the_engines_hear(
    pulse_audio: PulseAudio, flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path: Path, told_of_the_cue: bool
) -> None:
    text, wav = flite_corpus["rms"][1]  # "buy milk and bread"
    said = pad_with_silence(wav, tmp_path / "said.wav", 0.2, 0.5)  # said as soon as one can after the cue
    transcript = dictated_after_the_cue(pulse_audio, said, told_of_the_cue=told_of_the_cue)
    # Without being told, the recording holds the cue: the microphone hears it, and the check can fail.
    assert bool(cue_moments(transcript.audio, START)) is not told_of_the_cue, cue_moments(transcript.audio, START)
    assert word_error_rate(text, transcript.text) <= 0.25, transcript.text


def test_the_start_cue_of_slow_speakers_is_not_in_what_the_engines_hear(
    pulse_audio: PulseAudio, flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path: Path
) -> None:
    """The speakers sound the cue well after its player said it ended: the recording has begun to keep sound by
    then, and cuts the cue off by its notes; the words said once it was heard are read whole."""
    text, wav = flite_corpus["rms"][1]
    # Said as soon as one can after hearing the cue, which comes that much later.
    said = pad_with_silence(wav, tmp_path / "said.wav", 0.2 + SLOW_SPEAKERS_MSEC / 1000, 0.5)
    with slow_speakers(pulse_audio, SLOW_SPEAKERS_MSEC):
        transcript = dictated_after_the_cue(pulse_audio, said)
    assert cue_moments(transcript.audio, START) == []
    assert word_error_rate(text, transcript.text) <= 0.25, transcript.text
