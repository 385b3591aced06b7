"""One Murmur per user: the first app listens on a local socket (QLocalServer); `murmur toggle`,
`start`, `stop`, `cancel` and `show`, and a second `murmur` launch, send it one-line commands
(app/command_socket.py: where the socket lives, who may use it, the client).

This is also how Wayland users get a hotkey: they bind `murmur toggle` in their desktop's settings.
"""

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from app.command_socket import AppCommand, app_is_listening, foreign_caller, socket_path
from app.errors import MurmurError

log = logging.getLogger("murmur.ui.instance")


class InstanceServer(QObject):
    commanded = Signal(str)  # an AppCommand value

    def __init__(self, path: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path or socket_path()
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._on_new_connection)

    def listen(self) -> bool:
        """Start listening; False when another Murmur of ours already is (then send it `show` and leave)."""
        if app_is_listening(self.path):
            return False
        if not self._server.listen(str(self.path)):  # a full path: QLocalServer uses it as it is
            raise MurmurError(f"cannot listen for `murmur toggle` commands: {self._server.errorString()}")
        return True

    def close(self) -> None:
        self._server.close()

    def _on_new_connection(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            if (stranger := foreign_caller(int(socket.socketDescriptor()))) is not None:
                log.warning("refused a command from a process of another user (uid %d)", stranger)
                socket.abort()
                socket.deleteLater()
                continue
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
