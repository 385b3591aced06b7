"""The bundled fallback: CMU pocketsphinx with the US English model that ships inside its wheel.

No download needed, so voice works on a fresh install; less accurate than Vosk, and English only.
"""

import logging
import threading
from typing import Any

from app.speech.audio import SAMPLE_RATE
from app.speech.transcriber import EngineResult, Word

log = logging.getLogger("murmur.speech")

FRAMES_PER_SECOND = 100  # pocketsphinx's default frame rate
# Not words: sentence marks, silence, noise fillers; alternates are spelled "word(2)".
_NOT_WORDS = {"<s>", "</s>", "<sil>", "(NULL)"}


def _clean(word: str) -> str | None:
    if word in _NOT_WORDS or word.startswith(("[", "+")):
        return None
    return word.split("(", 1)[0]


class PocketsphinxTranscriber:
    def __init__(self, engine: "PocketsphinxEngine", decoder: Any) -> None:
        self._engine = engine
        self._decoder = decoder
        self._partial = ""
        self._open = True
        decoder.start_utt()

    def feed(self, pcm: bytes) -> None:
        if not pcm:
            return
        self._decoder.process_raw(pcm, False, False)
        hypothesis = self._decoder.hyp()
        self._partial = hypothesis.hypstr if hypothesis is not None else ""

    @property
    def partial(self) -> str:
        return self._partial

    def finish(self) -> EngineResult:
        decoder = self._decoder
        decoder.end_utt()
        hypothesis = decoder.hyp()
        words = []
        for segment in decoder.seg():
            text = _clean(segment.word)
            if text:
                words.append(
                    Word(
                        text=text,
                        start=segment.start_frame / FRAMES_PER_SECOND,
                        end=(segment.end_frame + 1) / FRAMES_PER_SECOND,
                        confidence=float(segment.prob),
                    )
                )
        self._release()
        return EngineResult(text=hypothesis.hypstr if hypothesis is not None else "", words=words)

    def cancel(self) -> None:
        if self._open:
            self._decoder.end_utt()
            self._release()

    def _release(self) -> None:
        if self._open:
            self._open = False
            self._engine.give_back(self._decoder)


class PocketsphinxEngine:
    """Keeps decoders between utterances (a decoder is not thread-safe, so each transcriber takes one)."""

    kind = "pocketsphinx"
    name = "pocketsphinx (bundled, English only)"
    language = "en"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[Any] = [self._new_decoder()]

    @staticmethod
    def _new_decoder() -> Any:
        from pocketsphinx import Decoder

        decoder = Decoder(samprate=SAMPLE_RATE, loglevel="FATAL")
        log.info("loaded pocketsphinx with its bundled US English model")
        return decoder

    def start(self) -> PocketsphinxTranscriber:
        with self._lock:
            decoder = self._idle.pop() if self._idle else None
        return PocketsphinxTranscriber(self, decoder if decoder is not None else self._new_decoder())

    def give_back(self, decoder: Any) -> None:
        with self._lock:
            self._idle.append(decoder)
