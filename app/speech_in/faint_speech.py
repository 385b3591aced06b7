"""Speech the voice activity detector misses (a whisper), told from noise, and what Whisper may keep of it.

Silero learned speech from voiced sound: in a whisper it hears none, and nothing is decoded. Whisper reads whispers
well, but read past the detector it also writes sentences over noise ("I'm not sure if I can get a car or a car"
over a breath). So the detector is passed by only where the sound itself is like speech: it rises well above the
room's floor for longer than a syllable where the detector heard little, and its spectrum changes shape from one
moment to the next as syllables do (a hiss, then a vowel's formants), where a breath, a fan, hum, keys or noise that
swells at a syllable's rate keep one shape and only change level. Of what Whisper then reads it keeps what it is
itself sure of. Words read this way are only ever a question to the user (the run holds them for a yes): the rule
keeps noise from asking, it does not decide what goes into the list.
"""

import re
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

import numpy as np

from app.domain.hints import Hints
from app.speech_in.audio import SAMPLE_RATE
from app.speech_in.noise_floor import Marks, sounding_frames
from app.speech_in.segments import FRAME_SECONDS
from app.speech_in.speech_rate import said_in_time
from app.speech_in.transcriber import Engine, EngineResult
from app.speech_in.vad import Span, Speech

# Missed: this much sound outside what the detector heard, and the detector heard under a fifth of the sound. Heard
# speech between breaths or gusts is not missed speech: read past the detector, Whisper reads that speech again in
# the noise.
MISSED_SECONDS = 0.5
HEARD_SHARE = 0.2
# Sound that lasts: a syllable, whispered or not, sounds for 0.1-0.3 s; keys typed, clicks and taps for a few
# milliseconds each, and over a run of them Whisper read past the detector wrote "Hey guys! Welcome to my channel!".
SUSTAINED_FRAMES = 3  # 90 ms
# The spectrum's shape, in bands from a whisper's low formants to its hiss, over 32 ms frames (16 ms apart).
SHAPE_FRAME = 512
SHAPE_HOP = 256
SHAPE_BANDS_HZ = (200, 500, 1000, 2000, 3000, 4500, 7500)
# The frames whose shape is read: within 12 dB of the loudest (a twentieth of the frames louder still) and 10 dB over
# the floor, where the room's own sound cannot change the shape.
LOUDEST_PERCENTILE = 95
LOUD_WITHIN_DB = 12.0
OVER_FLOOR_DB = 10.0
FLOOR_PERCENTILE = 10
FEWEST_LOUD_FRAMES = 12  # 0.2 s
# How far the shape moves, in dB (each band's spread over the loud frames, averaged over the bands): whispered
# sentences 3.7-6.1 (espeak-ng's whisper at two levels, the two real whispered clips), noise 1.1-2.4 (white, pink
# and brown noise, breath with and without a breathing rhythm, noise swelling at 3-6 Hz and in bursts timed like
# syllables, keys, a fan, hum, chords): tests/speech_in/faint_material.py.
SHAPE_MOVES_DB = 3.0
# openai-whisper's own thresholds: a segment is silence when Whisper thinks so (no_speech_prob over 0.6) and is unsure
# of its words (average log-probability under -1.0); a read under that log-probability, or so repetitive that its
# text compresses over 2.4 times, is one Whisper judges failed. Past the detector a failed read is dropped, not tried
# again less greedily: over noise the hotter tries only find other words.
NO_SPEECH_PROB = 0.6
LOWEST_LOGPROB = -1.0
MOST_COMPRESSION = 2.4
# What Whisper writes over noise it was given as speech (learned from subtitles' credits), lower case, no punctuation.
HALLUCINATIONS = frozenset(
    {"you", "thank you", "thanks", "thank you very much", "thanks for watching", "thank you for watching", "bye"}
)


class Segment(Protocol):
    """What faster-whisper's segments carry that this module reads."""

    @property
    def text(self) -> str: ...
    @property
    def start(self) -> float: ...
    @property
    def end(self) -> float: ...
    @property
    def no_speech_prob(self) -> float: ...
    @property
    def avg_logprob(self) -> float: ...
    @property
    def compression_ratio(self) -> float: ...


S = TypeVar("S", bound=Segment)


@runtime_checkable
class FaintReader(Protocol):
    """An engine that can read past the voice activity detector, keeping only what it is sure of (Whisper)."""

    def read_faint(self, pcm: bytes, hints: Hints) -> EngineResult: ...


def faint_reader(engine: Engine, pcm: bytes, speech: Speech) -> FaintReader | None:
    """`engine`, when it is to read `pcm` past the detector (which heard `speech`): it can, and the detector missed
    speech in it."""
    return engine if isinstance(engine, FaintReader) and faint_speech(pcm, speech) else None


def faint_speech(pcm: bytes, speech: Speech) -> bool:
    """Is there speech in `pcm` that the detector (which heard `speech`) missed: sound it did not hear that changes
    shape as syllables do?"""
    return speech_missed(pcm, speech.spans or []) and shape_moves(pcm)


def speech_missed(pcm: bytes, heard: Sequence[Span]) -> bool:
    """Does `pcm` sound like far more than the detector heard (`heard`, where it heard speech)?"""
    sounding = sustained(sounding_frames(pcm))
    within = np.zeros_like(sounding)
    for span in heard:
        within[round(span.start / FRAME_SECONDS) : round(span.end / FRAME_SECONDS) + 1] = True
    outside = float(np.sum(sounding & ~within)) * FRAME_SECONDS
    inside = float(np.sum(sounding & within)) * FRAME_SECONDS
    return outside >= MISSED_SECONDS and inside < HEARD_SHARE * (inside + outside)


def sustained(marks: Marks) -> Marks:
    """`marks` (a frame each) less the runs of marked frames too short to be a syllable."""
    kept = marks.copy()
    start = None
    for index, marked in enumerate([*marks.tolist(), False]):
        if marked and start is None:
            start = index
        elif not marked and start is not None:
            if index - start < SUSTAINED_FRAMES:
                kept[start:index] = False
            start = None
    return kept


def shape_moves(pcm: bytes) -> bool:
    """Does the spectrum of the loud part of `pcm` change shape as speech does, not only level?"""
    samples = np.frombuffer(pcm, dtype="<i2").astype(np.float64) / 32768.0
    if samples.size < SHAPE_FRAME:
        return False
    frames = np.lib.stride_tricks.sliding_window_view(samples, SHAPE_FRAME)[::SHAPE_HOP] * np.hanning(SHAPE_FRAME)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    frequencies = np.fft.rfftfreq(SHAPE_FRAME, 1 / SAMPLE_RATE)
    edges = zip(SHAPE_BANDS_HZ, SHAPE_BANDS_HZ[1:], strict=False)
    bands = np.stack([power[:, (frequencies >= low) & (frequencies < high)].sum(axis=1) for low, high in edges], 1)
    total = bands.sum(axis=1)
    loud = (total >= np.percentile(total, LOUDEST_PERCENTILE) / 10 ** (LOUD_WITHIN_DB / 10)) & (
        total >= np.percentile(total, FLOOR_PERCENTILE) * 10 ** (OVER_FLOOR_DB / 10)
    )
    if np.sum(loud) < FEWEST_LOUD_FRAMES:
        return False
    levels = 10 * np.log10(bands[loud] + 1e-20)
    shapes = levels - levels.mean(axis=1, keepdims=True)  # each frame's level taken out: only its shape is left
    return float(shapes.std(axis=0).mean()) >= SHAPE_MOVES_DB


def whisper_is_sure(segment: Segment) -> bool:
    """Did Whisper read `segment` as speech it is sure of? Never one openai-whisper's rule calls silence, nor a read
    it judges failed, nor more words than anyone says in its time."""
    silence = segment.no_speech_prob > NO_SPEECH_PROB and segment.avg_logprob < LOWEST_LOGPROB
    failed = segment.avg_logprob < LOWEST_LOGPROB or segment.compression_ratio > MOST_COMPRESSION
    return not (silence or failed) and said_in_time(segment.text, segment.end - segment.start)


def only_noise_words(text: str) -> bool:
    """Is `text` nothing but what Whisper writes over noise (or no words at all)?"""
    words = " ".join(re.findall(r"[\w']+", text.lower()))
    return not words or words in HALLUCINATIONS


def confident_segments(segments: Iterable[S]) -> list[S]:
    """The segments of a read past the detector that Whisper is sure hold speech, less those that only say what it
    writes over noise."""
    return [segment for segment in segments if whisper_is_sure(segment) and not only_noise_words(segment.text)]
