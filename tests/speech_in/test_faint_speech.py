"""Whispers the voice activity detector misses are told from noise: the blind set of tests/speech_in/faint_material.py.

The rule is checked as the detector leaves it at its hardest, having heard nothing in any clip; what Whisper reads
past the detector is kept only where it is sure of it.
"""

from dataclasses import dataclass

import pytest

from app.speech_in.faint_speech import confident_segments, faint_speech
from app.speech_in.vad import Span, Speech
from tests.speech_in.faint_material import WHISPERED, Clip, noises, real_whispers, whispers

HEARD_NOTHING = Speech(False, [])


@pytest.mark.parametrize("clip", noises(), ids=lambda clip: clip.name)
def test_no_noise_sounds_like_speech_the_detector_missed(clip: Clip) -> None:
    assert not faint_speech(clip.pcm, HEARD_NOTHING)


def test_whispers_sound_like_speech_the_detector_missed() -> None:
    clips = real_whispers() + whispers(WHISPERED[:4])
    assert [clip.name for clip in clips if not faint_speech(clip.pcm, HEARD_NOTHING)] == []


def test_a_whisper_the_detector_heard_is_not_missed() -> None:
    clip = whispers(WHISPERED[:1])[0]
    assert not faint_speech(clip.pcm, Speech(True, [Span(0.0, len(clip.pcm) / 32000)]))


@dataclass(frozen=True)
class Read:
    """A segment as faster-whisper gives it, with what the rule reads."""

    text: str
    no_speech_prob: float
    avg_logprob: float
    compression_ratio: float = 1.0
    start: float = 0.0
    end: float = 3.0


def test_whisper_keeps_only_what_it_is_sure_of_when_it_reads_past_the_detector() -> None:
    sure = Read(" Remind me to renew the car insurance.", 0.55, -0.5)
    kept = confident_segments(
        [
            sure,
            Read(" Okay.", 0.78, -2.19),  # openai-whisper's silence: no speech, and unsure of its words
            Read(" This is the end of this video.", 0.57, -1.31),  # a read Whisper judges failed
            Read(" I'm going to kill you, I'm going to kill you, I'm going to kill you.", 0.62, -0.62, 3.91),  # a loop
            Read(" Thank you.", 0.3, -0.2),  # what Whisper writes over noise
            Read(" you", 0.3, -0.2),
            Read(" I'm not sure if I can get a car or a car", 0.3, -0.5, end=1.0),  # more words than fit in a second
        ]
    )
    assert kept == [sure]
