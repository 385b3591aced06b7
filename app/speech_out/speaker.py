"""Saying a text aloud with the voice and speaker the settings choose; one Speaker per reply, stoppable."""

import threading
from pathlib import Path

from app.config import SpeechSettings
from app.speech_out.choice import choose_synthesizer, choose_voice
from app.speech_out.dispatcher import DispatcherVoice
from app.speech_out.playback import Playback, Played, write_wav
from app.speech_out.synthesis import Synthesizer, speak


class Speaker:
    def __init__(self, settings: SpeechSettings, voice: str | None = None) -> None:
        self.settings = settings
        self._voice = voice
        self._playback = Playback(settings.output_device)
        self._stopping = threading.Event()  # for speech-dispatcher, which plays without Playback

    def voice(self) -> Synthesizer | DispatcherVoice:
        """What speaks (VoiceError when nothing can): chosen when first needed, not at start."""
        return choose_voice(self.settings, self._voice)

    def say(self, text: str) -> Played:
        """Speak `text` and return once it has been heard, or stopped (VoiceError when it cannot be)."""
        voice = self.voice()
        if isinstance(voice, DispatcherVoice):
            return voice.say(text, self._stopping)
        return self._playback.play(speak(voice, text, self.settings.volume), voice.sample_rate)

    def save(self, text: str, path: Path) -> float:
        """`text` spoken into a WAV file instead; returns its length in seconds."""
        synthesizer = choose_synthesizer(self.settings, self._voice)
        return write_wav(speak(synthesizer, text, self.settings.volume), path)

    def stop(self) -> None:
        self._stopping.set()
        self._playback.stop()
