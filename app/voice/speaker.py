"""Saying a text aloud with the voice and speaker the settings choose; one Speaker per reply, stoppable."""

from pathlib import Path

from app.config import SpeechSettings
from app.voice.choice import choose_synthesizer
from app.voice.playback import Playback, Played, write_wav
from app.voice.synthesis import Synthesizer, speak


class Speaker:
    def __init__(self, settings: SpeechSettings, voice: str | None = None) -> None:
        self.settings = settings
        self._voice = voice
        self._playback = Playback(settings.output_device)

    def synthesizer(self) -> Synthesizer:
        """The voice that speaks (VoiceError when there is none): chosen when first needed, not at start."""
        return choose_synthesizer(self.settings, self._voice)

    def say(self, text: str) -> Played:
        """Speak `text` and return once it has been heard, or stopped (VoiceError when it cannot be)."""
        synthesizer = self.synthesizer()
        return self._playback.play(speak(synthesizer, text, self.settings.volume), synthesizer.sample_rate)

    def save(self, text: str, path: Path) -> float:
        """`text` spoken into a WAV file instead; returns its length in seconds."""
        return write_wav(speak(self.synthesizer(), text, self.settings.volume), path)

    def stop(self) -> None:
        self._playback.stop()

    @property
    def stopped(self) -> bool:
        return self._playback.stopped
