"""Speaking: the voices, their synthesis and playback, the words made speakable."""

from app.speech_out.choice import choose_voice, preload_voice
from app.speech_out.playback import Playback, Played
from app.speech_out.speaker import Speaker
from app.speech_out.spoken import spoken_text
from app.speech_out.synthesis import PiperSynthesizer, Sound
from app.speech_out.voices import PiperVoices

__all__ = [
    "PiperSynthesizer",
    "PiperVoices",
    "Playback",
    "Played",
    "Sound",
    "Speaker",
    "choose_voice",
    "preload_voice",
    "spoken_text",
]
