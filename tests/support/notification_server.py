"""A private D-Bus session bus (dbus-daemon) with a small freedesktop notification server on it, for the
tests of reminders with actions: the server records each Notify call and emits ActionInvoked on request,
as a desktop's notification daemon does when a button is clicked."""

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from jeepney import DBusAddress, MessageType, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import DBusConnection, open_dbus_connection

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


@dataclass
class NotificationServer:
    connection: DBusConnection
    capabilities: list[str]
    shown: list[tuple[Any, ...]] = field(default_factory=list)  # the Notify calls' arguments
    arrived: threading.Event = field(default_factory=threading.Event)

    def serve(self) -> None:
        while True:
            try:
                message = self.connection.receive()
            except (OSError, ValueError):  # closed at the test's end
                return
            if message.header.message_type is not MessageType.method_call:
                continue
            member = message.header.fields.get(3)
            if member == "GetCapabilities":
                self.connection.send(new_method_return(message, "as", (self.capabilities,)))
            elif member == "Notify":
                self.shown.append(message.body)
                self.connection.send(new_method_return(message, "u", (len(self.shown),)))
                self.arrived.set()
            elif member == "GetServerInformation":
                self.connection.send(new_method_return(message, "ssss", ("test", "murmur", "1", "1.2")))

    def click(self, notification: int, action: str) -> None:
        """What the daemon says when the user clicks `action` on notification `notification`."""
        address = DBusAddress(PATH, interface=SERVICE)
        self.connection.send(new_signal(address, "ActionInvoked", "us", (notification, action)))


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


def start_server(capabilities: list[str]) -> NotificationServer:
    connection = open_dbus_connection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
    connection.send_and_get_reply(message_bus.RequestName(SERVICE), timeout=5)
    server = NotificationServer(connection, capabilities)
    threading.Thread(target=server.serve, name="test-notification-server", daemon=True).start()
    return server
