"""The protocols every speech engine implements, and the results they give.

An engine is a loaded model (slow to load, kept for the life of the process, shared). Every engine can
`decode` a whole recording in one full-utterance pass: the most accurate way to read audio that is
already complete (a file, or a dictation once the user lets go). A `StreamingEngine` also makes one
cheap `Transcriber` per utterance: it is fed 16 kHz mono int16 PCM as it arrives, offers the partial
text so far, and `finish()` returns the final result, always at least as complete as the last partial.
Vosk and pocketsphinx do both; Whisper's live words come from reading the growing audio again
(app/speech_in/stretch_decoding.py), which splits them into words that will stay and a tail that may change.
"""

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from app.domain.hints import NO_HINTS, Hints


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
    live_text: str | None = None  # the streaming result, when a final pass wrote `text` instead
    final_pass_note: str | None = None  # why no final pass wrote `text` (skipped, too slow, failed)
    # The words were read from sound the voice activity detector did not call speech (a whisper): a run holds them
    # for the user's yes rather than apply them (app/speech_in/faint_speech.py).
    faint: bool = False
    # What was heard (16 kHz mono int16), kept with the utterance (app/recordings); a file's transcript has none.
    audio: bytes = field(default=b"", repr=False, compare=False)


@dataclass(frozen=True)
class EngineResult:
    """What a transcriber returns; the caller adds the timing to make a `Transcript`."""

    text: str
    words: list[Word]


@dataclass(frozen=True)
class LiveText:
    """The words shown while the user speaks: those that will stay, then a tail that may still change."""

    committed: str = ""
    tentative: str = ""

    @property
    def text(self) -> str:
        return " ".join(part for part in (self.committed, self.tentative) if part)


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
    kind: str  # "vosk", "pocketsphinx" or "whisper"
    language: str

    def decode(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        """Everything in `pcm` (a whole utterance, 16 kHz mono int16) in one pass.

        `hints` are phrases the speaker is likely to say (their own list's words); an engine that can bias
        its search toward them does, the others ignore them.
        """


@runtime_checkable
class StreamingEngine(Engine, Protocol):
    def start(self, channel: str = "", hints: Hints = NO_HINTS) -> Transcriber:
        """A new transcriber for one utterance; `channel` names the input (a microphone) so what the
        engine learned about its sound last time is used from the first word. `hints` are phrases the
        speaker is likely to say, as for `decode`."""
