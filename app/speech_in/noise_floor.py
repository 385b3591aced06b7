"""What rises well above a recording's noise floor: sound a voice activity detector may not call speech.

A room has its own level (hum, hiss, a fan), steady within a few dB; a voice, even a whisper, rises well above it and
falls back between words. Levels are per 30 ms frame, as the detectors judge them.
"""

import numpy as np
import numpy.typing as npt

from app.speech_in.audio import BYTES_PER_SAMPLE
from app.speech_in.segments import FRAME_BYTES

FRAME_SAMPLES = FRAME_BYTES // BYTES_PER_SAMPLE
# The floor: the level the quietest tenth of the frames stays under (a dictation starts and ends in the room's own
# sound; a whisper's pauses fall back to it).
FLOOR_PERCENTILE = 10
# Sound this far above the floor is something (the whispers of the frozen real voices rise 30-40 dB above theirs);
# steady noise stays within a few dB of its own floor, so it never is.
ABOVE_FLOOR_DB = 10.0
# Quieter than this is nothing, whatever the floor (digital silence reads -120 dBFS, a microphone's dither just above).
QUIETEST_DBFS = -70.0

Levels = npt.NDArray[np.float64]
Marks = npt.NDArray[np.bool_]


def frame_levels(pcm: bytes) -> Levels:
    """The level of each whole 30 ms frame of 16 kHz mono int16 `pcm`, in dBFS."""
    whole = len(pcm) // FRAME_BYTES * FRAME_SAMPLES
    samples = np.frombuffer(pcm, dtype="<i2", count=whole).astype(np.float64) / 32768.0
    power = np.mean(np.square(samples.reshape(-1, FRAME_SAMPLES)), axis=1)
    return np.asarray(10.0 * np.log10(np.maximum(power, 1e-12)))


def above_floor(levels: Levels, heard: Levels) -> Marks:
    """For each of `levels`: is it well above the floor of all the `heard` levels (and not near-silence)?"""
    if heard.size == 0:
        return np.zeros(levels.shape, dtype=bool)
    floor = float(np.percentile(heard, FLOOR_PERCENTILE))
    return np.asarray((levels >= floor + ABOVE_FLOOR_DB) & (levels >= QUIETEST_DBFS))


def sounding_frames(pcm: bytes) -> Marks:
    """For each 30 ms frame: is it well above the recording's noise floor?"""
    levels = frame_levels(pcm)
    return above_floor(levels, levels)


class NoiseFloor:
    """A recording's noise floor as its audio comes, to tell which new frames rise well above it."""

    def __init__(self) -> None:
        self._levels: Levels = np.zeros(0)

    def sounding(self, pcm: bytes) -> list[bool]:
        """For each whole 30 ms frame of `pcm` (the recording's next audio): is it well above the floor so far?"""
        levels = frame_levels(pcm)
        self._levels = np.concatenate([self._levels, levels])
        return [bool(above) for above in above_floor(levels, self._levels)]
