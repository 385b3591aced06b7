"""Listening: the microphone and its level, the speech engines, live text; dictation itself is in app.api.dictation."""

from app.speech_in import cue_notes, engine_threads
from app.speech_in.audio import rms_dbfs
from app.speech_in.capture import AudioDevice, Microphone, list_devices, list_input_devices
from app.speech_in.cue_notes import NOTE_SECONDS, Notes
from app.speech_in.endpoint import Heard, SpeechEndpoint
from app.speech_in.engines import better_accuracy_hint, bundled_hint, choose_engine
from app.speech_in.language import base_language
from app.speech_in.transcriber import LiveText, Transcript

__all__ = [
    "AudioDevice",
    "Heard",
    "LiveText",
    "Microphone",
    "NOTE_SECONDS",
    "Notes",
    "SpeechEndpoint",
    "Transcript",
    "base_language",
    "better_accuracy_hint",
    "bundled_hint",
    "choose_engine",
    "cue_notes",
    "engine_threads",
    "list_devices",
    "list_input_devices",
    "rms_dbfs",
]
