"""The microphone side of the window: one Dictation per recording, stopped off the GUI thread.

A recording is the start of a run (app/run/run.py): the run begins at the key press, its partials, stop, final
transcript and speech errors are its events, and reach the GUI through the bridge with the levels. A run that
saves nothing (nothing heard, cancelled, failed) ends here; one with words is handed on (`heard`) to be read. Between
recordings the next Dictation can be armed: its microphone is open already, so a recording keeps
the moment before it started (the first word is not cut). After a spoken question a recording can start
hands-free: voice activity detection ends it at the pause after the answer, or closes it when nobody speaks.
A recording may start with a sound cue, played here: the dictation keeps nothing heard before the cue has been
played, and cuts its notes out of what it heard just after (speakers may sound them late).
"""

import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from app.api.listening import Heard, LiveText, Notes, SpeechEndpoint
from app.api.runs import HeardWords, Run, Stages, drive
from app.api.settings import SpeechSettings
from app.domain.enums import UtteranceSource
from app.domain.events import ErrorCode, ListeningStarted, ListeningStopped, PartialTranscript, Stage
from app.domain.hints import Hints
from app.errors import MurmurError, SpeechError
from app.ui import sound_cues
from app.ui.background import join_all
from app.ui.bridge import PipelineBridge

log = logging.getLogger("murmur.ui.microphone")

NOTHING_HEARD = "Nothing was heard; check the microphone and speak after the ready sound"
TOO_SHORT = "Too short: hold the key while you speak"
CANCELLED = "Cancelled"
NO_ANSWER = "Nobody answered"
# A press let go sooner than this that heard nothing was a tap (an accidental one, or a try of the key): not a
# microphone problem, so no error. Held longer and still silent, the microphone is worth checking.
TAP_SECONDS = 0.3
LISTENING = (Heard.WAITING, Heard.SPEAKING)


class Recording(Protocol):
    """What VoiceInput needs of app.speech_in.dictation.Dictation."""

    def arm(self) -> None: ...
    def start(self, preroll: bool = True, *, cue: Notes | None = None) -> None: ...
    def cue_ended(self) -> None: ...
    def stop(self) -> HeardWords: ...
    def cancel(self) -> None: ...


class DictationFactory(Protocol):
    def __call__(
        self,
        settings: SpeechSettings,
        *,
        on_partial: Callable[[LiveText], None],
        on_level: Callable[[float], None],
        on_error: Callable[[str], None],
        on_audio: Callable[[bytes], None],
        hints: Callable[[], Hints],
    ) -> Recording: ...


def real_dictation(
    settings: SpeechSettings,
    *,
    on_partial: Callable[[LiveText], None],
    on_level: Callable[[float], None],
    on_error: Callable[[str], None],
    on_audio: Callable[[bytes], None],
    hints: Callable[[], Hints],
) -> Recording:
    from app.api.dictation import Dictation  # the speech stack loads only when first used

    return Dictation(
        settings, on_partial=on_partial, on_level=on_level, on_error=on_error, on_audio=on_audio, hints=hints
    )


@dataclass(frozen=True)
class _Dictation:
    token: int  # tells which recording a device failure, reported from another thread, was about
    settings: SpeechSettings  # what it was made with: an armed one made with older settings is not used
    recording: Recording


class VoiceInput(QObject):
    started = Signal()  # the microphone is open: speak now
    stopped = Signal()  # recording ended; its run goes on (`heard`) with its words, or ends here
    cancelled = Signal()
    heard = Signal(object)  # a Run with the words of its recording, to be read (emitted on its thread)
    too_short = Signal(str)  # a tap that heard nothing ended quietly: the calm words to show (TOO_SHORT)
    answer_window_closed = Signal()  # a hands-free recording heard no answer: closed without an utterance
    _answer_ended = Signal(int)  # a dictation's token: the pause after the answer came (emitted on its thread)
    _nobody_spoke = Signal(int)  # a dictation's token: the answer window passed in silence (on its thread)
    _device_failed = Signal(int)  # a dictation's token: its microphone stopped (emitted on its thread)
    _finished = Signal()  # a stopped recording's text was worked out (emitted on its thread)

    def __init__(
        self,
        settings: Callable[[], SpeechSettings],
        bridge: PipelineBridge,
        make_dictation: DictationFactory = real_dictation,
        parent: QObject | None = None,
        vocabulary: Callable[[], Hints] = Hints,
        keep: Callable[[Run], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings, self._bridge, self._make_dictation = settings, bridge, make_dictation
        self._keep = keep  # each run once it ends, also one that ends here (nothing heard, the microphone failed)
        self._vocabulary = vocabulary  # the user's words, for the final pass; read off the GUI thread
        self._recording: _Dictation | None = None
        self._started_at = 0.0  # when the recording started (monotonic): a tap is told by how long it was held
        self._endpoint: SpeechEndpoint | None = None  # set while the recording is hands-free: it ends itself
        self._armed: _Dictation | None = None  # the next recording's, its microphone already open
        self._runs: dict[int, Run] = {}  # a recording's token -> its run, while it records
        self._arming = False
        self._tokens = itertools.count(1)
        self._finishing: list[threading.Thread] = []
        self._device_failed.connect(self._on_device_failed)
        self._finished.connect(self._arm_next)
        self._answer_ended.connect(self._on_answer_ended)
        self._nobody_spoke.connect(self._on_nobody_spoke)

    def is_recording(self) -> bool:
        return self._recording is not None

    def is_listening_for_answer(self) -> bool:
        """A hands-free recording after a spoken question is open."""
        return self._recording is not None and self._endpoint is not None

    def is_held(self) -> bool:
        """A recording the user started (and ends, with the key or the button) is open."""
        return self._recording is not None and self._endpoint is None

    def listen_for_answer(self, seconds: float, cue: Notes | None = None) -> None:
        """Record hands-free: the pause after speech ends it, `seconds` of silence closes it with nothing said.
        Without the armed microphone's moment before: it holds the end of Murmur's own question."""
        if self._recording is not None:
            return
        self._endpoint = SpeechEndpoint(seconds)
        self.start(preroll=False, cue=cue)
        if self._recording is None:
            self._endpoint = None

    def hold_answer(self) -> None:
        """The user pressed the key during a hands-free recording: it goes on as theirs, ended by letting go."""
        self._endpoint = None

    def arm(self) -> None:
        """Keep a microphone open between recordings, so each keeps the 300 ms before its start. The
        microphone stays open (the desktop may show it in use) until `disarm()`: pause and quit call it."""
        self._arming = True
        self._arm_next()

    def disarm(self) -> None:
        """Close the armed microphone; a recording then opens one when it starts."""
        self._arming = False
        armed, self._armed = self._armed, None
        if armed is not None:
            armed.recording.cancel()

    def start(self, preroll: bool = True, cue: Notes | None = None) -> None:
        """Begin a run at the microphone: the key press, or the window for an answer. `cue`: notes played as it
        begins; the recording keeps what is heard after them."""
        if self._recording is not None:
            return
        run = self._new_run()
        run.begin()
        dictation = self._take_armed()
        try:
            dictation = dictation or self._make()
            dictation.recording.start(preroll, cue=cue)
        except Exception as error:
            if dictation is not None:
                dictation.recording.cancel()  # it may hold the microphone open
            self._report_start_failure(run, error)
            return
        self._recording = dictation
        self._runs[dictation.token] = run
        self._started_at = time.monotonic()
        if cue is not None:
            sound_cues.play(cue, then=dictation.recording.cue_ended)
        log.info("recording started")
        run.report(ListeningStarted())
        self.started.emit()

    def stop(self) -> None:
        """End the recording; the final transcript is worked out on a thread of its own."""
        dictation, self._recording = self._recording, None
        if dictation is None:
            return
        hands_free, self._endpoint = self._endpoint is not None, None
        run = self._runs.pop(dictation.token)
        run.report(ListeningStopped())
        self.stopped.emit()
        tap = time.monotonic() - self._started_at < TAP_SECONDS
        thread = threading.Thread(
            target=self._finish, args=(dictation.recording, run, tap, hands_free), name="murmur-transcribe", daemon=True
        )
        self._finishing = [t for t in self._finishing if t.is_alive()] + [thread]
        thread.start()

    def cancel(self) -> None:
        """End the recording and drop what was heard (the user asked for exactly that)."""
        dictation, self._recording, self._endpoint = self._recording, None, None
        if dictation is not None:
            dictation.recording.cancel()
            self._runs.pop(dictation.token).end(CANCELLED)
            self.cancelled.emit()
            self._arm_next()

    def wait_for_transcripts(self, timeout: float) -> bool:
        """At quit: let recordings that were stopped produce their text (it goes to the bridge, to be
        submitted); False if one was still being worked out after `timeout` seconds in all."""
        return join_all(self._finishing, timeout)

    def _new_run(self) -> Run:
        return Run(UtteranceSource.VOICE, self._bridge.post_event, first=Stage.LISTEN, keep=self._keep)

    def _make(self) -> _Dictation:
        settings, token, bridge = self._settings(), next(self._tokens), self._bridge
        recording = self._make_dictation(
            settings,
            on_partial=partial(self._on_partial, token),
            on_level=bridge.post_level,
            on_error=partial(self._on_dictation_error, token),
            on_audio=partial(self._on_audio, token),
            hints=self._vocabulary,
        )
        return _Dictation(token, settings, recording)

    def _take_armed(self) -> _Dictation | None:
        """The armed dictation, if it was made with the speech settings of now (else it is closed)."""
        armed, self._armed = self._armed, None
        if armed is not None and armed.settings != self._settings():
            armed.recording.cancel()
            return None
        return armed

    def _arm_next(self) -> None:
        """Arm the next recording's dictation (when arming is on and none is armed or recording)."""
        self._armed = self._take_armed()
        if not self._arming or self._armed is not None or self._recording is not None:
            return
        try:
            dictation = self._make()
            dictation.recording.arm()
        except MurmurError as error:  # the user hears why when a recording cannot start either
            log.info("microphone not armed: %s", error)
            return
        except Exception:
            log.exception("could not arm the microphone")
            return
        self._armed = dictation

    def _report_start_failure(self, run: Run, error: Exception) -> None:
        if isinstance(error, MurmurError):
            message = str(error)
        else:  # a bug in the speech stack must not take the app down
            log.error("could not start recording", exc_info=error)
            message = f"could not start recording: {error!r} (this is a bug; details in the log)"
        _fail(run, message, Stage.LISTEN)

    def _on_partial(self, token: int, live: LiveText) -> None:
        """A recording's growing transcript (its thread), told as its run's."""
        if (run := self._runs.get(token)) is not None:
            run.report(PartialTranscript(live.text, live.tentative))

    def _on_dictation_error(self, token: int, message: str) -> None:
        """A dictation's microphone stopped (its thread): said as its run's failure, and that recording ends
        (what was heard goes on). An armed microphone's failure, before any press, is a run of its own."""
        run = self._runs.get(token)
        if run is None:
            _fail(self._new_run(), message, Stage.LISTEN)
        else:
            run.fail(message, ErrorCode.SPEECH, Stage.LISTEN)
        self._device_failed.emit(token)

    def _on_audio(self, token: int, pcm: bytes) -> None:
        """A dictation heard `pcm` (its thread): a hands-free one is told where the answer is."""
        endpoint, recording = self._endpoint, self._recording
        if endpoint is None or recording is None or recording.token != token or endpoint.state not in LISTENING:
            return
        heard = endpoint.feed(pcm)
        if heard is Heard.ENDED:
            self._answer_ended.emit(token)
        elif heard is Heard.SILENT:
            self._nobody_spoke.emit(token)

    def _is_current_hands_free(self, token: int) -> bool:
        return self._endpoint is not None and self._recording is not None and self._recording.token == token

    def _on_answer_ended(self, token: int) -> None:
        if self._is_current_hands_free(token):
            log.info("the answer ended (%.1f s of speech)", self._endpoint.speech_seconds if self._endpoint else 0)
            self.stop()

    def _on_nobody_spoke(self, token: int) -> None:
        if not self._is_current_hands_free(token):
            return
        dictation, self._recording, self._endpoint = self._recording, None, None
        assert dictation is not None
        log.info("nobody answered; the microphone closes")
        dictation.recording.cancel()
        self._runs.pop(dictation.token).end(NO_ANSWER)
        self.answer_window_closed.emit()
        self._arm_next()

    def _on_device_failed(self, token: int) -> None:
        if self._recording is not None and self._recording.token == token:
            self.stop()  # what was heard before is kept, as when the user lets go

    def _finish(self, recording: Recording, run: Run, tap: bool, hands_free: bool) -> None:
        try:
            self._transcribe(recording, run, tap, hands_free)
        finally:
            self._finished.emit()

    def _transcribe(self, recording: Recording, run: Run, tap: bool, hands_free: bool) -> None:
        try:
            drive(run, Stages(hear=partial(_heard, recording)), until=Stage.TRANSCRIBE)
        except MurmurError:
            return  # the run's failure, reported and ended by its driver
        if run.text:  # even from a tap: the armed microphone's moment before the press may hold words
            self.heard.emit(run)
        elif hands_free:  # a sound that was no words (a cough, a door): as if nobody had answered
            log.info("the hands-free recording heard no words")
            run.end(NO_ANSWER)
            self.answer_window_closed.emit()
        elif tap:
            log.info("a tap of the talk key heard nothing")
            run.end(TOO_SHORT)
            self.too_short.emit(TOO_SHORT)
        else:
            _fail(run, NOTHING_HEARD, Stage.TRANSCRIBE)


def _heard(recording: Recording) -> HeardWords:
    """The recording's final text; a fault in the speech stack is the run's speech failure, not the app's end."""
    try:
        return recording.stop()
    except MurmurError:
        raise
    except Exception as error:
        log.exception("transcription failed")
        raise SpeechError(f"transcription failed: {error!r} (this is a bug; details in the log)") from error


def _fail(run: Run, message: str, stage: Stage) -> None:
    """End `run` with a speech failure that saved nothing."""
    run.fail(message, ErrorCode.SPEECH, stage)
    run.end(message)
