"""Speech the voice activity detectors miss (whispers, very quiet voices), read by Whisper without them.

Silero and WebRTC learned speech from voiced sound; a whisper has no voice, and a voice across the room little
that stands out, so they hear nothing where Whisper reads the words well. When the audio sounds like far more than
the detector heard (sound well above the recording's noise floor, app/speech_in/noise_floor.py), Whisper reads all
of it and keeps only what it is itself sure of: not a segment openai-whisper's rule calls silence, nor a read it
judges failed, nor one that only says what Whisper writes over noise.
"""

import re
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

import numpy as np

from app.speech_in.noise_floor import Marks, sounding_frames
from app.speech_in.segments import FRAME_SECONDS
from app.speech_in.vad import Span, Speech

# Missed: this much sound outside what the detector heard, and the detector heard under a fifth of the sound. Heard
# speech between breaths or gusts is not missed speech: read past the detector, Whisper reads that speech again in
# the noise.
MISSED_SECONDS = 0.5
HEARD_SHARE = 0.2
# Sound that lasts: a syllable, whispered or not, sounds for 0.1-0.3 s; keys typed, clicks and taps for a few
# milliseconds each, and over a run of them Whisper reads words nobody said ("Hey guys! Welcome to my channel!").
SUSTAINED_FRAMES = 3  # 90 ms
# openai-whisper's own thresholds: a segment is silence when Whisper thinks so (no_speech_prob over 0.6) and is unsure
# of its words (average log-probability under -1.0); a read under that log-probability, or so repetitive that its
# text compresses over 2.4 times, is one Whisper judges failed (it tries again, less greedily). Without a detector
# behind it, a failed read is not kept either: over coughs and chords Whisper loops on one sentence with
# no_speech_prob near 0.6 and a good log-probability, or writes a sentence it is unsure of.
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
    def no_speech_prob(self) -> float: ...
    @property
    def avg_logprob(self) -> float: ...
    @property
    def compression_ratio(self) -> float: ...


S = TypeVar("S", bound=Segment)


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


def worth_reading(pcm: bytes, speech: Speech, engine_kind: str) -> bool:
    """Is there anything in `pcm` for an engine of `engine_kind` to read: speech the detector heard, or, for Whisper
    (which keeps only what it is sure of when it reads past the detector), sound the detector missed?"""
    return speech.heard or (engine_kind == "whisper" and speech_missed(pcm, speech.spans or []))


def whisper_is_sure(segment: Segment) -> bool:
    """Did Whisper read `segment` as speech it is sure of? Never one openai-whisper's rule calls silence, nor a read
    it judges failed."""
    silence = segment.no_speech_prob > NO_SPEECH_PROB and segment.avg_logprob < LOWEST_LOGPROB
    failed = segment.avg_logprob < LOWEST_LOGPROB or segment.compression_ratio > MOST_COMPRESSION
    return not (silence or failed)


def only_noise_words(text: str) -> bool:
    """Is `text` nothing but what Whisper writes over noise (or no words at all)?"""
    words = " ".join(re.findall(r"[\w']+", text.lower()))
    return not words or words in HALLUCINATIONS


def confident_segments(segments: Iterable[S]) -> list[S]:
    """The segments of a read past the detector that Whisper is sure hold speech, less those that only say what it
    writes over noise."""
    return [segment for segment in segments if whisper_is_sure(segment) and not only_noise_words(segment.text)]
