"""Whisper's encoder reads a window fitted to the audio: fewer frames, the same words, one window per thread."""

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.speech_in.audio import pcm16_as_float
from app.speech_in.wavfile import read_audio
from app.speech_in.whisper_engine import WhisperEngine, fitted_window, full_window
from tests.support.speech import word_error_rate

pytest.importorskip("faster_whisper", reason="the faster-whisper extra is not installed")

from app.speech_in.whisper_window import WindowedWhisperModel  # noqa: E402

# Left out of `make test-fast`: Whisper's encoder run on each window, two threads at once.
pytestmark = pytest.mark.slow


class EncoderWatch(WindowedWhisperModel):  # type: ignore[misc]
    """The real model, noting how many positions each encoding had (the encoder halves the frames)."""

    def encode(self, features: np.ndarray) -> Any:
        output = super().encode(features)
        self.positions.append(int(output.shape[1]))
        return output


@pytest.fixture(scope="module")
def sentence(flite_corpus: dict[str, list[tuple[str, Path]]]) -> tuple[str, bytes]:
    text, wav = flite_corpus["slt"][0]  # "remind me to call the doctor tomorrow", about 2 s
    return text, read_audio(wav).pcm


@pytest.mark.parametrize(("window", "positions"), [(fitted_window, 500), (full_window, 1500)])
def test_the_encoder_reads_the_window_and_hears_the_words(
    whisper_model: Path, sentence: tuple[str, bytes], window: Any, positions: int
) -> None:
    text, pcm = sentence
    model = EncoderWatch(str(whisper_model), device="cpu", compute_type="int8", window=window)
    model.positions = []
    segments, _ = model.transcribe(pcm16_as_float(pcm), language="en", beam_size=1)
    heard = " ".join(segment.text for segment in segments)
    assert model.positions == [positions]  # 2.x s: ceil 3 s + 2 s, at least 10 s = 1000 frames
    assert word_error_rate(text, heard) <= 0.15, heard


def test_two_threads_decode_at_once_each_with_its_own_window(
    whisper_model: Path, flite_corpus: dict[str, list[tuple[str, Path]]]
) -> None:
    engine = WhisperEngine(whisper_model, "en")
    short = read_audio(flite_corpus["rms"][1][1]).pcm  # "buy milk and bread"
    long = b"".join(read_audio(wav).pcm for _, wav in flite_corpus["rms"][:4])  # four sentences, ~9 s
    alone = {name: engine.decode(pcm).text for name, pcm in (("short", short), ("long", long))}
    together: dict[str, str] = {}

    def decode(name: str, pcm: bytes) -> None:
        for _ in range(3):
            together[name] = engine.decode(pcm).text

    threads = [threading.Thread(target=decode, args=item) for item in (("short", short), ("long", long))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone
