"""Playing an utterance's kept recording on the speaker, off the GUI thread, as `murmur play` does; a second press
stops it. One plays at a time."""

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.api.recordings import RATE
from app.api.service import MurmurService
from app.api.speaking import Playback, Played, Sound
from app.ui.background import join_all, run_in_thread
from app.ui.worker import Call, Failed, JobOutcome


class RecordingPlayer(QObject):
    playing_changed = Signal(object)  # the utterance whose recording plays now, or None
    failed = Signal(str)  # why it could not be played, as the window says it

    def __init__(self, service: MurmurService, speaker: Callable[[], str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self._speaker = speaker  # the output device as the voice settings name it now ("": the default)
        self._playback: Playback | None = None
        self._threads: list[threading.Thread] = []  # those playing, or closing the speaker after a stop

    def toggle(self, utterance_id: int) -> None:
        """Play utterance `utterance_id`'s recording; while one plays, stop it instead."""
        if self.stop():
            return
        playback = self._playback = Playback(self._speaker())
        service = self.service

        def play() -> Played:
            return playback.play([Sound(service.recording_sound(utterance_id), RATE)], RATE)

        self.playing_changed.emit(utterance_id)
        self._threads = [t for t in self._threads if t.is_alive()]
        self._threads.append(run_in_thread(Call("play-recording", play), self, self._on_played))

    def stop(self) -> bool:
        """Stop the recording playing, if one is; whether one was."""
        if self._playback is None:
            return False
        self._playback.stop()
        return True

    def wait(self, timeout: float) -> bool:
        """Wait `timeout` seconds at most for the speaker to close (after `stop`); False if it was still open."""
        return join_all(self._threads, timeout)

    def _on_played(self, outcome: JobOutcome[Played]) -> None:
        self._playback = None
        self.playing_changed.emit(None)
        if isinstance(outcome, Failed):
            self.failed.emit(outcome.error)
