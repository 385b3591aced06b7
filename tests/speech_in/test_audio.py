import math

import numpy as np
import pytest

from app.speech_in.audio import SILENCE_DBFS, StreamResampler, as_pcm16, pcm16_as_float, rms_dbfs, seconds_of
from app.speech_in.language import base_language, date_languages, same_language


def tone(amplitude: float, seconds: float = 0.5, rate: int = 16_000, hz: float = 440.0) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return (amplitude * np.sin(2 * math.pi * hz * t)).astype(np.float32)


def test_levels_in_dbfs() -> None:
    assert rms_dbfs(as_pcm16(tone(1.0))) == pytest.approx(-3.01, abs=0.05)
    assert rms_dbfs(as_pcm16(tone(0.5))) == pytest.approx(-9.03, abs=0.05)
    square = np.full(1600, 32767, dtype=np.int16).tobytes()
    assert rms_dbfs(square) == pytest.approx(0.0, abs=0.01)
    assert rms_dbfs(bytes(3200)) == SILENCE_DBFS
    assert rms_dbfs(b"") == SILENCE_DBFS


def test_pcm_round_trip_clips_instead_of_wrapping() -> None:
    loud = np.array([2.0, -2.0, 0.5], dtype=np.float32)
    back = pcm16_as_float(as_pcm16(loud))
    assert back[0] > 0.99 and back[1] == -1.0 and back[2] == pytest.approx(0.5, abs=1e-4)
    assert seconds_of(bytes(32_000)) == 1.0


@pytest.mark.parametrize("rate", [8_000, 22_050, 44_100, 48_000])
def test_stream_resampler_keeps_duration_and_pitch(rate: int) -> None:
    signal = as_pcm16(tone(0.5, seconds=1.0, rate=rate, hz=440.0))
    resampler = StreamResampler(rate)
    block = rate // 10 * 2
    out = b"".join(resampler.convert(signal[i : i + block]) for i in range(0, len(signal), block))
    out += resampler.convert(b"", last=True)
    assert seconds_of(out) == pytest.approx(1.0, abs=0.01)
    samples = pcm16_as_float(out)
    spectrum = np.abs(np.fft.rfft(samples))
    assert np.argmax(spectrum) * 16_000 / len(samples) == pytest.approx(440.0, abs=2.0)


def test_languages() -> None:
    assert base_language("en-US") == "en" and base_language("cn") == "zh" and base_language("ua") == "uk"
    assert same_language("en-us", "en") and not same_language("de", "en") and not same_language("", "en")
    assert date_languages("en-us") == ["en"]
    assert date_languages("de") == ["de", "en"]
    assert date_languages("cn") == ["zh", "en"]
