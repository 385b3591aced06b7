"""The transcriber protocol every engine implements, and the results it gives.

An `Engine` is the loaded model (slow to load, kept for the life of the process, shared); it makes one
cheap `Transcriber` per utterance. A transcriber is fed 16 kHz mono int16 PCM as it arrives, offers
the partial text so far, and `finish()` returns the final transcript, which is always at least as
complete as the last partial: the engine has heard all the audio by then.
"""

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Word:
    text: str
    start: float  # seconds from the start of the audio
    end: float
    confidence: float | None  # 0..1 where the engine reports one


@dataclass(frozen=True)
class Transcript:
    text: str
    words: list[Word]
    engine: str  # human text, the engine's `name`
    audio_seconds: float
    elapsed_seconds: float  # wall time to the final text (a file: decoding; a dictation: from start())
    finalize_seconds: float = 0.0  # from the end of the audio (stop()) to the final text
    notes: list[str] = field(default_factory=list)  # what the user should know (a device that died mid-way)


@dataclass(frozen=True)
class EngineResult:
    """What a transcriber returns; the caller adds the timing to make a `Transcript`."""

    text: str
    words: list[Word]


class Transcriber(Protocol):
    def feed(self, pcm: bytes) -> None:
        """Hear more audio (16 kHz mono int16)."""

    @property
    def partial(self) -> str:
        """The text so far; it may change as more is heard."""

    def finish(self) -> EngineResult:
        """The final result for everything fed; the transcriber is done after this."""

    def cancel(self) -> None:
        """Drop everything heard; the transcriber is done after this."""


class Engine(Protocol):
    name: str  # e.g. "Vosk (vosk-model-small-en-us-0.15)"
    kind: str  # "vosk" or "pocketsphinx"
    language: str

    def start(self) -> Transcriber:
        """A new transcriber for one utterance."""


def join_words(words: list[Word]) -> str:
    return " ".join(w.text for w in words)
