"""Finds Murmur's start cue in recorded sound: moments whose sound is nearly all at one of its notes (speech
spreads over many frequencies, silence has no sound to speak of)."""

import numpy as np

from app.speech_in.audio import SAMPLE_RATE
from app.ui.sound_cues import START

FRAME = 480  # 30 ms: a note of the cue lasts longer
LOUD = 300  # RMS of int16 samples (about -40 dBFS): the cue at its softest, as the microphone hears it


def cue_moments(pcm: bytes, notes: tuple[float, ...] = START) -> list[float]:
    """When (seconds into `pcm`, 16 kHz mono int16) a 30 ms frame holds one of `notes` and hardly anything else."""
    samples = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
    frequencies = np.fft.rfftfreq(FRAME, 1 / SAMPLE_RATE)
    near = np.zeros(frequencies.shape, dtype=bool)
    for note in notes:
        near |= np.abs(frequencies - note) <= 50
    moments = []
    for start in range(0, len(samples) - FRAME + 1, FRAME // 2):
        frame = samples[start : start + FRAME]
        if np.sqrt(np.mean(frame**2)) < LOUD:
            continue
        power = np.abs(np.fft.rfft(frame * np.hanning(FRAME))) ** 2
        if power[near].sum() > 0.8 * power.sum():
            moments.append(start / SAMPLE_RATE)
    return moments
