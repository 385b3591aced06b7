"""SIGTERM and SIGINT (the session ending, `kill`, Ctrl+C in the terminal that started Murmur) quit the app the
way its Quit does, so what was said is kept and the database closed.

Python runs a signal's handler only between bytecodes, and Qt's event loop runs none while it waits: the signal's
number is also written to a socket that Qt watches (signal.set_wakeup_fd), which wakes the loop, and the handler
runs at the next line of Python.
"""

import signal
import socket
from collections.abc import Callable
from contextlib import suppress
from types import FrameType

from PySide6.QtCore import QObject, QSocketNotifier, QTimer

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class QuitOnSignals(QObject):
    """While it lives (its parent, the application), SIGTERM and SIGINT call `quit` on the GUI thread."""

    def __init__(self, quit: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._quit = quit
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        signal.set_wakeup_fd(self._writer.fileno())
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._drain)
        for number in SIGNALS:
            signal.signal(number, self._on_signal)

    def _on_signal(self, _number: int, _frame: FrameType | None) -> None:
        # Between any two lines of the GUI thread's Python: quit from the event loop, not from here.
        QTimer.singleShot(0, self._quit)

    def _drain(self) -> None:
        with suppress(BlockingIOError):
            self._reader.recv(64)
