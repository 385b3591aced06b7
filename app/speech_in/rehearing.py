"""Hearing a kept recording again with the best engine installed (Whisper when its model is there), or a named one."""

from dataclasses import dataclass

from app.config import SpeechSettings
from app.domain.hints import NO_HINTS, Hints
from app.errors import MurmurError, UsageError
from app.recordings.hearing import REHEAR_ENGINES, Heard
from app.speech_in.engines import EngineChoice, choose_engine, choose_final_engine, load_engine


@dataclass(frozen=True)
class InstalledEars:
    """The engines these speech settings can load, for the recordings (app.recordings.hearing.Ears)."""

    settings: SpeechSettings

    def better_engine(self) -> str | None:
        try:
            whisper = self._whisper(required=False)
        except MurmurError:  # a Whisper model named in the settings but missing: nothing better to offer
            return None
        return whisper.name if whisper is not None else None

    def hear(self, pcm: bytes, engine: str = "", hints: Hints = NO_HINTS) -> Heard:
        if engine and engine not in REHEAR_ENGINES:
            raise UsageError(f"unknown speech engine {engine!r}; choose one of {', '.join(REHEAR_ENGINES)}")
        if engine in ("", "whisper"):
            choice = self._whisper(required=engine == "whisper") or choose_engine(self.settings)
        else:
            choice = choose_engine(self.settings, engine=engine)
        result = load_engine(choice).decode(pcm, hints)
        return Heard(result.text.strip(), choice.name)

    def _whisper(self, *, required: bool) -> EngineChoice | None:
        """Whisper over a whole recording (a thorough pass: nobody waits on a key's release), when it is installed;
        ModelError saying what to install when `required`."""
        placeholder = EngineChoice("pocketsphinx", None, self.settings.language or "en")
        mode = "whisper" if required else "auto"
        best = choose_final_engine(self.settings, placeholder, final_engine=mode, thorough=True)
        return best if best is not None and best.kind == "whisper" else None
