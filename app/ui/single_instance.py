"""One Murmur per user: the first app listens on a local socket (QLocalServer); `murmur toggle`,
`start`, `stop`, `cancel` and `show`, and a second `murmur` launch, send it one-line commands.

This is also how Wayland users get a hotkey: they bind `murmur toggle` in their desktop's settings.
The protocol is one line each way: the command, then `ok <text>` or `error <text>`.
"""

import getpass
import hashlib
import logging
from enum import StrEnum

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from app.errors import MurmurError
from app.paths import data_dir

log = logging.getLogger("murmur.ui.instance")

CONNECT_MS = 500
REPLY_MS = 5_000


class AppCommand(StrEnum):
    TOGGLE = "toggle"  # start recording, or stop it and submit
    START = "start"
    STOP = "stop"  # stop recording and submit what was said
    CANCEL = "cancel"  # stop recording and drop it
    SHOW = "show"  # show and raise the window


class NotRunningError(MurmurError):
    """No Murmur app is listening for commands."""


def server_name() -> str:
    """Per user and per data directory, so test runs and a second profile never meet."""
    digest = hashlib.sha1(str(data_dir().resolve()).encode()).hexdigest()[:10]
    return f"murmur-{getpass.getuser()}-{digest}"


def send_command(command: AppCommand, name: str | None = None) -> str:
    """Send `command` to the running app and return its answer; NotRunningError when there is none."""
    socket = QLocalSocket()
    socket.connectToServer(name or server_name())
    if not socket.waitForConnected(CONNECT_MS):
        raise NotRunningError("Murmur is not running; start it with `murmur` (no arguments)")
    socket.write(f"{command.value}\n".encode())
    socket.flush()
    reply = b""
    while not reply.endswith(b"\n") and socket.waitForReadyRead(REPLY_MS):
        reply += bytes(socket.readAll().data())
    socket.disconnectFromServer()
    status, _, text = reply.decode(errors="replace").strip().partition(" ")
    if status != "ok":
        raise MurmurError(text or "the running Murmur did not answer")
    return text


class InstanceServer(QObject):
    commanded = Signal(str)  # an AppCommand value

    def __init__(self, name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name or server_name()
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_new_connection)

    def listen(self) -> bool:
        """Start listening; False when another Murmur already is (then send it `show` and leave)."""
        probe = QLocalSocket()
        probe.connectToServer(self.name)
        if probe.waitForConnected(CONNECT_MS):
            probe.disconnectFromServer()
            return False
        QLocalServer.removeServer(self.name)  # a stale socket left by a crash
        if not self._server.listen(self.name):
            raise MurmurError(f"cannot listen for `murmur toggle` commands: {self._server.errorString()}")
        return True

    def close(self) -> None:
        self._server.close()

    def _on_new_connection(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            socket.readyRead.connect(lambda s=socket: self._on_ready_read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _on_ready_read(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            return
        line = bytes(socket.readLine().data()).decode(errors="replace").strip()
        try:
            command = AppCommand(line)
        except ValueError:
            socket.write(f"error unknown command {line!r}\n".encode())
            return
        log.info("command from another process: %s", command.value)
        self.commanded.emit(command.value)
        socket.write(f"ok {command.value}\n".encode())
        socket.flush()
