"""The running app's command socket without Qt: where it lives, who may use it, and the client that
`murmur toggle`, `start`, `stop`, `cancel`, `show` and `quit` (and a second `murmur` launch) use.

The socket sits in a folder only its user can enter: $XDG_RUNTIME_DIR/murmur when the session has a
private runtime dir, else /tmp/murmur-<uid>, made 0700 and refused when it is a symlink or not ours
(another user could make it first). Both ends also ask the kernel who is at the other end (SO_PEERCRED,
Linux; elsewhere the private folder is the guard), so no other user can pose as the app or drive it.
The protocol is one line each way: the command, then `ok <text>` or `error <text>`.
"""

import hashlib
import os
import socket
import stat
import struct
import tempfile
from enum import StrEnum
from pathlib import Path

from app.errors import MurmurError
from app.paths import data_dir
from app.private_files import ensure_private_dir

CONNECT_SECONDS = 1  # whole seconds: it becomes SO_SNDTIMEO
REPLY_SECONDS = 3.0


class AppCommand(StrEnum):
    TOGGLE = "toggle"  # start recording, or stop it and submit
    START = "start"
    STOP = "stop"  # stop recording and submit what was said
    CANCEL = "cancel"  # stop recording and drop it; stop speaking
    SHOW = "show"  # show and raise the window
    QUIT = "quit"  # quit the app, as its Quit does


class NotRunningError(MurmurError):
    """No Murmur app is listening for commands."""


class UntrustedSocketError(MurmurError):
    """The socket, its folder or the program listening on it belongs to another user."""


# Windows' Python has neither: there the app runs without the socket (no single-instance guard, no
# `murmur toggle`), and the commands say why.
SUPPORTED = hasattr(socket, "AF_UNIX") and hasattr(os, "getuid")


def socket_path() -> Path:
    """Per data directory, so test runs and a second profile never meet."""
    if not SUPPORTED:
        raise MurmurError("controlling the running app from the command line needs Unix sockets (Linux, macOS)")
    digest = hashlib.sha1(str(data_dir().resolve()).encode()).hexdigest()[:10]
    return _socket_dir() / f"app-{digest}.sock"


def _socket_dir() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and _is_private_and_ours(Path(runtime)):
        return ensure_private_dir(Path(runtime) / "murmur")
    folder = Path(tempfile.gettempdir()) / f"murmur-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        if not _is_ours(folder):
            raise UntrustedSocketError(
                f"{folder} (the folder of Murmur's command socket) belongs to another user or is a link; "
                "remove it, or set XDG_RUNTIME_DIR"
            ) from None
    return ensure_private_dir(folder)


def _is_ours(folder: Path) -> bool:
    info = folder.lstat()
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


def _is_private_and_ours(folder: Path) -> bool:
    try:
        return _is_ours(folder) and not stat.S_IMODE(folder.lstat().st_mode) & 0o077
    except OSError:
        return False


def foreign_peer(connection: socket.socket) -> int | None:
    """The uid of the process at the other end when it is not ours; None when it is, or the system cannot tell."""
    if not hasattr(socket, "SO_PEERCRED"):
        return None
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return None if uid == os.getuid() else uid


def app_is_listening(path: Path) -> bool:
    """True when our app answers at `path`, False when nothing does; UntrustedSocketError when another user's does."""
    try:
        _connect(path).close()
    except NotRunningError:
        return False
    return True


def send_command(command: AppCommand, path: Path | None = None) -> str:
    """Send `command` to the running app and return its answer; NotRunningError when there is none."""
    with _connect(path or socket_path()) as connection:
        connection.settimeout(REPLY_SECONDS)
        try:
            connection.sendall(f"{command.value}\n".encode())
            reply = _read_line(connection)
        except TimeoutError:
            raise MurmurError(f"the running Murmur did not answer within {REPLY_SECONDS:g} seconds") from None
        except OSError as error:
            raise MurmurError(f"the running Murmur did not answer: {error.strerror}") from None
    status, _, text = reply.decode(errors="replace").strip().partition(" ")
    if status != "ok":
        raise MurmurError(text or "the running Murmur did not answer")
    return text


def _connect(path: Path) -> socket.socket:
    """A connection to our app at `path`, checked to be ours before anything is sent."""
    if path.exists() and path.lstat().st_uid != os.getuid():
        raise UntrustedSocketError(f"{path} belongs to another user; not sending it anything")
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # Blocking with a send timeout rather than settimeout(): when the app's queue of connections is full (a
    # burst of them), connect() then waits that long for room instead of failing at once with EAGAIN.
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", int(CONNECT_SECONDS), 0))
    try:
        connection.connect(str(path))
        stranger = foreign_peer(connection)
    except (FileNotFoundError, ConnectionRefusedError):
        connection.close()
        raise NotRunningError("Murmur is not running; start it with `murmur` (no arguments)") from None
    except OSError as error:  # a listener too busy to accept, say
        connection.close()
        raise MurmurError(f"cannot reach the running Murmur at {path}: {error.strerror or error}") from None
    if stranger is not None:
        connection.close()
        raise UntrustedSocketError(
            f"{path} is held by a program of another user (uid {stranger}); not sending it anything"
        )
    return connection


def _read_line(connection: socket.socket) -> bytes:
    reply = b""
    while not reply.endswith(b"\n"):
        chunk = connection.recv(4096)
        if not chunk:
            break
        reply += chunk
    return reply
