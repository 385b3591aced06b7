"""The bundled fallback: CMU pocketsphinx with the US English model that ships inside its wheel.

No download needed, so voice works on a fresh install; English only. Two things decide its accuracy
more than the model: a whole recording is decoded in one full-utterance pass (batch cepstral mean
normalisation over all of it, the engine's best offline setting), and a live decoder starts from the
cepstral mean (CMN) learned on the same microphone last time, not from the model's generic guess. The
engine's generic language model ranks everyday commands low ("the milk is done" heard as "the male gaze
and"), so every finished utterance is re-ranked by a small model of what people say to this app. The user's
own terms are taught too: to that model, and, where its dictionary lacks them, to the decoder itself, spelt
by espeak-ng (app/speech_in/pronounce.py).
"""

import logging
import re
import threading
from difflib import SequenceMatcher
from typing import Any

from app.domain.hints import NO_HINTS, Hints
from app.speech_in.audio import SAMPLE_RATE, seconds_of
from app.speech_in.channels import ChannelMemory
from app.speech_in.domain_lm import DomainRescorer
from app.speech_in.pronounce import pronunciations
from app.speech_in.transcriber import EngineResult, Word

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


def _result(decoder: Any, rescorer: DomainRescorer) -> EngineResult:
    """The finished utterance's text and words (call after end_utt), re-ranked by the domain model."""
    hypothesis = decoder.hyp()
    text = hypothesis.hypstr if hypothesis is not None else ""
    words = []
    for segment in decoder.seg():
        spelled = _clean(segment.word)
        if spelled:
            words.append(
                Word(
                    text=spelled,
                    start=segment.start_frame / FRAMES_PER_SECOND,
                    end=(segment.end_frame + 1) / FRAMES_PER_SECOND,
                    confidence=float(segment.prob),
                )
            )
    rescored = rescorer.best(decoder) if text else None
    if rescored is None or rescored == text:
        return EngineResult(text=text, words=words)
    return EngineResult(text=rescored, words=realigned(words, rescored.split()))


def realigned(words: list[Word], texts: list[str]) -> list[Word]:
    """`texts` (the re-ranked words) with times: a word the decoder also chose keeps its own time and
    confidence; the others share the time of the words they replace, with no confidence (the decoder's
    was for another word)."""
    matcher = SequenceMatcher(a=[word.text for word in words], b=texts, autojunk=False)
    result: list[Word] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            result.extend(words[a0:a1])
            continue
        if b0 == b1:  # dropped words
            continue
        if a0 < a1:
            start, end = words[a0].start, words[a1 - 1].end
        else:  # inserted between two kept words: the gap between them
            start = words[a0 - 1].end if a0 > 0 else 0.0
            end = words[a0].start if a0 < len(words) else start
        step = (end - start) / (b1 - b0)
        result.extend(
            Word(text=text, start=start + i * step, end=start + (i + 1) * step, confidence=None)
            for i, text in enumerate(texts[b0:b1])
        )
    return result


class PocketsphinxTranscriber:
    def __init__(self, engine: "PocketsphinxEngine", decoder: Any, channel: str, rescorer: DomainRescorer) -> None:
        self._engine = engine
        self._rescorer = rescorer
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
        result = _result(decoder, self._rescorer)
        if self._channel and result.words:  # an utterance with speech in it: its mean is worth keeping
            self._engine.remember_mean(self._channel, decoder.get_cmn(False))
        self._release()
        return result

    def cancel(self) -> None:
        """Drop the utterance unfinished. Ending it would run the decoder's second pass over all of it (a third of a
        second for 6 s of speech, holding the GIL, at release) for words nobody reads; freeing it takes a few ms. The
        decoder goes with it: the pool makes another when one is next wanted."""
        if self._open:
            self._open = False
            self._decoder = None

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
        self._rescorer = DomainRescorer()
        self._hints: tuple[str, ...] = ()
        # The user's words looked at: the phones espeak-ng spelt for those the dictionary lacked; None for those
        # it has, or that could not be spelt (asked once a process, not at every utterance).
        self._spelt: dict[str, str | None] = {}

    @staticmethod
    def _new_decoder() -> Any:
        from pocketsphinx import Decoder

        decoder = Decoder(samprate=SAMPLE_RATE, loglevel="FATAL")
        log.info("loaded pocketsphinx with its bundled US English model")
        return decoder

    def _take(self, terms: tuple[str, ...] = ()) -> Any:
        """A decoder from the pool (or a new one) that knows every one of the user's words spelt so far."""
        with self._lock:
            decoder = self._idle.pop() if self._idle else None
        decoder = decoder if decoder is not None else self._new_decoder()
        self._teach(decoder, terms)
        return decoder

    def _teach(self, decoder: Any, terms: tuple[str, ...]) -> None:
        """Add to the decoder's dictionary the words of `terms` (and those of earlier terms) it lacks."""
        words = {word.lower(): word for term in terms for word in re.findall(r"[A-Za-z]+(?:'[A-Za-z]+)*", term)}
        with self._lock:
            unknown = {key: word for key, word in words.items() if key not in self._spelt}
        missing = [word for key, word in unknown.items() if decoder.lookup_word(key) is None]
        spelt = pronunciations(missing)
        with self._lock:
            self._spelt |= {key: spelt.get(word) for key, word in unknown.items()}
            known = {word: phones for word, phones in self._spelt.items() if phones is not None}
        for word, phones in known.items():
            if decoder.lookup_word(word) is None:
                decoder.add_word(word, phones, True)

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

    # -- the domain model ---------------------------------------------------------------------------

    def rescorer(self, hints: Hints = NO_HINTS) -> DomainRescorer:
        """The domain model, taught the user's own phrases when `hints` brings them (built again only when
        they change, in about 50 ms, when an utterance starts)."""
        wanted = tuple(hints)
        with self._lock:
            if not wanted or wanted == self._hints:
                return self._rescorer
        rescorer = DomainRescorer(extra_phrases=wanted)
        with self._lock:
            self._rescorer, self._hints = rescorer, wanted
        return rescorer

    # -- the two ways to decode ----------------------------------------------------------------------

    def start(self, channel: str = "", hints: Hints = NO_HINTS) -> PocketsphinxTranscriber:
        rescorer = self.rescorer(hints)
        return PocketsphinxTranscriber(self, self._take(hints.terms), channel, rescorer)

    def decode(self, pcm: bytes, hints: Hints = NO_HINTS) -> EngineResult:
        """One full-utterance pass: the mean is computed over the whole recording before any frame is read."""
        decoder = self._take(hints.terms)
        try:
            # A fresh feature extractor (its noise estimate and mean), so a recording decodes the same
            # whatever the pooled decoder heard before; it costs well under a millisecond.
            decoder.reinit_feat()
            decoder.start_utt()
            decoder.process_raw(pcm, False, True)
            decoder.end_utt()
            return _result(decoder, self.rescorer(hints))
        finally:
            self.give_back(decoder)
