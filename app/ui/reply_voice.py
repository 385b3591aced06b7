"""Murmur's voice in the app: a reply said on a thread of its own, stopped the moment the user talks.

Saying it is the last part of its run: ReplyStarted, then ReplyFinished, ReplyInterrupted or a failure (an
ErrorEvent), under the run's ID. When a reply has been heard to its end and it asks something, ReplyFinished
says to listen for the answer; the app then opens the microphone hands-free (app.ui.microphone).
"""

import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.api.runs import FollowUpAfter, Run, SpokenReply
from app.api.settings import SpeechSettings
from app.api.speaking import Speaker
from app.domain.enums import UtteranceSource
from app.domain.events import ErrorCode, EventCallback, ReplyFinished, ReplyInterrupted, ReplyStarted, Stage
from app.errors import MurmurError
from app.ui.background import join_all

log = logging.getLogger("murmur.ui.reply_voice")


class ReplyVoice(QObject):
    _ended = Signal(int, bool, str)  # a reply's number, listen after, the failure ("" if none): from its thread

    def __init__(
        self, settings: Callable[[], SpeechSettings], on_event: EventCallback, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._settings, self._on_event = settings, on_event
        self._speaker: Speaker | None = None
        self._runs: dict[int, Run] = {}  # a reply's number -> its run, until its thread has ended
        self._number = 0  # the reply being said: a stopped one's end is not this one's
        self._threads: list[threading.Thread] = []  # the replies' threads, stopped ones too until they end
        self._ended.connect(self._on_ended)

    def is_speaking(self) -> bool:
        return self._speaker is not None

    def say(self, reply: SpokenReply, run: Run | None = None) -> None:
        """Say `reply`, the last step of `run` (cutting off one still being said); None: a reply of no run."""
        self.stop()
        settings = self._settings()
        self._number += 1
        self._runs[self._number] = run = run or Run(UtteranceSource.TYPED, self._on_event)
        self._speaker = speaker = Speaker(settings)
        listen = reply.listens_after(FollowUpAfter(settings.followup_after), settings.followup_seconds)
        thread = threading.Thread(
            target=self._say, args=(speaker, reply.text, self._number, listen), name="murmur-speak", daemon=True
        )
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()
        run.report(ReplyStarted(reply.text))

    def stop(self) -> bool:
        """Stop speaking now (the user pressed the key); True if something was being said."""
        speaker, self._speaker = self._speaker, None
        if speaker is None:
            return False
        speaker.stop()
        return True

    def wait_until_quiet(self, timeout: float) -> bool:
        """At quit, once stopped: let the replies' threads close the speaker; False if one was still open after
        `timeout` seconds in all."""
        return join_all(self._threads, timeout)

    def _say(self, speaker: Speaker, text: str, number: int, listen: bool) -> None:
        try:
            played = speaker.say(text)
        except MurmurError as error:
            self._ended.emit(number, False, str(error))
            return
        except Exception as error:  # a bug in a voice must not take the app down; the reply is on screen
            log.exception("speaking failed")
            self._ended.emit(number, False, f"the reply could not be spoken: {error!r} (this is a bug)")
            return
        first = "-" if played.first_audio_seconds is None else f"{played.first_audio_seconds * 1000:.0f} ms"
        log.info("spoke %.1f s%s; the first sound came after %s", played.seconds, " (stopped)" * played.stopped, first)
        self._ended.emit(number, listen and not played.stopped, "")

    def _on_ended(self, number: int, listen: bool, failure: str) -> None:
        """A reply's thread ended: heard to the end, failed, or (once the speaker is quiet) interrupted."""
        run = self._runs.pop(number)
        current = number == self._number  # else cut off by a newer one, which decides what follows
        was_speaking = current and self._speaker is not None
        if current:
            self._speaker = None
        if failure and current:
            run.fail(failure, ErrorCode.SPEECH, Stage.REPLY)
        elif was_speaking:
            run.report(ReplyFinished(listen))
        else:
            run.report(ReplyInterrupted())
