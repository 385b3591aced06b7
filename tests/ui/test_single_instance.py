"""`murmur toggle` and friends reach the running app over the real local socket."""

import os
import subprocess
import sys

from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.single_instance import InstanceServer


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


def test_without_a_running_app_the_command_fails_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "app", "toggle"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == "murmur: error: Murmur is not running; start it with `murmur` (no arguments)\n"
