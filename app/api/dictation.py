"""Dictation and files transcribed (loads the speech stack: import it where it is used)."""

from app.speech_in.dictation import Dictation, preload
from app.speech_in.files import transcribe_file

__all__ = ["Dictation", "preload", "transcribe_file"]
