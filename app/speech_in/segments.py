"""Long recordings cut at pauses, so each piece is decoded in one full-utterance pass without cutting a word.

WebRTC's voice activity detector marks each 30 ms frame as speech or not; a piece ends in the longest pause
found before it grows past `max_seconds` (a hard cut only when someone talks without a pause that long).
"""

from dataclasses import dataclass

from app.speech_in.audio import BYTES_PER_SAMPLE, SAMPLE_RATE

FRAME_SECONDS = 0.03
FRAME_BYTES = round(SAMPLE_RATE * FRAME_SECONDS) * BYTES_PER_SAMPLE
MAX_SECONDS = 25.0  # under Whisper's 30 s window, and a size pocketsphinx decodes in one pass comfortably
MIN_SECONDS = 5.0  # never cut a piece shorter than this: the engine needs context to normalise the channel
VAD_AGGRESSIVENESS = 2  # 0 (keeps most) .. 3 (drops most); 2 keeps soft word endings as speech


@dataclass(frozen=True)
class Piece:
    pcm: bytes
    start: float  # seconds into the recording


def speech_frames(pcm: bytes) -> list[bool]:
    """For each 30 ms frame of 16 kHz int16 mono audio: is it speech?"""
    import webrtcvad

    vad = webrtcvad.Vad(VAD_AGGRESSIVENESS)
    return [
        vad.is_speech(pcm[i : i + FRAME_BYTES], SAMPLE_RATE) for i in range(0, len(pcm) - FRAME_BYTES + 1, FRAME_BYTES)
    ]


def cut_at(frames: list[bool], first: int, last: int) -> int:
    """The frame to cut at in [first, last): the middle of the longest run of non-speech, else `last`."""
    best_start = best_length = run_start = 0
    run = 0
    for index in range(first, last):
        if frames[index]:
            run = 0
            continue
        if run == 0:
            run_start = index
        run += 1
        if run > best_length:
            best_start, best_length = run_start, run
    return best_start + best_length // 2 if best_length else last


def split_at_pauses(pcm: bytes, max_seconds: float = MAX_SECONDS) -> list[Piece]:
    """`pcm` in pieces of at most `max_seconds`, each ending in a pause; short audio is one piece."""
    limit = round(max_seconds / FRAME_SECONDS)
    frames = speech_frames(pcm) if len(pcm) > limit * FRAME_BYTES else []
    if not frames:
        return [Piece(pcm, 0.0)]
    pieces, begin = [], 0
    shortest = round(MIN_SECONDS / FRAME_SECONDS)
    while len(frames) - begin > limit:
        cut = cut_at(frames, begin + shortest, begin + limit)
        pieces.append(Piece(pcm[begin * FRAME_BYTES : cut * FRAME_BYTES], begin * FRAME_SECONDS))
        begin = cut
    pieces.append(Piece(pcm[begin * FRAME_BYTES :], begin * FRAME_SECONDS))
    return pieces
