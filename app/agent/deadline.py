"""An overall time limit on one request to the model server, and a shorter one on silences once it talks.

httpx's timeouts are per read: a server that sends a byte every few seconds never trips them, and a request
could last forever. The limit is enforced from the client's event hooks: a request that starts after it has
passed is refused, and a timer shuts the connection's socket down when it passes while the answer is read
(a shutdown wakes the blocked read at once, which a close from another thread does not).

The read timeout is long, for the wait before the first word (a CPU-only server reads a long prompt for a
minute); once the answer streams, `heard` is called per piece and a silence of `stall_seconds` cuts it.
"""

import socket
import threading
import time
from typing import Any

import httpx2 as httpx


class DeadlinePassed(httpx.TransportError):
    """Raised instead of sending a request (a retry) when the request's time is already up."""


class RequestDeadline:
    def __init__(self, seconds: float, stall_seconds: float | None = None) -> None:
        self.seconds = seconds
        self.stall_seconds = stall_seconds
        self.expired = False
        self.stalled = False  # cut for a silence in the middle of the answer
        self._heard_at: float | None = None
        self._socket: socket.socket | None = None
        self._ends_at: float | None = None
        self._timers: list[threading.Timer] = []
        self._lock = threading.Lock()  # the timers run in their own threads

    def start(self, seconds: float | None = None) -> None:
        """Start the clock: `seconds` when given (less than the usual, as what is left of a longer limit)."""
        with self._lock:
            self._ends_at = time.monotonic() + (self.seconds if seconds is None else seconds)
            self.expired = self.stalled = False
            self._heard_at = self._socket = None

    def heard(self) -> None:
        """A piece of the answer arrived: from the first on, a silence of `stall_seconds` ends the request."""
        with self._lock:
            first = self._heard_at is None
            self._heard_at = time.monotonic()
            sock = self._socket
        if first and sock is not None and self.stall_seconds is not None:
            self._arm(self.stall_seconds, self._check_silence, sock)

    def stop(self) -> None:
        with self._lock:
            self._ends_at = None
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()

    def event_hooks(self) -> dict[str, list[Any]]:
        return {"request": [self._refuse_late_request], "response": [self._watch_response]}

    def _left(self) -> float | None:
        return None if self._ends_at is None else self._ends_at - time.monotonic()

    def _refuse_late_request(self, request: httpx.Request) -> None:
        left = self._left()
        if left is not None and left <= 0:
            self.expired = True
            raise DeadlinePassed("the request's time is up", request=request)

    def _watch_response(self, response: httpx.Response) -> None:
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        left = self._left()
        if not isinstance(sock, socket.socket) or left is None:
            return
        with self._lock:
            self._socket = sock
        self._arm(left, self._cut, sock)

    def _arm(self, seconds: float, then: Any, sock: socket.socket) -> None:
        timer = threading.Timer(max(0.0, seconds), then, (sock,))
        timer.daemon = True
        with self._lock:
            self._timers.append(timer)
        timer.start()

    def _check_silence(self, sock: socket.socket) -> None:
        with self._lock:
            if self._ends_at is None or self._heard_at is None or self.stall_seconds is None:
                return
            quiet = time.monotonic() - self._heard_at
        if quiet < self.stall_seconds:
            self._arm(self.stall_seconds - quiet, self._check_silence, sock)
            return
        with self._lock:
            self.stalled = True
        _shut(sock)

    def _cut(self, sock: socket.socket) -> None:
        with self._lock:
            if self._ends_at is None:  # the request ended just in time
                return
            self.expired = True
        _shut(sock)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed: nothing is waiting on it
