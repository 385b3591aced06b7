"""The running app's end of the command socket, without Qt, on a thread of its own, built so that a looping
script or a program that leaks connections cannot knock it over.

A client has CLIENT_SECONDS and MAX_LINE bytes to send its one line; it gets one line back and is closed.
At most MAX_CLIENTS are held: a new one pushes out the oldest, so a real command still gets through a pile
of idle ones. When accepting fails (the process is out of file descriptors) the server stops accepting for
a tick and tries again, and a socket file that disappears (a /tmp cleaner) is bound again.
"""

import logging
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from app.command_socket import AppCommand, foreign_peer
from app.private_files import PRIVATE_DIR, PRIVATE_FILE

log = logging.getLogger("murmur.commands")

MAX_CLIENTS = 32
MAX_LINE = 4096
CLIENT_SECONDS = 5.0
TICK_SECONDS = 0.5  # how soon idle clients go, accepting resumes and a lost socket file comes back


@dataclass
class _Client:
    connection: socket.socket
    deadline: float
    line: bytearray = field(default_factory=bytearray)


class CommandServer:
    """Listens at `path` from the start (OSError when it cannot) and serves on a thread of its own until close();
    `on_command` runs on that thread."""

    def __init__(self, path: Path, on_command: Callable[[AppCommand], None]) -> None:
        self.path = path
        self.buffered_peak = 0  # the most bytes ever held for one unfinished line
        self._on_command = on_command
        self._clients: dict[int, _Client] = {}  # by descriptor, oldest first
        self._listener: socket.socket | None = None
        self._bound: tuple[int, int] | None = None  # the socket file we made, to notice it gone or replaced
        self._accepting = False
        self._failing: set[str] = set()  # what is failing now: each failure is logged once until it recovers
        self._next_tick = 0.0
        self._selector = selectors.DefaultSelector()
        try:
            self._listen()
        except OSError:
            self._selector.close()
            raise
        self._wake, self._waker = socket.socketpair()
        self._selector.register(self._wake, selectors.EVENT_READ)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="murmur-commands", daemon=True)
        self._thread.start()

    def close(self) -> None:
        if self._thread.is_alive():
            self._stopping.set()
            self._waker.send(b"\0")
            self._thread.join()
        for client in list(self._clients.values()):
            self._drop(client)
        if self._listener is not None:
            if _identity(self.path) == self._bound:
                self.path.unlink(missing_ok=True)
            self._listener.close()
            self._listener = None
        self._selector.close()
        self._wake.close()
        self._waker.close()

    def _serve(self) -> None:
        while not self._stopping.is_set():
            for key, _ in self._selector.select(TICK_SECONDS):
                if key.fileobj is self._listener:
                    self._accept()
                elif isinstance(key.data, _Client) and key.data.connection.fileno() != -1:  # not pushed out above
                    self._read(key.data)
            if time.monotonic() >= self._next_tick:
                self._tick()

    def _tick(self) -> None:
        now = time.monotonic()
        self._next_tick = now + TICK_SECONDS
        for client in [client for client in self._clients.values() if client.deadline <= now]:
            self._drop(client)
        if _identity(self.path) != self._bound:
            self._relisten()
        elif not self._accepting:
            self._watch_listener(True)

    def _listen(self) -> None:
        """Bind a fresh listener at `path`, replacing what is there (the caller has made sure no app of ours is)."""
        self.path.parent.mkdir(mode=PRIVATE_DIR, exist_ok=True)
        self.path.unlink(missing_ok=True)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(self.path))
            os.chmod(self.path, PRIVATE_FILE)
            listener.listen()
            listener.setblocking(False)
        except OSError:
            listener.close()
            raise
        if self._listener is not None:
            self._watch_listener(False)
            self._listener.close()
        self._listener, self._bound = listener, _identity(self.path)
        self._watch_listener(True)

    def _relisten(self) -> None:
        try:
            self._listen()
        except OSError as error:
            self._warn_once("listen", "the command socket %s is gone and cannot be made again: %s", error)
            return
        self._failing.discard("listen")
        log.warning("the command socket %s had gone; listening there again", self.path)

    def _watch_listener(self, on: bool) -> None:
        listener = self._listener
        assert listener is not None
        if on and not self._accepting:
            self._selector.register(listener, selectors.EVENT_READ)
        elif not on and self._accepting:
            self._selector.unregister(listener)
        self._accepting = on

    def _warn_once(self, kind: str, message: str, error: OSError) -> None:
        if kind not in self._failing:
            log.warning(message, self.path, error.strerror or error)
        self._failing.add(kind)

    def _accept(self) -> None:
        assert self._listener is not None
        try:
            connection, _ = self._listener.accept()
        except BlockingIOError:
            return
        except OSError as error:  # out of file descriptors, mostly: the connection waits for the next tick
            self._warn_once("accept", "cannot take a command connection at %s now (%s); trying again", error)
            self._watch_listener(False)
            return
        self._failing.discard("accept")
        if (stranger := foreign_peer(connection)) is not None:
            log.warning("refused a command from a process of another user (uid %d)", stranger)
            connection.close()
            return
        if len(self._clients) >= MAX_CLIENTS:
            self._drop(next(iter(self._clients.values())))
        connection.setblocking(False)
        client = _Client(connection, time.monotonic() + CLIENT_SECONDS)
        self._clients[connection.fileno()] = client
        self._selector.register(connection, selectors.EVENT_READ, client)

    def _read(self, client: _Client) -> None:
        try:
            chunk = client.connection.recv(MAX_LINE)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._drop(client)
            return
        client.line += chunk
        self.buffered_peak = max(self.buffered_peak, len(client.line))
        line, newline, _ = client.line.partition(b"\n")
        if len(line) > MAX_LINE:
            self._reply(client, "error line too long")
        elif newline:
            self._reply(client, self._answer(bytes(line)))

    def _answer(self, line: bytes) -> str:
        text = line.decode(errors="replace").strip()
        try:
            command = AppCommand(text)
        except ValueError:
            return f"error unknown command {text!r}"
        log.info("command from another process: %s", command.value)
        self._on_command(command)
        return f"ok {command.value}"

    def _reply(self, client: _Client, text: str) -> None:
        try:
            client.connection.send(f"{text}\n".encode())
        except OSError:
            pass  # gone, or not reading its replies: closed all the same
        self._drop(client)

    def _drop(self, client: _Client) -> None:
        self._selector.unregister(client.connection)
        del self._clients[client.connection.fileno()]
        client.connection.close()


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino
