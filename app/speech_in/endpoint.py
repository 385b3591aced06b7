"""When a hands-free answer starts and ends: WebRTC's voice activity detector over a follow-up recording.

After Murmur asks a question the microphone opens without the hotkey; nobody lets go of a key, so the end of
the answer is a pause, and a window in which nobody speaks closes without an utterance. Speech must last a
moment before the answer counts as begun: a click or a knock does not open it.
"""

from enum import StrEnum

from app.speech_in.audio import SAMPLE_RATE
from app.speech_in.segments import FRAME_BYTES, FRAME_SECONDS, VAD_AGGRESSIVENESS

END_SILENCE_SECONDS = 0.8  # a pause this long after speech ends the answer
START_SPEECH_SECONDS = 0.24  # voiced frames, close together, before the answer counts as begun
START_SPAN_SECONDS = 0.6  # ...within this much audio
MAX_ANSWER_SECONDS = 30.0  # an answer longer than this is cut (someone talking nearby, a radio)


class Heard(StrEnum):
    WAITING = "waiting"  # nothing said yet, the window still open
    SPEAKING = "speaking"
    ENDED = "ended"  # the answer was said and a pause followed: transcribe it
    SILENT = "silent"  # the window closed with nothing said: no utterance


class SpeechEndpoint:
    """Fed the follow-up's audio (16 kHz mono int16) as it comes; says where the answer is."""

    def __init__(self, window_seconds: float, end_silence: float = END_SILENCE_SECONDS) -> None:
        import webrtcvad

        self._vad = webrtcvad.Vad(VAD_AGGRESSIVENESS)
        self._window_frames = round(window_seconds / FRAME_SECONDS)
        self._end_frames = round(end_silence / FRAME_SECONDS)
        self._start_frames = round(START_SPEECH_SECONDS / FRAME_SECONDS)
        self._span_frames = round(START_SPAN_SECONDS / FRAME_SECONDS)
        self._pending = b""
        self._frames = 0
        self._recent: list[bool] = []  # the last span's frames, while waiting
        self._started_at: int | None = None  # the frame the answer began at
        self._quiet = 0  # non-speech frames in a row since the last voiced one
        self.state = Heard.WAITING

    @property
    def speech_seconds(self) -> float:
        """How long the answer has lasted so far (0 before it began)."""
        return 0.0 if self._started_at is None else (self._frames - self._started_at) * FRAME_SECONDS

    def feed(self, pcm: bytes) -> Heard:
        data = self._pending + pcm
        whole = len(data) - len(data) % FRAME_BYTES
        self._pending = data[whole:]
        for start in range(0, whole, FRAME_BYTES):
            if self.state in (Heard.ENDED, Heard.SILENT):
                break
            self._frame(self._vad.is_speech(data[start : start + FRAME_BYTES], SAMPLE_RATE))
        return self.state

    def _frame(self, voiced: bool) -> None:
        self._frames += 1
        if self.state is Heard.WAITING:
            self._recent = [*self._recent[-(self._span_frames - 1) :], voiced]
            if sum(self._recent) >= self._start_frames:
                self.state, self._started_at = Heard.SPEAKING, self._frames - len(self._recent)
            elif self._frames >= self._window_frames:
                self.state = Heard.SILENT
            return
        self._quiet = 0 if voiced else self._quiet + 1
        if self._quiet >= self._end_frames or self.speech_seconds >= MAX_ANSWER_SECONDS:
            self.state = Heard.ENDED
