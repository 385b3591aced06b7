"""A stand-in for app.speech_in.dictation.Dictation, for the app's tests of what happens around a recording
(arming, quitting, a microphone that fails): no audio, the text is what the test says was heard."""

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.config import SpeechSettings
from app.speech_in.cue_notes import Notes
from app.speech_in.transcriber import LiveText


@dataclass(frozen=True)
class Heard:
    text: str
    audio: bytes = b""
    faint: bool = False


@dataclass
class FakeDictation:
    settings: SpeechSettings
    on_error: Callable[[str], None]
    on_audio: Callable[[bytes], None]  # a test feeds real speech here, as the real one's microphone would
    heard: "FakeMicrophone"
    # A test says what the growing transcript is, as the real one's engine would (all of it still tentative).
    on_partial: Callable[[str], None]
    armed: bool = False
    started: bool = False
    preroll: bool = True  # started keeping the armed moment before
    cue: Notes | None = None  # the notes of the sound cue it started with, whose end it waits for
    cue_played: bool = False  # told that the cue has been played
    stopped: bool = False
    cancelled: bool = False

    @property
    def is_open(self) -> bool:
        """Would the real one hold the microphone open now."""
        return (self.armed or self.started) and not (self.stopped or self.cancelled)

    def arm(self) -> None:
        self.armed = True

    def start(self, preroll: bool = True, *, cue: Notes | None = None) -> None:
        self.started, self.preroll, self.cue = True, preroll, cue

    def cue_ended(self) -> None:
        self.cue_played = True

    def stop(self) -> Heard:
        """Like the real one: the microphone closes at once, the final text takes a while."""
        self.stopped = True
        if not self.heard.transcribing.wait(timeout=30):
            raise AssertionError("the test never let the transcription finish")
        return Heard(self.heard.text, self.heard.audio, self.heard.faint)

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeMicrophone:
    """A DictationFactory: every dictation it makes hears `text`; clearing `transcribing` holds their stop()."""

    text: str = "buy oat milk"
    audio: bytes = b""  # what every dictation heard, as the real one's microphone hands it on
    faint: bool = False  # read past the voice detector, as the real one reads a whisper
    made: list[FakeDictation] = field(default_factory=list)
    transcribing: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.transcribing.set()

    def __call__(
        self,
        settings: SpeechSettings,
        *,
        on_partial: Callable[[LiveText], None],
        on_level: Callable[[float], None],
        on_error: Callable[[str], None],
        on_audio: Callable[[bytes], None],
        hints: Callable[[], Sequence[str]],
    ) -> FakeDictation:
        dictation = FakeDictation(settings, on_error, on_audio, self, lambda text: on_partial(LiveText(tentative=text)))
        self.made.append(dictation)
        return dictation

    def open(self) -> list[FakeDictation]:
        """The dictations holding the microphone open now."""
        return [d for d in self.made if d.is_open]
