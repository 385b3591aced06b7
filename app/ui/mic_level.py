"""A live level for one microphone, for the settings dialog's meter.

The speech package's `Microphone` is opened and read on a thread of its own (opening can block on
PortAudio); each block's RMS level (`rms_dbfs`) and any error reach the GUI thread through a queued
signal, never by touching a widget. Every `start()` is a new session with a number: what an older
session still had queued is dropped, so after `stop()` no level arrives.
"""

import logging
import threading

from PySide6.QtCore import QObject, Signal

from app.api.listening import Microphone, rms_dbfs
from app.errors import MurmurError

log = logging.getLogger("murmur.ui.mic_level")

POLL_SECONDS = 0.03  # blocks come every 100 ms
JOIN_SECONDS = 10.0


def one_line(text: str) -> str:
    return " ".join(text.split())


class _Relay(QObject):
    """Owned by the `MicrophoneLevel` (GUI thread); its signals are emitted on the reader's thread."""

    level = Signal(int, float)  # session, dBFS
    failed = Signal(int, str)  # session, one line


class MicrophoneLevel(QObject):
    level_measured = Signal(float)  # dBFS of the last block, on the GUI thread
    failed = Signal(str)  # why the microphone cannot be read, one line, on the GUI thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.device: str | None = None  # the device spec of the running session, None when stopped
        self.microphone: Microphone | None = None  # the last session's microphone (closed once stopped)
        self._session = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._relay = _Relay(self)
        self._relay.level.connect(self._on_level)
        self._relay.failed.connect(self._on_failed)

    @property
    def is_open(self) -> bool:
        return self.microphone is not None and self.microphone.is_open

    def start(self, device: str) -> None:
        """Read `device` ("" for the system default); a running session on another device stops first."""
        if self._thread is not None and self.device == device:
            return
        self.stop()
        self._session += 1
        self._stop = threading.Event()
        self.device, self.microphone = device, Microphone(device)
        self._thread = threading.Thread(
            target=self._read,
            args=(self._session, self.microphone, self._stop, self._relay),
            name="murmur-mic-level",
            daemon=True,
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop reading and close the stream; returns once it is closed. Queued levels are dropped."""
        thread, self._thread = self._thread, None
        self.device = None
        self._session += 1
        if thread is not None:
            self._stop.set()
            thread.join(JOIN_SECONDS)
            if thread.is_alive():
                log.warning("the microphone level reader did not stop within %.0f s", JOIN_SECONDS)

    # -- the reader's thread ----------------------------------------------------------------------

    @staticmethod
    def _read(session: int, microphone: Microphone, stop: threading.Event, relay: _Relay) -> None:
        try:
            try:
                microphone.open()
            except MurmurError as error:
                relay.failed.emit(session, one_line(str(error)))
                return
            while not stop.is_set():
                pcm = microphone.take()
                if pcm:
                    relay.level.emit(session, rms_dbfs(pcm))
                    continue
                failure = microphone.failure()
                if failure is not None:
                    relay.failed.emit(session, one_line(failure))
                    return
                stop.wait(POLL_SECONDS)
        except RuntimeError:  # the owner, and so the relay, was deleted
            log.info("the microphone level reader outlived its dialog")
        except Exception as error:  # never let the meter take the app down
            log.exception("the microphone level reader failed")
            try:
                relay.failed.emit(session, one_line(f"cannot read the microphone: {error}"))
            except RuntimeError:
                pass
        finally:
            microphone.close()

    # -- the GUI thread -----------------------------------------------------------------------------

    def _on_level(self, session: int, dbfs: float) -> None:
        if session == self._session:
            self.level_measured.emit(dbfs)

    def _on_failed(self, session: int, line: str) -> None:
        if session == self._session:
            self.failed.emit(line)
