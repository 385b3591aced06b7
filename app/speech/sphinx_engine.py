"""The bundled fallback: CMU pocketsphinx with the US English model that ships inside its wheel.

No download needed, so voice works on a fresh install; English only. Two things decide its accuracy
more than the model: a whole recording is decoded in one full-utterance pass (batch cepstral mean
normalisation over all of it, the engine's best offline setting), and a live decoder starts from the
cepstral mean (CMN) learned on the same microphone last time, not from the model's generic guess.
"""

import logging
import threading
from collections.abc import Sequence
from typing import Any

from app.speech.audio import SAMPLE_RATE, seconds_of
from app.speech.channels import ChannelMemory
from app.speech.transcriber import EngineResult, Word

log = logging.getLogger("murmur.speech")

FRAMES_PER_SECOND = 100  # pocketsphinx's default frame rate
# Not words: sentence marks, silence, noise fillers; alternates are spelled "word(2)".
_NOT_WORDS = {"<s>", "</s>", "<sil>", "(NULL)"}
# A live decoder with no mean learned for its channel restarts once after this much audio, from the mean
# of what it has heard so far: the rest of the utterance (and the replayed start) is then decoded against
# the right channel estimate. About a quarter of a second of catch-up work, once per new microphone.
REPRIME_SECONDS = 1.2


def _clean(word: str) -> str | None:
    if word in _NOT_WORDS or word.startswith(("[", "+")):
        return None
    return word.split("(", 1)[0]


def _result(decoder: Any) -> EngineResult:
    """The finished utterance's text and words (call after end_utt)."""
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
    return EngineResult(text=hypothesis.hypstr if hypothesis is not None else "", words=words)


class PocketsphinxTranscriber:
    def __init__(self, engine: "PocketsphinxEngine", decoder: Any, channel: str) -> None:
        self._engine = engine
        self._decoder = decoder
        self._channel = channel
        self._partial = ""
        self._open = True
        learned = engine.channel_mean(channel)
        # set_cmn rather than the `cmninit` option: decoders are pooled and serve every channel in turn.
        decoder.set_cmn(learned or engine.initial_mean)
        self._heard = bytearray() if learned is None else None  # kept only until the one restart
        decoder.start_utt()

    def feed(self, pcm: bytes) -> None:
        if not pcm:
            return
        decoder = self._decoder
        decoder.process_raw(pcm, False, False)
        if self._heard is not None:
            self._heard.extend(pcm)
            if seconds_of(self._heard) >= REPRIME_SECONDS:
                self._reprime(bytes(self._heard))
        hypothesis = decoder.hyp()
        self._partial = hypothesis.hypstr if hypothesis is not None else ""

    def _reprime(self, heard: bytes) -> None:
        self._heard = None
        decoder = self._decoder
        mean = decoder.get_cmn(True)  # the mean of what was heard so far
        decoder.end_utt()
        decoder.set_cmn(mean)
        decoder.start_utt()
        decoder.process_raw(heard, False, False)

    @property
    def partial(self) -> str:
        return self._partial

    def finish(self) -> EngineResult:
        decoder = self._decoder
        decoder.end_utt()
        result = _result(decoder)
        if self._channel and result.words:  # an utterance with speech in it: its mean is worth keeping
            self._engine.remember_mean(self._channel, decoder.get_cmn(False))
        self._release()
        return result

    def cancel(self) -> None:
        if self._open:
            self._decoder.end_utt()
            self._release()

    def _release(self) -> None:
        if self._open:
            self._open = False
            self._engine.give_back(self._decoder)


class PocketsphinxEngine:
    """Keeps decoders between utterances (a decoder is not thread-safe, so each utterance takes one)."""

    kind = "pocketsphinx"
    name = "pocketsphinx (bundled, English only)"
    language = "en"

    def __init__(self, channels: ChannelMemory | None = None) -> None:
        self._lock = threading.Lock()
        self._channels = channels
        self._means: dict[str, str] = {}  # learned this run, ahead of the file
        first = self._new_decoder()
        self.initial_mean = str(first.config["cmninit"])
        self._idle: list[Any] = [first]

    @staticmethod
    def _new_decoder() -> Any:
        from pocketsphinx import Decoder

        decoder = Decoder(samprate=SAMPLE_RATE, loglevel="FATAL")
        log.info("loaded pocketsphinx with its bundled US English model")
        return decoder

    def _take(self) -> Any:
        with self._lock:
            decoder = self._idle.pop() if self._idle else None
        return decoder if decoder is not None else self._new_decoder()

    def give_back(self, decoder: Any) -> None:
        with self._lock:
            self._idle.append(decoder)

    # -- what was learned about each channel ---------------------------------------------------------

    def channel_mean(self, channel: str) -> str | None:
        if not channel:
            return None
        with self._lock:
            known = self._means.get(channel)
        if known is None and self._channels is not None:
            known = self._channels.get(self.kind, channel)
        return known

    def remember_mean(self, channel: str, mean: str) -> None:
        with self._lock:
            self._means[channel] = mean
        if self._channels is not None:
            self._channels.put(self.kind, channel, mean)

    # -- the two ways to decode ----------------------------------------------------------------------

    def start(self, channel: str = "") -> PocketsphinxTranscriber:
        return PocketsphinxTranscriber(self, self._take(), channel)

    def decode(self, pcm: bytes, hints: Sequence[str] = ()) -> EngineResult:
        """One full-utterance pass: the mean is computed over the whole recording before any frame is read."""
        decoder = self._take()
        try:
            # A fresh feature extractor (its noise estimate and mean), so a recording decodes the same
            # whatever the pooled decoder heard before; it costs well under a millisecond.
            decoder.reinit_feat()
            decoder.start_utt()
            decoder.process_raw(pcm, False, True)
            decoder.end_utt()
            return _result(decoder)
        finally:
            self.give_back(decoder)
