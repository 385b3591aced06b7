"""A small freedesktop notification server on the test's private session bus (tests/support/session_bus.py), for
the tests of reminders with actions: the server records each Notify call and emits ActionInvoked on request,
as a desktop's notification daemon does when a button is clicked."""

import threading
from dataclasses import dataclass, field
from typing import Any

from jeepney import DBusAddress, Message, new_method_return, new_signal
from jeepney.io.blocking import DBusConnection

from tests.support.session_bus import answer_calls, claim

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


@dataclass
class NotificationServer:
    connection: DBusConnection
    capabilities: list[str]
    shown: list[tuple[Any, ...]] = field(default_factory=list)  # the Notify calls' arguments
    arrived: threading.Event = field(default_factory=threading.Event)

    def answer(self, message: Message) -> None:
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


def start_server(capabilities: list[str]) -> NotificationServer:
    server = NotificationServer(claim(SERVICE), capabilities)
    answer_calls(server.connection, server.answer, "test-notification-server")
    return server
