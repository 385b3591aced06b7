"""No words from noise: the voice activity detector, the engines and files over silence, breath, coughs and keys."""

from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.speech_in.engines import EngineChoice, load_engine
from app.speech_in.files import transcribe_file
from app.speech_in.transcriber import Engine, EngineResult, Word
from app.speech_in.vad import find_speech, heard_speech, speech_spans, webrtc_heard_speech
from app.speech_in.wavfile import read_audio
from tests.speech_in.noises import RECIPES, around, noise_wav
from tests.support.speech import word_error_rate

NOISES = list(RECIPES)


@pytest.fixture(scope="session")
def noises(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("noises")
    return {name: noise_wav(name, folder / f"{name.replace(' ', '-')}.wav") for name in NOISES}


@pytest.fixture(scope="session")
def whisper(whisper_model: Path) -> Engine:
    return load_engine(EngineChoice("whisper", whisper_model, "en"))


@pytest.mark.parametrize("name", NOISES)
def test_the_detector_hears_no_speech_in_noise(noises: dict[str, Path], name: str) -> None:
    pcm = read_audio(noises[name]).pcm
    assert speech_spans(pcm) == [] and not heard_speech(pcm)


def test_the_detector_hears_every_voice_and_where_it_speaks(
    flite_corpus: dict[str, list[tuple[str, Path]]], noises: dict[str, Path], tmp_path: Path
) -> None:
    for voice, said in flite_corpus.items():
        assert heard_speech(read_audio(said[0][1]).pcm), voice
    noisy = around(flite_corpus["slt"][1][1], noises["cough"], noises["keyboard"], tmp_path / "noisy.wav")
    spans = speech_spans(read_audio(noisy).pcm)
    assert len(spans) == 1 and 4.8 < spans[0].start < 5.3 and spans[0].end < 8.0  # the sentence, after 5 s of cough


def test_without_silero_webrtc_still_hears_no_speech_in_silence_or_soft_noise(
    flite_corpus: dict[str, list[tuple[str, Path]]], noises: dict[str, Path]
) -> None:
    for name in ("digital silence", "silence", "pink noise"):
        assert not webrtc_heard_speech(read_audio(noises[name]).pcm), name
    assert webrtc_heard_speech(read_audio(flite_corpus["rms"][0][1]).pcm)


@pytest.mark.parametrize("name", NOISES)
def test_a_file_of_noise_has_no_words_with_either_engine(
    noises: dict[str, Path], whisper_model: Path, name: str
) -> None:
    for final_engine in ("off", "whisper"):
        settings = SpeechSettings(engine="pocketsphinx", final_engine=final_engine, whisper_model=str(whisper_model))
        transcript = transcribe_file(noises[name], settings).transcript
        assert transcript.text == "" and transcript.words == [], (final_engine, transcript.text)


@pytest.mark.parametrize("name", NOISES)
def test_whisper_writes_nothing_over_noise(noises: dict[str, Path], whisper: Engine, name: str) -> None:
    assert whisper.decode(read_audio(noises[name]).pcm).text == ""


def test_speech_between_noises_still_comes_through(
    flite_corpus: dict[str, list[tuple[str, Path]]], noises: dict[str, Path], whisper: Engine, tmp_path: Path
) -> None:
    text, wav = flite_corpus["rms"][0]  # "remind me to call the doctor tomorrow"
    for before, after in (("cough", "keyboard"), ("breath", "pink noise"), ("keyboard", "cough")):
        noisy = around(wav, noises[before], noises[after], tmp_path / f"{before}-{after}.wav")
        heard = whisper.decode(read_audio(noisy).pcm).text
        assert word_error_rate(text, heard) <= 0.15, (before, after, heard)


def test_only_the_words_timed_where_speech_was_heard_are_kept(
    flite_corpus: dict[str, list[tuple[str, Path]]], noises: dict[str, Path], tmp_path: Path
) -> None:
    noisy = around(flite_corpus["rms"][1][1], noises["keyboard"], noises["cough"], tmp_path / "noisy.wav")
    speech = find_speech(read_audio(noisy).pcm)  # five seconds of keys, "buy milk and bread", five of coughs
    timed = [("if", 1.0, 1.2), ("it", 4.2, 4.4), ("buy", 5.1, 5.4), ("milk", 5.4, 5.8), ("bread", 6.0, 6.5)]
    timed += [("that", 7.5, 7.7)]
    live = EngineResult(" ".join(t for t, _, _ in timed), [Word(t, start, end, None) for t, start, end in timed])
    kept = speech.words_within(live)
    assert kept.text == "buy milk bread" and [w.text for w in kept.words] == ["buy", "milk", "bread"]
    assert speech.words_within(kept) is kept  # nothing to drop: the same result
