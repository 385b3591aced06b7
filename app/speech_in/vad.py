"""Was anything said? Voice activity detection over a whole utterance, so noise never becomes words.

Speech engines write words for whatever they are given: pocketsphinx reads soft noise as "If", Whisper writes
"Thank you." over silence. Silero's detector (a small neural network, shipped inside faster-whisper and run by
onnxruntime) tells breath, coughs and key clicks from speech; it is used whenever faster-whisper is installed.
Without it, WebRTC's detector (always installed) decides, with the hands-free endpoint's rule that speech must
last a moment: it stops silence and steady noise, but takes breath and clicks for voice.
"""

import functools
import importlib.util
from dataclasses import dataclass

from app.speech_in.audio import SAMPLE_RATE, pcm16_as_float, seconds_of
from app.speech_in.transcriber import EngineResult

# Silero's own defaults, except the shortest speech: a burst under a quarter second (a cough, a knock) is not
# speech, while the shortest words people dictate ("milk", "yes") last longer.
MIN_SPEECH_MS = 250
# How far around what it hears as speech a span reaches: Silero's 400 ms would keep a key click just before the
# first word as a word; word timings are good to a frame or two.
SPEECH_PAD_MS = 150


@dataclass(frozen=True)
class Span:
    start: float  # seconds into the audio
    end: float

    def overlaps(self, start: float, end: float) -> bool:
        return self.start < end and start < self.end


@functools.cache
def silero_available() -> bool:
    """Can Silero run here (faster-whisper and its onnxruntime installed)?"""
    return all(importlib.util.find_spec(name) is not None for name in ("faster_whisper", "onnxruntime"))


def speech_spans(pcm: bytes) -> list[Span]:
    """Where Silero hears speech in 16 kHz mono int16 `pcm` (needs `silero_available()`)."""
    from faster_whisper import vad

    found = vad.get_speech_timestamps(
        pcm16_as_float(pcm), vad.VadOptions(min_speech_duration_ms=MIN_SPEECH_MS, speech_pad_ms=SPEECH_PAD_MS)
    )
    return [Span(chunk["start"] / SAMPLE_RATE, chunk["end"] / SAMPLE_RATE) for chunk in found]


def webrtc_heard_speech(pcm: bytes) -> bool:
    """WebRTC's answer: did voiced frames, close together, last as long as a hands-free answer needs to begin?"""
    from app.speech_in.endpoint import Heard, SpeechEndpoint

    return SpeechEndpoint(window_seconds=seconds_of(pcm) + 1.0).feed(pcm) is not Heard.WAITING


@dataclass(frozen=True)
class Speech:
    """What the detector heard in an utterance."""

    heard: bool
    spans: list[Span] | None  # where (Silero); None when only WebRTC could say, and not where

    def words_within(self, result: EngineResult) -> EngineResult:
        """`result` less the words read where no one spoke (noise before or after the speech, read as words)."""
        if self.spans is None:
            return result
        kept = [word for word in result.words if any(span.overlaps(word.start, word.end) for span in self.spans)]
        return result if len(kept) == len(result.words) else EngineResult(" ".join(w.text for w in kept), kept)


def find_speech(pcm: bytes) -> Speech:
    """Speech in `pcm`, and where: Silero's answer when it is installed, else WebRTC's."""
    if silero_available():
        spans = speech_spans(pcm)
        return Speech(bool(spans), spans)
    return Speech(webrtc_heard_speech(pcm), None)


def heard_speech(pcm: bytes) -> bool:
    """Is there speech anywhere in `pcm`?"""
    return find_speech(pcm).heard


def warm_up() -> None:
    """Load the detector now (Silero takes a few tenths of a second, once per process), not after the release."""
    if silero_available():
        from faster_whisper import vad

        vad.get_vad_model()
