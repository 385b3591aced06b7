"""PCM helpers shared by capture and file reading: the one format the engines take, levels, resampling.

Every engine is fed 16 kHz mono signed 16-bit little-endian PCM (`SAMPLE_RATE`, `as_pcm16`).
"""

import math

import numpy as np
import numpy.typing as npt

SAMPLE_RATE = 16_000
BYTES_PER_SAMPLE = 2
SILENCE_DBFS = -120.0  # what a block of digital silence reads as (log of zero is -inf)


def seconds_of(pcm: bytes | bytearray) -> float:
    return len(pcm) / (SAMPLE_RATE * BYTES_PER_SAMPLE)


def rms_dbfs(pcm: bytes) -> float:
    """The RMS level of int16 PCM in dBFS: 0 is a full-scale square wave, a full-scale sine is about -3."""
    samples = np.frombuffer(pcm, dtype=np.int16)
    if samples.size == 0:
        return SILENCE_DBFS
    rms = float(np.sqrt(np.mean(np.square(samples.astype(np.float64))))) / 32768.0
    return max(SILENCE_DBFS, 20.0 * math.log10(rms)) if rms > 0 else SILENCE_DBFS


def to_mono(frames: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """(samples, channels) -> (samples,), averaging the channels."""
    return frames if frames.ndim == 1 else np.asarray(frames.mean(axis=1), dtype=np.float32)


def as_pcm16(samples: npt.NDArray[np.float32]) -> bytes:
    """Float samples in [-1, 1] as int16 PCM bytes (clipped, not wrapped)."""
    return (np.clip(samples, -1.0, 1.0 - 1.0 / 32768.0) * 32768.0).astype("<i2").tobytes()


def pcm16_as_float(pcm: bytes) -> npt.NDArray[np.float32]:
    return np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0


class StreamResampler:
    """Resamples a stream of int16 mono blocks to 16 kHz with soxr, keeping filter state between blocks."""

    def __init__(self, input_rate: int) -> None:
        import soxr

        self.input_rate = input_rate
        self._stream = None if input_rate == SAMPLE_RATE else soxr.ResampleStream(input_rate, SAMPLE_RATE, 1, "int16")

    def convert(self, pcm: bytes, *, last: bool = False) -> bytes:
        if self._stream is None:
            return pcm
        samples = np.frombuffer(pcm, dtype=np.int16)
        return bytes(self._stream.resample_chunk(samples, last=last).tobytes())
