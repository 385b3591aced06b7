"""Files read in full-utterance passes: flite and Piper speech decoded by the real pocketsphinx and Whisper."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from app.config import SpeechSettings
from app.errors import ModelError, UsageError
from app.speech_in.engines import EngineChoice, choose_engine, choose_final_engine
from app.speech_in.files import transcribe_file
from app.speech_in.segments import FRAME_BYTES, speech_frames, split_at_pauses
from app.speech_in.transcriber import Engine
from app.speech_in.wavfile import read_audio
from tests.support.in_process import run_in_process
from tests.support.speech import DICTATION, corpus_word_error_rate, flite_wav, piper_wav, word_error_rate

BUNDLED = SpeechSettings(engine="pocketsphinx", final_engine="off")


@pytest.fixture(scope="module")
def sentences(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    """Four sentences of the dictation corpus spoken by flite's slt voice."""
    folder = tmp_path_factory.mktemp("sentences")
    return [(text, flite_wav(text, folder / f"slt-{i}.wav", "slt")) for i, text in enumerate(DICTATION[:4])]


@pytest.fixture(scope="module")
def long_recording(sentences: list[tuple[str, Path]], tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """Over 25 s (so it is cut): the four sentences twice over, each followed by a second of silence."""
    folder = tmp_path_factory.mktemp("long")
    padded = []
    for i, (_, wav) in enumerate(sentences):
        padded.append(str(folder / f"{i}.wav"))
        subprocess.run(["sox", str(wav), padded[-1], "pad", "0", "1"], check=True, timeout=60)
    target = folder / "long.wav"
    subprocess.run(["sox", *padded, *padded, str(target)], check=True, timeout=60)
    return " ".join(text for text, _ in sentences * 2), target


def streamed(engine: Engine, pcm: bytes) -> str:
    """The file fed in 100 ms blocks to a streaming decoder, as a live utterance is."""
    transcriber = engine.start()  # type: ignore[attr-defined]
    for i in range(0, len(pcm), 3200):
        transcriber.feed(pcm[i : i + 3200])
    return str(transcriber.finish().text)


def test_transcribe_reads_a_file_in_one_full_utterance_pass(
    sentences: list[tuple[str, Path]], sphinx: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    pairs = []
    for text, wav in sentences:
        assert main(["transcribe", str(wav), "--engine", "pocketsphinx", "--final-engine", "off", "--json"]) == 0
        pairs.append((text, json.loads(capsys.readouterr().out)["text"]))
        assert pairs[-1][1] == sphinx.decode(read_audio(wav).pcm).text
    assert corpus_word_error_rate(pairs) <= 0.15, pairs


def test_short_audio_is_one_piece(sentences: list[tuple[str, Path]]) -> None:
    pcm = read_audio(sentences[0][1]).pcm
    assert [(p.pcm, p.start) for p in split_at_pauses(pcm)] == [(pcm, 0.0)]


def test_a_long_recording_is_cut_in_pauses_and_nothing_is_lost(long_recording: tuple[str, Path]) -> None:
    pcm = read_audio(long_recording[1]).pcm
    pieces = split_at_pauses(pcm)
    assert len(pieces) >= 2
    assert b"".join(p.pcm for p in pieces) == pcm
    assert all(len(p.pcm) / 32_000 <= 25.0 for p in pieces)
    frames = speech_frames(pcm)
    for piece in pieces[1:]:
        cut = round(piece.start * 32_000) // FRAME_BYTES
        assert not frames[cut], f"cut inside speech at {piece.start:.2f} s"


@pytest.mark.slow
def test_a_long_recording_is_transcribed_whole_with_word_times_in_order(long_recording: tuple[str, Path]) -> None:
    text, wav = long_recording
    transcript = transcribe_file(wav, BUNDLED).transcript
    assert word_error_rate(text, transcript.text) <= 0.2, transcript.text
    starts = [w.start for w in transcript.words]
    assert starts == sorted(starts) and 0 <= starts[0] and transcript.words[-1].end <= transcript.audio_seconds + 0.1
    assert transcript.audio_seconds > 25


def test_the_final_engine_choice(tmp_path: Path, whisper_model: Path) -> None:
    empty = SpeechSettings(models_dir=str(tmp_path / "none"))
    live = choose_engine(empty)
    assert choose_final_engine(empty, live) == live  # auto, no Whisper model: the live engine's own pass
    assert choose_final_engine(empty, live, final_engine="off") is None
    with pytest.raises(ModelError, match="no Whisper model"):
        choose_final_engine(empty, live, final_engine="whisper")
    with pytest.raises(UsageError, match="unknown final engine 'loud'"):
        choose_final_engine(empty, live, final_engine="loud")
    chosen = SpeechSettings(whisper_model=str(whisper_model))
    assert choose_final_engine(chosen, live) == EngineChoice("whisper", whisper_model, "en")


@pytest.mark.slow  # Whisper reads three sentences
def test_whisper_reads_piper_speech_with_word_times(whisper_model: Path, tmp_path: Path) -> None:
    settings = SpeechSettings(engine="pocketsphinx", final_engine="whisper", whisper_model=str(whisper_model))
    pairs = []
    for i, text in enumerate(DICTATION[4:7]):
        done = transcribe_file(piper_wav(text, tmp_path / f"joe-{i}.wav"), settings)
        assert done.transcript.engine == "Whisper (whisper-base)" and done.hint is None
        assert done.transcript.words and all(w.start < w.end for w in done.transcript.words)
        pairs.append((text, done.transcript.text))
    # Piper draws fresh noise into each synthesis (the same words come out another length each time), so a run
    # reads 0 to 16% of these words wrong; a quarter wrong would be a broken Whisper pass.
    assert corpus_word_error_rate(pairs) <= 0.25, pairs


def test_transcribe_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    done = run_in_process(
        ["transcribe", str(tmp_path / "nope.wav"), "--engine", "pocketsphinx"], dict(os.environ), None
    )
    assert done.returncode == 6
    assert done.stderr.strip().splitlines() == [f"murmur: error: no such file: {tmp_path / 'nope.wav'}"]


@pytest.mark.slow
def test_a_file_decodes_the_same_whatever_the_engine_heard_before(
    sentences: list[tuple[str, Path]], sphinx: Engine, flite_corpus: dict[str, list[tuple[str, Path]]]
) -> None:
    pcm = read_audio(sentences[0][1]).pcm
    first = sphinx.decode(pcm).text
    for _, wav in flite_corpus["awb"][:3]:
        streamed(sphinx, read_audio(wav).pcm)  # a live utterance of another voice in between
        assert sphinx.decode(pcm).text == first
