"""Whispered and very quiet speech is heard, not dropped; noise alone still gives no words.

Silero hears no speech in a whisper and WebRTC none in a voice across the room, where Whisper reads both; the
real Whisper base model reads them in a file, at a dictation's release, and over noise alone writes nothing.
"""

import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.speech_in.dictation import Dictation
from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.files import transcribe_file
from app.speech_in.final_pass import final_pass_for
from app.speech_in.quiet_speech import confident_segments, speech_missed
from app.speech_in.transcriber import Engine
from app.speech_in.vad import Span, speech_spans, webrtc_heard_speech
from app.speech_in.wavfile import read_audio
from tests.speech_in.quiet_voices import NOISES, noise_wav, quiet_wav, whispered_wav
from tests.support.played_clip import PlayedClip
from tests.support.speech import corpus_word_error_rate

WHISPERED = [
    "Remind me to renew the car insurance next month",
    "Add oat milk and coffee filters to the shopping list",
    "Move the team meeting to Thursday morning",
    "Order a new phone charger",
]
QUIET = ["Pick up the dry cleaning after lunch", "Call the plumber about the dripping shower"]
# Whisper base misreads some of espeak-ng's whisper ("car insurance X-Move", "a dope milk" for "add oat milk"); the
# detectors left none of it.
MOST_WORDS_WRONG = 0.4


@pytest.fixture(scope="module")
def whispered(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("whispered")
    return [(text, whispered_wav(text, folder / f"{i}.wav")) for i, text in enumerate(WHISPERED)]


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("quiet")
    return [(text, quiet_wav(text, folder / f"{i}.wav")) for i, text in enumerate(QUIET)]


@pytest.fixture(scope="module")
def noises(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("noises")
    return {name: noise_wav(name, folder / f"{i}.wav") for i, name in enumerate(NOISES)}


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


def test_the_detectors_hear_no_speech_in_these_whispers_nor_webrtc_in_these_quiet_voices(
    whispered: list[tuple[str, Path]], quiet: list[tuple[str, Path]]
) -> None:
    for _, path in whispered:
        assert speech_spans(read_audio(path).pcm) == [], path
    for _, path in quiet:
        assert not webrtc_heard_speech(read_audio(path).pcm), path


def test_whispered_and_quiet_files_are_read(
    whispered: list[tuple[str, Path]], quiet: list[tuple[str, Path]], settings: SpeechSettings
) -> None:
    pairs = [(text, transcribe_file(path, settings).transcript.text) for text, path in whispered + quiet]
    assert all(heard for _, heard in pairs), pairs
    assert corpus_word_error_rate(pairs) <= MOST_WORDS_WRONG, pairs


def test_a_whispered_or_quiet_dictation_ends_with_its_words(
    whispered: list[tuple[str, Path]], quiet: list[tuple[str, Path]], settings: SpeechSettings
) -> None:
    pairs = [(text, dictated(settings, path)) for text, path in whispered + quiet]
    assert all(heard for _, heard in pairs), pairs
    assert corpus_word_error_rate(pairs) <= MOST_WORDS_WRONG, pairs


@pytest.mark.parametrize("name", list(NOISES))
def test_noise_alone_as_loud_as_speech_gives_no_words(
    noises: dict[str, Path], whisper: Engine, settings: SpeechSettings, name: str
) -> None:
    path = noises[name]
    assert transcribe_file(path, settings).transcript.text == ""
    assert whisper.decode(read_audio(path).pcm).text == ""
    assert dictated(settings, path) == ""


def test_sound_the_detector_did_not_hear_is_missed_speech_and_steady_noise_is_not(
    whispered: list[tuple[str, Path]], noises: dict[str, Path]
) -> None:
    whisper = read_audio(whispered[0][1])
    assert speech_missed(whisper.pcm, [])
    assert not speech_missed(whisper.pcm, [Span(0.0, whisper.seconds)])  # heard all of it: nothing missed
    assert not speech_missed(read_audio(noises["fan"]).pcm, [])  # loud, but no louder than its own floor


def test_keys_typed_are_not_missed_speech(tmp_path: Path) -> None:
    """Clicks sound for milliseconds, a syllable for a tenth of a second or more: over a run of typing Whisper read
    past the detector wrote "Hey guys! Welcome to my channel!"."""
    keys = tmp_path / "keys.wav"  # 7 seconds of typing, loud: 8 ms clicks about seven a second
    effects = ["synth", "0.008", "whitenoise", "highpass", "1000", "vol", "0.5", "pad", "0", "0.135", "repeat", "49"]
    subprocess.run(["sox", "-V1", "-n", "-r", "16000", "-c", "1", "-b", "16", str(keys), *effects], check=True)
    assert not speech_missed(read_audio(keys).pcm, [])


@dataclass(frozen=True)
class Read:
    """A segment as faster-whisper gives it, with what the rule reads."""

    text: str
    no_speech_prob: float
    avg_logprob: float
    compression_ratio: float = 1.0


def test_whisper_keeps_only_what_it_is_sure_of_when_it_reads_past_the_detector() -> None:
    sure = Read(" Remind me to renew the car insurance.", 0.55, -0.5)
    kept = confident_segments(
        [
            sure,
            Read(" Okay.", 0.78, -2.19),  # openai-whisper's silence: no speech, and unsure of its words
            Read(" This is the end of this video.", 0.57, -1.31),  # a read Whisper judges failed
            Read(" I'm going to kill you, I'm going to kill you, I'm going to kill you.", 0.62, -0.62, 3.91),  # a loop
            Read(" Thank you.", 0.3, -0.2),  # what Whisper writes over noise
            Read(" you", 0.3, -0.2),
        ]
    )
    assert kept == [sure]
