"""Vosk (Kaldi) streaming recognition: partials while recording, words with confidences at the end."""

import json
import logging
import threading
from pathlib import Path
from typing import Any

from app.domain.hints import NO_HINTS, Hints
from app.errors import ModelError
from app.speech_in.audio import SAMPLE_RATE
from app.speech_in.models import model_label
from app.speech_in.transcriber import EngineResult, Word

log = logging.getLogger("murmur.speech")
DECODE_CHUNK = 32_000  # a second of audio per call when a whole recording is decoded
_vosk_lock = threading.Lock()  # Vosk's log level is process-wide; set it once


def _quiet_vosk() -> Any:
    import vosk

    with _vosk_lock:
        vosk.SetLogLevel(-1)  # Kaldi writes to stderr otherwise; we log what matters ourselves
    return vosk


def _words(result: dict[str, Any]) -> list[Word]:
    return [
        Word(text=str(w["word"]), start=float(w["start"]), end=float(w["end"]), confidence=float(w.get("conf", 1.0)))
        for w in result.get("result", [])
    ]


class VoskTranscriber:
    """One utterance on a KaldiRecognizer; Vosk ends segments at pauses, so the text is kept per segment."""

    def __init__(self, model: Any) -> None:
        vosk = _quiet_vosk()
        self._recognizer = vosk.KaldiRecognizer(model, SAMPLE_RATE)
        self._recognizer.SetWords(True)
        self._recognizer.SetPartialWords(False)
        self._done_words: list[Word] = []
        self._done_text: list[str] = []
        self._current = ""

    def _close_segment(self, raw: str) -> None:
        result = json.loads(raw)
        text = str(result.get("text", "")).strip()
        if text:
            self._done_text.append(text)
            self._done_words.extend(_words(result))
        self._current = ""

    def feed(self, pcm: bytes) -> None:
        if not pcm:
            return
        if self._recognizer.AcceptWaveform(pcm):
            self._close_segment(self._recognizer.Result())
        else:
            self._current = str(json.loads(self._recognizer.PartialResult()).get("partial", "")).strip()

    @property
    def partial(self) -> str:
        return " ".join([*self._done_text, self._current]).strip()

    def finish(self) -> EngineResult:
        self._close_segment(self._recognizer.FinalResult())
        return EngineResult(text=" ".join(self._done_text), words=list(self._done_words))

    def cancel(self) -> None:
        self._recognizer.Reset()
        self._done_text.clear()
        self._done_words.clear()
        self._current = ""


class VoskEngine:
    """A Vosk model loaded once (it takes seconds and hundreds of MB) and shared by every dictation."""

    kind = "vosk"

    def __init__(self, model_path: Path, language: str) -> None:
        vosk = _quiet_vosk()
        if not (model_path / "am").is_dir() and not (model_path / "conf").is_dir():
            raise ModelError(f"{model_path} is not a Vosk model folder (no am/ or conf/ in it)")
        try:
            self._model = vosk.Model(str(model_path))
        except Exception as error:  # Vosk raises a bare Exception("Failed to create a model")
            raise ModelError(f"cannot load the Vosk model in {model_path}: {error}") from None
        self.model_path = model_path
        self.language = language
        self.name = f"Vosk ({model_label(model_path)})"
        log.info("loaded the Vosk model %s", model_path)

    def start(self, channel: str = "", hints: Hints = NO_HINTS) -> VoskTranscriber:
        # Vosk adapts to the channel by itself (online CMVN and i-vectors), so `channel` needs no state.
        return VoskTranscriber(self._model)

    def decode(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        """A whole recording; Vosk decodes it as it would live, but in large chunks (no partials asked)."""
        recognizer = VoskTranscriber(self._model)
        for i in range(0, len(pcm), DECODE_CHUNK):
            recognizer.feed(pcm[i : i + DECODE_CHUNK])
        return recognizer.finish()
