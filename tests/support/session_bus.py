"""A private D-Bus session bus (dbus-daemon) for a test, and the small services tests put on it: each claims its
well-known name and answers method calls on a thread of its own."""

import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from jeepney import Message, MessageType
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import DBusConnection, open_dbus_connection


@pytest.fixture
def session_bus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private session bus, its address in DBUS_SESSION_BUS_ADDRESS for the test."""
    if shutil.which("dbus-daemon") is None:
        pytest.fail("dbus-daemon is not installed (Debian: dbus-daemon or dbus)")
    address = f"unix:path={tmp_path / 'bus'}"
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address={address}", "--print-address"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert daemon.stdout is not None and daemon.stdout.readline().strip(), "dbus-daemon did not start"
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield address
    finally:
        daemon.terminate()
        daemon.wait(10)
        if daemon.stdout is not None:
            daemon.stdout.close()


def claim(name: str) -> DBusConnection:
    """A connection to the session bus in DBUS_SESSION_BUS_ADDRESS that owns `name`."""
    connection = open_dbus_connection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
    connection.send_and_get_reply(message_bus.RequestName(name), timeout=5)
    return connection


def answer_calls(connection: DBusConnection, answer: Callable[[Message], None], thread_name: str) -> None:
    """`answer` each method call that reaches `connection`, on a daemon thread, until the connection is closed."""

    def serve() -> None:
        while True:
            try:
                message = connection.receive()
            except (OSError, ValueError):  # closed at the test's end
                return
            if message.header.message_type is MessageType.method_call:
                answer(message)

    threading.Thread(target=serve, name=thread_name, daemon=True).start()
