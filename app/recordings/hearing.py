"""What hears a kept recording again: the installed speech engines, as the service sees them (wired by assembly)."""

from dataclasses import dataclass
from typing import Protocol

from app.domain.hints import NO_HINTS, Hints

# What `murmur retry --rehear --engine` takes; none named: the best installed.
REHEAR_ENGINES = ("whisper", "vosk", "pocketsphinx")


@dataclass(frozen=True)
class Heard:
    text: str
    engine: str  # the engine's name, as the user knows it: "Whisper (whisper-base.en)"


class Ears(Protocol):
    def better_engine(self) -> str | None:
        """The name of an installed engine that hears better than the live one (Whisper), or None."""

    def hear(self, pcm: bytes, engine: str = "", hints: Hints = NO_HINTS) -> Heard:
        """`pcm` (16 kHz mono int16) read by `engine` ("": the best installed); ModelError when it is not."""
