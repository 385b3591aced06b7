"""faster-whisper's model with an encoder window fitted to the audio instead of Whisper's fixed 30 s.

faster-whisper pads every window's mel features to 3000 frames (30 s) before the encoder, whatever the audio's
length, and the encoder's cost grows with the frames it reads: for a 5 s dictation most of the time after release
went into encoding padding. CTranslate2's Whisper encoder takes fewer frames as they are, so `encode` cuts the
padding down to `window(seconds of audio)`; the decoder then attends only to that. Imported only once
faster-whisper is known to be installed (it is an optional extra).
"""

import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from faster_whisper import WhisperModel

FRAMES_PER_SECOND = 100  # Whisper's mel features: one frame per 10 ms
FULL_WINDOW_SECONDS = 30.0  # what the encoder was trained on, and the most it reads


class WindowedWhisperModel(WhisperModel):  # type: ignore[misc]  # faster-whisper has no type information
    """A WhisperModel whose encoder reads `window(audio seconds)` seconds of features (at most 30 s)."""

    def __init__(self, *args: Any, window: Callable[[float], float], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.window = window
        # Per thread: two dictations' final passes may decode at once, each with its own audio's window.
        self._frames = threading.local()

    def generate_segments(self, features: np.ndarray, *args: Any, **kwargs: Any) -> Iterator[Any]:
        """faster-whisper's decoding loop, over the features of exactly the audio it reads (after its own
        voice activity filter): their length sets the window."""
        seconds = min(self.window(features.shape[-1] / FRAMES_PER_SECOND), FULL_WINDOW_SECONDS)
        self._frames.count = round(seconds * FRAMES_PER_SECOND)
        try:
            yield from super().generate_segments(features, *args, **kwargs)
        finally:  # language detection, outside this loop, reads whole 30 s windows
            self._frames.count = None

    def encode(self, features: np.ndarray) -> Any:
        frames = getattr(self._frames, "count", None)
        return super().encode(features if frames is None else features[..., :frames])
