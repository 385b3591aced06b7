"""Murmur's cue heard at a recording's start is cut off by its notes, and nothing else is: the speech after it is
kept whole, a recording without it keeps everything, a note hummed after it is the user's. The real cues (the
tones the desktop plays, resampled as the microphone's capture does) and flite speech."""

import pytest

from app.speech_in.audio import BYTES_PER_SAMPLE, SAMPLE_RATE, StreamResampler, as_pcm16
from app.speech_in.cue_heard import FRAME, CueCutter, cue_moments
from app.speech_in.cue_notes import ANSWER, START, Notes
from app.ui.sound_cues import RATE, tone
from tests.support.speech import captured_speech

BLOCK = round(0.1 * SAMPLE_RATE) * BYTES_PER_SAMPLE  # as the microphone hands sound on


def heard(notes: Notes) -> bytes:
    """The cue of `notes` as the microphone hands it on: the desktop's tone, at 16 kHz."""
    return StreamResampler(RATE).convert(as_pcm16(tone(notes)), last=True)


def silence(seconds: float) -> bytes:
    return bytes(round(seconds * SAMPLE_RATE) * BYTES_PER_SAMPLE)


def kept(notes: Notes, pcm: bytes) -> bytes:
    """What a recording started with the cue of `notes` keeps of `pcm`, heard block by block."""
    cutter = CueCutter(notes)
    blocks = [pcm[at : at + BLOCK] for at in range(0, len(pcm), BLOCK)]
    return b"".join(cutter.feed(block, last=at == len(blocks) - 1) for at, block in enumerate(blocks))


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return captured_speech("buy milk and bread", tmp_path_factory.mktemp("said"))


@pytest.mark.parametrize("notes", [START, ANSWER])
@pytest.mark.parametrize("late", [0.0, 0.25, 0.45])
def test_a_cue_heard_late_is_cut_and_the_words_after_it_kept_whole(notes: Notes, late: float, speech: bytes) -> None:
    pause = silence(0.1)  # the user begins to speak that soon after hearing the cue
    recording = kept(notes, silence(late) + heard(notes) + pause + speech)
    assert cue_moments(recording, notes) == []
    assert recording.endswith(speech), "the words were cut"
    # Cut within a frame of where the cue ended: the pause after it is kept, give or take the cue's fading end.
    assert abs(len(recording) - len(pause + speech)) <= FRAME * BYTES_PER_SAMPLE, len(recording) - len(speech)


def test_a_recording_without_the_cue_keeps_everything(speech: bytes) -> None:
    assert kept(START, speech) == speech, "some of the words were cut"
    short = speech[: BLOCK * 3]
    assert kept(START, short) == short, "some of a recording stopped before the cue could be told was cut"


def test_a_recording_stopped_right_after_the_cue_keeps_none_of_it() -> None:
    assert cue_moments(kept(START, silence(0.1) + heard(START) + silence(0.05)), START) == []


def test_a_note_hummed_after_the_cue_is_the_users(speech: bytes) -> None:
    hummed = heard((660.0,) * 4)  # 0.2 s on the start cue's first note
    recording = kept(START, heard(START) + silence(0.15) + hummed + speech)
    assert recording.endswith(hummed + speech), "the hummed note was cut"
