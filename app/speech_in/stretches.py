"""Where a recording's finished stretches of speech end, told frame by frame as the audio comes.

A stretch is finished at a pause after speech (from its middle on, the next one begins), once it is long enough
for the engine to read it well on its own; one that grows to the cap without such a pause is cut at its longest
pause, as a file is (app/speech_in/segments.py). WebRTC's detector marks each 30 ms frame as speech or not.
"""

from dataclasses import dataclass

from app.speech_in.audio import SAMPLE_RATE
from app.speech_in.noise_floor import NoiseFloor
from app.speech_in.segments import FRAME_BYTES, FRAME_SECONDS, VAD_AGGRESSIVENESS, cut_at

PAUSE_SECONDS = 0.5  # people pause ~0.2-0.4 s inside a sentence, longer between them
CAP_SECONDS = 22.0  # under Whisper's 30 s window, with room for the margin it reads
# Each stretch is read without the others: pocketsphinx needs a few seconds to normalise the channel
# (segments.MIN_SECONDS), Whisper only enough words for context.
MIN_SECONDS = {"pocketsphinx": 5.0}
DEFAULT_MIN_SECONDS = 2.0


def frames_of(seconds: float) -> int:
    return round(seconds / FRAME_SECONDS)


def min_seconds(engine_kind: str) -> float:
    return MIN_SECONDS.get(engine_kind, DEFAULT_MIN_SECONDS)


@dataclass(frozen=True)
class Cut:
    end: int  # the frame the finished stretch ends at (and the next begins)
    speech_end: int  # the frame after its last speech frame


class FrameReader:
    """16 kHz mono int16 audio in any chunks -> one speech-or-not answer per whole 30 ms frame: WebRTC's, or the
    frame's level well above the recording's floor (WebRTC hears little of a whisper or a quiet voice)."""

    def __init__(self) -> None:
        import webrtcvad

        self._vad = webrtcvad.Vad(VAD_AGGRESSIVENESS)
        self._floor = NoiseFloor()
        self._rest = b""

    def feed(self, pcm: bytes) -> list[bool]:
        data = self._rest + pcm
        whole = len(data) - len(data) % FRAME_BYTES
        self._rest = data[whole:]
        sounding = self._floor.sounding(data[:whole])
        return [
            sounding[n] or self._vad.is_speech(data[i : i + FRAME_BYTES], SAMPLE_RATE)
            for n, i in enumerate(range(0, whole, FRAME_BYTES))
        ]


class StretchCutter:
    """Frames in, finished stretches out (frame numbers count from the start of the recording)."""

    def __init__(
        self, min_seconds: float = DEFAULT_MIN_SECONDS, pause: float = PAUSE_SECONDS, cap: float = CAP_SECONDS
    ) -> None:
        self._min, self._pause, self._cap = frames_of(min_seconds), frames_of(pause), frames_of(cap)
        self.begin = 0  # the open stretch's first frame
        self._frames: list[bool] = []  # the open stretch's
        self._last_speech = -1

    @property
    def speech_end(self) -> int | None:
        """The frame after the open stretch's last speech frame; None while it holds no speech."""
        return self._last_speech + 1 if self._last_speech >= self.begin else None

    def push(self, speech: bool) -> Cut | None:
        """One more frame; the cut when it finishes a stretch."""
        self._frames.append(speech)
        end = self.begin + len(self._frames)
        if speech:
            self._last_speech = end - 1
        speech_end = self.speech_end
        if speech_end is None:
            return None
        quiet = end - speech_end
        if quiet >= self._pause and len(self._frames) >= self._min:
            return self._close(speech_end + quiet // 2)
        if len(self._frames) >= self._cap:
            return self._close(self.begin + cut_at(self._frames, self._min, len(self._frames)))
        return None

    def _close(self, end: int) -> Cut:
        finished = self._frames[: end - self.begin]
        speech_end = self.begin + next((i + 1 for i in reversed(range(len(finished))) if finished[i]), 0)
        self._frames = self._frames[end - self.begin :]
        self.begin = end
        return Cut(end, speech_end)
