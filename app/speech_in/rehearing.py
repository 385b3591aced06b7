"""Hearing a kept recording again with the best engine installed (Whisper when its model is there), or a named one."""

from collections.abc import Sequence
from dataclasses import dataclass

from app.config import SpeechSettings
from app.errors import UsageError
from app.recordings.hearing import REHEAR_ENGINES, Heard
from app.speech_in.engines import EngineChoice, choose_engine, choose_final_engine, load_engine


@dataclass(frozen=True)
class InstalledEars:
    """The engines these speech settings can load, for the recordings (app.recordings.hearing.Ears)."""

    settings: SpeechSettings

    def better_engine(self) -> str | None:
        live = choose_engine(self.settings)
        best = choose_final_engine(self.settings, live, final_engine="auto")
        return best.name if best is not None and best.kind == "whisper" else None

    def hear(self, pcm: bytes, engine: str = "", hints: Sequence[str] = ()) -> Heard:
        choice = self._choice(engine)
        result = load_engine(choice).decode(pcm, hints)
        return Heard(result.text.strip(), choice.name)

    def _choice(self, engine: str) -> EngineChoice:
        if engine and engine not in REHEAR_ENGINES:
            raise UsageError(f"unknown speech engine {engine!r}; choose one of {', '.join(REHEAR_ENGINES)}")
        if engine in ("", "whisper"):
            live = choose_engine(self.settings) if engine == "" else EngineChoice("pocketsphinx", None, "en")
            # A file's pass (thorough): the whole recording is there, and nobody waits on a key's release.
            best = choose_final_engine(self.settings, live, final_engine=engine or "auto", thorough=True)
            assert best is not None  # "auto" and "whisper" never turn the pass off
            return best
        return choose_engine(self.settings, engine=engine)
