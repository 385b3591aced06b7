"""Very quiet speech is heard, not dropped: WebRTC hears none in a voice across the room, where the level does.

The real Whisper base model reads such a voice at a dictation's release.
"""

from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.speech_in.dictation import Dictation
from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.final_pass import final_pass_for
from app.speech_in.transcriber import Engine
from app.speech_in.vad import webrtc_heard_speech
from app.speech_in.wavfile import read_audio
from tests.speech_in.quiet_voices import quiet_wav
from tests.support.played_clip import PlayedClip
from tests.support.speech import corpus_word_error_rate

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
    dictation = Dictation(settings, source=PlayedClip(read_audio(path).pcm, real_time=False))
    dictation.start()
    return dictation.stop().text


def test_webrtc_hears_no_speech_in_these_quiet_voices(quiet: list[tuple[str, Path]]) -> None:
    for _, path in quiet:
        assert not webrtc_heard_speech(read_audio(path).pcm), path


def test_a_quiet_dictation_ends_with_its_words(quiet: list[tuple[str, Path]], settings: SpeechSettings) -> None:
    pairs = [(text, dictated(settings, path)) for text, path in quiet]
    assert all(heard for _, heard in pairs), pairs
    assert corpus_word_error_rate(pairs) <= MOST_WORDS_WRONG, pairs
