"""Where a hands-free answer starts and ends, on real audio: flite's speech, quiet noise, a click, silence."""

import wave

import numpy as np
import pytest

from app.speech_in.endpoint import Heard, SpeechEndpoint
from tests.support.speech import flite_wav, sox_convert

BLOCK = 3_200  # 100 ms, as the microphone delivers it
RATE = 16_000


def seconds(pcm: bytes) -> float:
    return len(pcm) / 2 / RATE


def silence(duration: float) -> bytes:
    return b"\0" * (round(duration * RATE) * 2)


def run(endpoint: SpeechEndpoint, pcm: bytes) -> list[tuple[float, Heard]]:
    """Each change of state with the moment (seconds into `pcm`) it was reported."""
    changes = [(0.0, endpoint.state)]
    for start in range(0, len(pcm), BLOCK):
        heard = endpoint.feed(pcm[start : start + BLOCK])
        if heard is not changes[-1][1]:
            changes.append((round(seconds(pcm[: start + BLOCK]), 1), heard))
    return changes


@pytest.fixture(scope="module")
def answer(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    folder = tmp_path_factory.mktemp("endpoint")
    wav = sox_convert(flite_wav("the oat one please", folder / "a.wav"), folder / "a16.wav", "-r", "16000")
    with wave.open(str(wav)) as audio:
        return audio.readframes(audio.getnframes())


def test_the_answer_ends_at_the_pause_after_it(answer: bytes) -> None:
    changes = run(SpeechEndpoint(6.0), silence(1.0) + answer + silence(2.0))
    [(_, waiting), (began, speaking), (ended, done)] = changes
    assert (waiting, speaking, done) == (Heard.WAITING, Heard.SPEAKING, Heard.ENDED)
    assert 1.0 <= began <= 1.5  # speech began at 1.0 s
    end_of_speech = 1.0 + seconds(answer)
    assert end_of_speech + 0.5 <= ended <= end_of_speech + 1.2  # the 0.8 s pause, give or take the VAD


def test_silence_and_quiet_noise_close_the_window() -> None:
    noise = (np.random.default_rng(7).normal(0, 60, RATE * 3)).astype(np.int16).tobytes()  # a quiet room
    for audio in (silence(3.0), noise):
        [(_, waiting), (closed, silent)] = run(SpeechEndpoint(2.0), audio)
        assert (waiting, silent) == (Heard.WAITING, Heard.SILENT) and 2.0 <= closed <= 2.1  # when the window ends


def test_a_click_does_not_open_the_answer() -> None:
    click = (np.sin(np.arange(RATE // 10) * 0.3) * 12_000).astype(np.int16).tobytes()  # 100 ms, loud
    changes = run(SpeechEndpoint(2.0), silence(0.5) + click + silence(2.0))
    assert [heard for _, heard in changes] == [Heard.WAITING, Heard.SILENT]
