"""Very quiet and whispered speech is heard, not dropped: WebRTC hears none in a voice across the room, where the
level does, and Silero none in a whisper, where its changing shape does (app/speech_in/faint_speech.py).

The real Whisper base model reads such a voice at a dictation's release; a whisper it reads past the detector is
marked as heard faintly (it waits for the user's yes), and noise that swells as speech does still gives no words.
"""

import wave
from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.speech_in.dictation import Dictation
from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.files import transcribe_file
from app.speech_in.final_pass import final_pass_for
from app.speech_in.transcriber import Engine, Transcript
from app.speech_in.vad import webrtc_heard_speech
from app.speech_in.wavfile import read_audio
from tests.speech_in.faint_material import WHISPERED, noises, real_whispers, whispers
from tests.speech_in.quiet_voices import quiet_wav
from tests.support.played_clip import PlayedClip
from tests.support.speech import corpus_word_error_rate, word_error_rate

QUIET = ["Pick up the dry cleaning after lunch", "Call the plumber about the dripping shower"]
MOST_WORDS_WRONG = 0.4


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("quiet")
    return [(text, quiet_wav(text, folder / f"{i}.wav")) for i, text in enumerate(QUIET)]


@pytest.fixture(scope="module")
def whisper(whisper_model: Path) -> Engine:
    return load_engine(EngineChoice("whisper", whisper_model, "en"))


@pytest.fixture
def settings(whisper_model: Path, whisper: Engine, monkeypatch: pytest.MonkeyPatch) -> SpeechSettings:
    """Whisper for files and a dictation's release, with all the time it needs: the words count here, not the speed
    of a machine busy with other tests."""
    monkeypatch.setattr(final_pass_for(whisper), "budget", 120.0)
    return SpeechSettings(
        engine="pocketsphinx", final_engine="whisper", whisper_model=str(whisper_model), vocabulary_hints=False
    )


def dictated(settings: SpeechSettings, path: Path) -> str:
    """The final text of a dictation that hears the clip at `path`."""
    return heard(settings, read_audio(path).pcm).text


def heard(settings: SpeechSettings, pcm: bytes) -> Transcript:
    """The final transcript of a dictation that hears `pcm`."""
    dictation = Dictation(settings, source=PlayedClip(pcm, real_time=False))
    dictation.start()
    return dictation.stop()


def test_webrtc_hears_no_speech_in_these_quiet_voices(quiet: list[tuple[str, Path]]) -> None:
    for _, path in quiet:
        assert not webrtc_heard_speech(read_audio(path).pcm), path


def test_a_quiet_dictation_ends_with_its_words(quiet: list[tuple[str, Path]], settings: SpeechSettings) -> None:
    pairs = [(text, dictated(settings, path)) for text, path in quiet]
    assert all(heard for _, heard in pairs), pairs
    assert corpus_word_error_rate(pairs) <= MOST_WORDS_WRONG, pairs


@pytest.mark.slow
def test_a_whispered_dictation_is_read_past_the_detector_and_marked_faint(settings: SpeechSettings) -> None:
    clips = real_whispers()[:1] + whispers(WHISPERED[3:4], {"soft": -30.0})  # Silero hears no speech in either
    for clip in clips:
        transcript = heard(settings, clip.pcm)
        assert transcript.faint and word_error_rate(clip.text, transcript.text) <= 0.5, (clip.name, transcript)


@pytest.mark.slow
def test_noise_that_swells_as_speech_does_gives_no_words_from_a_file(settings: SpeechSettings, tmp_path: Path) -> None:
    """Breath and noise swelling at a syllable's rate rise well above the room where Silero hears no speech."""
    swelling = [clip for clip in noises() if clip.name.startswith(("sox breath", "tremolo", "syllable"))]
    for number, clip in enumerate(swelling):
        path = tmp_path / f"{number}.wav"
        with wave.open(str(path), "wb") as file:
            file.setnchannels(1)
            file.setsampwidth(2)
            file.setframerate(16000)
            file.writeframes(clip.pcm)
        assert transcribe_file(path, settings).transcript.text == "", clip.name
