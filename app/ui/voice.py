"""The microphone side of the window: one Dictation per recording, stopped off the GUI thread.

Partials, levels, the final transcript and speech errors reach the GUI through the bridge.
"""

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from app.config import SpeechSettings
from app.errors import MurmurError
from app.ui.bridge import PipelineBridge

log = logging.getLogger("murmur.ui.voice")

NOTHING_HEARD = "Nothing was heard; check the microphone and speak after the ready sound"


class Recording(Protocol):
    """What VoiceInput needs of app.speech.dictation.Dictation."""

    def start(self) -> None: ...
    def stop(self) -> "HasText": ...
    def cancel(self) -> None: ...


class HasText(Protocol):
    @property
    def text(self) -> str: ...


class DictationFactory(Protocol):
    def __call__(
        self,
        settings: SpeechSettings,
        *,
        on_partial: Callable[[str], None],
        on_level: Callable[[float], None],
        on_error: Callable[[str], None],
        hints: Callable[[], Sequence[str]],
    ) -> Recording: ...


def real_dictation(
    settings: SpeechSettings,
    *,
    on_partial: Callable[[str], None],
    on_level: Callable[[float], None],
    on_error: Callable[[str], None],
    hints: Callable[[], Sequence[str]],
) -> Recording:
    from app.speech.dictation import Dictation  # the speech stack loads only when first used

    return Dictation(settings, on_partial=on_partial, on_level=on_level, on_error=on_error, hints=hints)


class VoiceInput(QObject):
    started = Signal()  # the microphone is open: speak now
    stopped = Signal()  # recording ended; the transcript follows through bridge.transcribed
    cancelled = Signal()

    def __init__(
        self,
        settings: Callable[[], SpeechSettings],
        bridge: PipelineBridge,
        make_dictation: DictationFactory = real_dictation,
        parent: QObject | None = None,
        vocabulary: Callable[[], Sequence[str]] = tuple,
    ) -> None:
        super().__init__(parent)
        self._settings, self._bridge, self._make_dictation = settings, bridge, make_dictation
        self._vocabulary = vocabulary  # the user's words, for the final pass; read off the GUI thread
        self._recording: Recording | None = None
        self._finishing: list[threading.Thread] = []

    def is_recording(self) -> bool:
        return self._recording is not None

    def start(self) -> None:
        if self._recording is not None:
            return
        bridge = self._bridge
        try:
            recording = self._make_dictation(
                self._settings(),
                on_partial=bridge.post_partial,
                on_level=bridge.post_level,
                on_error=bridge.post_speech_error,
                hints=self._vocabulary,
            )
            recording.start()
        except MurmurError as error:
            bridge.post_speech_error(str(error))
            return
        except Exception as error:  # a bug in the speech stack must not take the app down
            log.exception("could not start recording")
            bridge.post_speech_error(f"could not start recording: {error!r} (this is a bug; details in the log)")
            return
        self._recording = recording
        self.started.emit()

    def stop(self) -> None:
        """End the recording; the final transcript is worked out on a thread of its own."""
        recording, self._recording = self._recording, None
        if recording is None:
            return
        self.stopped.emit()
        thread = threading.Thread(target=self._finish, args=(recording,), name="murmur-transcribe", daemon=True)
        self._finishing = [t for t in self._finishing if t.is_alive()] + [thread]
        thread.start()

    def cancel(self) -> None:
        recording, self._recording = self._recording, None
        if recording is not None:
            recording.cancel()
            self.cancelled.emit()

    def wait_for_transcripts(self, timeout: float) -> None:
        """At quit: let recordings that were stopped produce their text (it is then submitted)."""
        for thread in self._finishing:
            thread.join(timeout)

    def _finish(self, recording: Recording) -> None:
        try:
            text = recording.stop().text.strip()
        except MurmurError as error:
            self._bridge.post_speech_error(str(error))
            return
        except Exception as error:
            log.exception("transcription failed")
            self._bridge.post_speech_error(f"transcription failed: {error!r} (this is a bug; details in the log)")
            return
        if text:
            self._bridge.post_transcript(text)
        else:
            self._bridge.post_speech_error(NOTHING_HEARD)
