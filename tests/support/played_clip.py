"""A microphone that plays a recorded clip into a Dictation (its `source`), in real time or all at once."""

import time

from app.speech_in.audio import BYTES_PER_SAMPLE, SAMPLE_RATE
from app.speech_in.capture import AudioDevice

BLOCK_SECONDS = 0.04


class PlayedClip:
    """`take()` hands on the 40 ms blocks whose time has come since `begin()` (`real_time`), else all of it."""

    device: AudioDevice | None = None
    overflows = 0

    def __init__(self, pcm: bytes, *, real_time: bool = True) -> None:
        self._pcm = pcm
        self._real_time = real_time
        self._given = 0
        self._began = 0.0
        self._block = round(BLOCK_SECONDS * SAMPLE_RATE) * BYTES_PER_SAMPLE

    @property
    def seconds(self) -> float:
        return len(self._pcm) / (SAMPLE_RATE * BYTES_PER_SAMPLE)

    def open(self) -> None:
        pass

    def begin(self, preroll: bool = True) -> None:
        self._began = time.monotonic()

    def sends_sound(self) -> bool:
        return self._began > 0

    def keep_from(self, moment: float) -> None:
        """The clip up to `moment` (time.monotonic, played in real time from `begin()`) is never handed on."""
        self._given = max(self._given, self._due_at(moment))

    def _due_at(self, moment: float) -> int:
        """How much of the clip has played by `moment`, in whole blocks."""
        return min(len(self._pcm), int((moment - self._began) / BLOCK_SECONDS) * self._block)

    def take(self) -> bytes:
        due = self._due_at(time.monotonic()) if self._real_time else len(self._pcm)
        block = self._pcm[self._given : due]
        self._given = max(self._given, due)
        return block

    def failure(self) -> str | None:
        return None

    def close(self, *, abort: bool = False) -> bytes:
        rest, self._given = self._pcm[self._given :], len(self._pcm)
        return rest
