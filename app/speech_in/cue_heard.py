"""Murmur's own sound cue in what the microphone heard: found by its notes, and cut off a recording's start."""

import numpy as np

from app.speech_in.audio import BYTES_PER_SAMPLE, SAMPLE_RATE
from app.speech_in.cue_notes import NOTE_SECONDS, Notes

FRAME = 480  # 30 ms: a note of the cue lasts longer
HOP = FRAME // 2
LOUD = 300  # RMS of int16 samples (about -40 dBFS): the cue at its softest, as the microphone hears it
NEAR_HZ = 50
# Speakers sound the cue later than its player says it ended (PulseAudio under load 0.15-0.25 s, Bluetooth
# 0.1-0.3 s more): it may be heard this far into what the recording keeps, no later.
CUE_HEARD_WITHIN_SECONDS = 0.6
HELD_BYTES = (round(CUE_HEARD_WITHIN_SECONDS * SAMPLE_RATE) + FRAME) * BYTES_PER_SAMPLE


def cue_moments(pcm: bytes, notes: Notes) -> list[float]:
    """When (seconds into `pcm`, 16 kHz mono int16) a 30 ms frame holds one of `notes` and hardly anything else
    (speech spreads over many frequencies, silence has no sound to speak of)."""
    samples = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
    frequencies = np.fft.rfftfreq(FRAME, 1 / SAMPLE_RATE)
    near = np.zeros(frequencies.shape, dtype=bool)
    for note in notes:
        near |= np.abs(frequencies - note) <= NEAR_HZ
    moments = []
    for start in range(0, len(samples) - FRAME + 1, HOP):
        frame = samples[start : start + FRAME]
        if np.sqrt(np.mean(frame**2)) < LOUD:
            continue
        power = np.abs(np.fft.rfft(frame * np.hanning(FRAME))) ** 2
        if power[near].sum() > 0.8 * power.sum():
            moments.append(start / SAMPLE_RATE)
    return moments


def cue_end(pcm: bytes, notes: Notes) -> int:
    """Where the cue heard at the start of `pcm` ends (bytes in; 0 if it holds none): the end of its last frame,
    counting the frames from the first one within CUE_HEARD_WITHIN_SECONDS for as long as the cue lasts (a note-like
    sound later on is the user's: a hummed or sung vowel)."""
    moments = [at for at in cue_moments(pcm, notes) if at < CUE_HEARD_WITHIN_SECONDS]
    if not moments:
        return 0
    last = max(at for at in moments if at <= moments[0] + NOTE_SECONDS * len(notes))
    return (round(last * SAMPLE_RATE) + FRAME) * BYTES_PER_SAMPLE


class CueCutter:
    """The start of a recording begun with a cue, held back until it is long enough to tell where the cue heard in
    it ends; then what follows the cue, and everything after as it comes."""

    def __init__(self, notes: Notes) -> None:
        self._notes = notes
        self._held: bytearray | None = bytearray()  # None once the cue is cut off

    def feed(self, pcm: bytes, *, last: bool = False) -> bytes:
        """What of `pcm` (16 kHz mono int16, as heard) can be handed on now; `last`: the recording ended, so all of
        what is held, without the cue."""
        if self._held is None:
            return pcm
        self._held.extend(pcm)
        if len(self._held) < HELD_BYTES and not last:
            return b""
        held, self._held = bytes(self._held), None
        return held[cue_end(held, self._notes) :]
