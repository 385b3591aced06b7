"""`murmur toggle` and friends reach the running app over the real local socket."""

import os
import pwd
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.command_socket import socket_path
from app.instance_lock import InstanceLock
from app.ui.application import Murmur
from app.ui.single_instance import InstanceServer
from tests.support.in_process import run_in_process
from tests.support.other_user import other_user, shared_folder  # noqa: F401 (fixtures)

# Connects to the socket at argv[1] as uid argv[2] (gid argv[3]) and prints the reply to one `toggle` (none: refused).
CALLER = """
import os, socket, sys
os.setgroups([]); os.setgid(int(sys.argv[3])); os.setuid(int(sys.argv[2]))
caller = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
caller.settimeout(10)
caller.connect(sys.argv[1])
try:
    caller.sendall(b"toggle\\n")
    print(repr(caller.recv(100)))
except (ConnectionResetError, BrokenPipeError):
    print("refused")
"""


def murmur_command(*args: str) -> "subprocess.Popen[str]":
    return subprocess.Popen(
        [sys.executable, "-m", "app", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ
    )


def test_murmur_toggle_drives_the_running_app(qtbot: QtBot, murmur: Murmur) -> None:
    server = InstanceServer()
    assert server.listen()
    server.commanded.connect(murmur.handle_command)
    process = murmur_command("show")
    with qtbot.waitSignal(server.commanded, timeout=20_000) as received:
        pass
    assert received.args == ["show"]
    qtbot.waitUntil(lambda: process.poll() is not None, timeout=10_000)
    _, stderr = process.communicate()
    assert process.returncode == 0, stderr
    server.close()


def test_a_second_instance_finds_the_first(qtbot: QtBot) -> None:
    first = InstanceServer()
    assert first.listen()
    assert not InstanceServer().listen()
    first.close()
    second = InstanceServer()
    assert second.listen()  # the first is gone: the next launch takes over
    second.close()


@pytest.mark.slow  # the app started as a process
def test_a_second_launch_finds_the_first_by_its_lock_when_its_socket_is_gone() -> None:
    first = InstanceLock.take()  # what a running app holds, its socket file gone and not (yet) made again
    assert first is not None
    done = subprocess.run(
        [sys.executable, "-m", "app"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    first.release()
    assert done.returncode == 1
    assert done.stderr.startswith("murmur: error: another Murmur is running on this data folder (it holds ")
    assert done.stderr.count("\n") == 1, done.stderr
    assert not socket_path().exists()


def test_the_app_holds_its_lock_until_it_closes(qtbot: QtBot) -> None:
    server = InstanceServer()
    assert server.listen()
    assert InstanceLock.take() is None
    server.close()
    relocked = InstanceLock.take()
    assert relocked is not None
    relocked.release()


def test_without_a_running_app_the_command_fails_in_one_line() -> None:
    done = run_in_process(["toggle"], dict(os.environ), None)
    assert done.returncode == 1
    assert done.stderr == "murmur: error: Murmur is not running; start it with `murmur` (no arguments)\n"


def test_the_socket_lives_in_a_folder_only_we_may_enter(qtbot: QtBot) -> None:
    server = InstanceServer()
    assert server.listen()
    folder = server.path.parent
    assert (stat.S_IMODE(folder.stat().st_mode), folder.stat().st_uid) == (0o700, os.getuid())
    server.close()


def test_a_stale_socket_left_by_a_crash_is_replaced(qtbot: QtBot) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as crashed:
        crashed.bind(str(socket_path()))  # bound, never listening: what a killed app leaves
    server = InstanceServer()
    assert server.listen()
    server.close()


def test_the_app_refuses_commands_from_another_user(
    qtbot: QtBot,
    other_user: pwd.struct_passwd,  # noqa: F811
    shared_folder: Path,  # noqa: F811
) -> None:
    # Even with the socket and its folder opened up to them, the kernel tells the app who is calling.
    server = InstanceServer(shared_folder / "app.sock")
    assert server.listen()
    server.path.chmod(0o777)
    commands: list[str] = []
    server.commanded.connect(commands.append)
    caller = subprocess.Popen(
        [sys.executable, "-c", CALLER, str(server.path), str(other_user.pw_uid), str(other_user.pw_gid)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    qtbot.waitUntil(lambda: caller.poll() is not None, timeout=20_000)
    output, errors = caller.communicate()
    server.close()
    assert caller.returncode == 0, errors
    assert output in ("b''\n", "refused\n") and commands == []
