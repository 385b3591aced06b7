"""One Murmur per user and data folder: the first app takes the data folder's lock (app/instance_lock.py)
and serves the command socket (app/command_server.py); `murmur toggle`, `start`, `stop`, `cancel` and `show`,
and a second `murmur` launch, send it one-line commands (app/command_socket.py: where the socket lives, who
may use it, the client).

The app never closes either: the lock goes with its process, after the last write to the database.

This is also how Wayland users get a hotkey: they bind `murmur toggle` in their desktop's settings.
"""

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.api.desktop import CommandServer, InstanceLock, instance_lock_path
from app.api.running_app import AppCommand, app_is_listening, socket_path
from app.errors import MurmurError


class InstanceServer(QObject):
    commanded = Signal(str)  # an AppCommand value; emitted from the server's thread

    def __init__(self, path: Path | None = None, lock_path: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path or socket_path()
        self._lock_path = lock_path or instance_lock_path()
        self._lock: InstanceLock | None = None
        self._server: CommandServer | None = None

    def listen(self) -> bool:
        """Start listening; False when another Murmur of ours already is (then send it `show` and leave).
        MurmurError when another holds this data folder but does not answer: two apps never share a database."""
        self._lock = InstanceLock.take(self._lock_path)
        if self._lock is None:
            if app_is_listening(self.path):
                return False
            raise MurmurError(
                f"another Murmur is running on this data folder (it holds {self._lock_path}) but does not answer "
                "on its command socket; quit it or end its process, then start Murmur again"
            )
        try:
            self._server = CommandServer(self.path, self._on_command)
        except OSError as error:
            self.close()
            raise MurmurError(f"cannot listen for `murmur toggle` commands at {self.path}: {error.strerror}") from None
        return True

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._lock is not None:
            self._lock.release()

    def _on_command(self, command: AppCommand) -> None:
        self.commanded.emit(command.value)
