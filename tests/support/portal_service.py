"""A stand-in for xdg-desktop-portal's GlobalShortcuts portal on a private session bus, for the tests of the talk
key on Wayland: no real portal backend can run here, so this small service speaks the portal's documented
interface as a client sees it: org.freedesktop.host.portal.Registry.Register, GlobalShortcuts.CreateSession and
BindShortcuts answering through org.freedesktop.portal.Request objects' Response signals, the Activated and
Deactivated signals of a bound shortcut, and a session the desktop closes (Session.Closed). What the user does in
the desktop's dialog is `bind_response` (0: bound, 1: cancelled)."""

import threading
from dataclasses import dataclass, field
from typing import Any

from jeepney import DBusAddress, HeaderFields, Message, new_error, new_method_return, new_signal
from jeepney.io.blocking import DBusConnection

from tests.support.session_bus import answer_calls, claim

BUS_NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"
TRIGGER = "Super+T"  # the key the user chose in the desktop's dialog, as the desktop says it


@dataclass
class PortalService:
    connection: DBusConnection
    offers_shortcuts: bool = True  # False: an older portal, without the GlobalShortcuts interface
    bind_response: int = 0
    registered: list[str] = field(default_factory=list)  # the app IDs given to Registry.Register
    asked: list[tuple[str, Any]] = field(default_factory=list)  # (method, body) of each portal call, in order
    sessions: dict[str, str] = field(default_factory=dict)  # session handle -> its client's unique name
    bound: threading.Event = field(default_factory=threading.Event)  # a BindShortcuts was answered

    def answer(self, message: Message) -> None:
        fields = message.header.fields
        interface, member = fields.get(HeaderFields.interface), fields.get(HeaderFields.member)
        sender = str(fields.get(HeaderFields.sender))
        self.asked.append((f"{interface}.{member}", message.body))
        if interface == "org.freedesktop.DBus.Properties" and member == "Get":
            if message.body[0] == SHORTCUTS and self.offers_shortcuts:
                self.connection.send(new_method_return(message, "v", (("u", 2),)))
            else:
                self.connection.send(
                    new_error(message, "org.freedesktop.DBus.Error.InvalidArgs", "s", ("No such interface",))
                )
        elif interface == "org.freedesktop.host.portal.Registry" and member == "Register":
            self.registered.append(message.body[0])
            self.connection.send(new_method_return(message))
        elif interface == SHORTCUTS and self.offers_shortcuts and member == "CreateSession":
            session = f"{PATH}/session/{_path_part(sender)}/{message.body[0]['session_handle_token'][1]}"
            self.sessions[session] = sender
            self._respond(message, message.body[0], 0, {"session_handle": ("s", session)})
        elif interface == SHORTCUTS and self.offers_shortcuts and member == "BindShortcuts":
            session, shortcuts, _parent, options = message.body
            chosen = [
                (name, {"description": props["description"], "trigger_description": ("s", TRIGGER)})
                for name, props in shortcuts
            ]
            results = {"shortcuts": ("a(sa{sv})", chosen)} if self.bind_response == 0 else {}
            self._respond(message, options, self.bind_response, results)
            self.bound.set()
        else:
            self.connection.send(new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (str(member),)))

    def _respond(self, call: Message, options: dict[str, Any], code: int, results: dict[str, Any]) -> None:
        """The call's reply (its Request object's handle), then that Request's Response, as the portal does."""
        sender = str(call.header.fields.get(HeaderFields.sender))
        handle = f"{PATH}/request/{_path_part(sender)}/{options['handle_token'][1]}"
        self.connection.send(new_method_return(call, "o", (handle,)))
        response = new_signal(
            DBusAddress(handle, interface="org.freedesktop.portal.Request"), "Response", "ua{sv}", (code, results)
        )
        self._send_to(sender, response)

    def _send_to(self, client: str, signal: Message) -> None:
        signal.header.fields[HeaderFields.destination] = client  # the portal's signals go to their session's client
        self.connection.send(signal)

    def _shortcut_signal(self, member: str) -> None:
        for session, client in self.sessions.items():
            body = (session, "talk", 1, {})
            self._send_to(client, new_signal(DBusAddress(PATH, interface=SHORTCUTS), member, "osta{sv}", body))

    def press(self) -> None:
        """The user presses the bound key."""
        self._shortcut_signal("Activated")

    def release(self) -> None:
        """... and lets it go."""
        self._shortcut_signal("Deactivated")

    def change_key(self, trigger: str) -> None:
        """The user picks another key for the talk shortcut in the desktop's settings."""
        for session, client in self.sessions.items():
            shortcuts = [("talk", {"description": ("s", "Talk"), "trigger_description": ("s", trigger)})]
            changed = new_signal(
                DBusAddress(PATH, interface=SHORTCUTS), "ShortcutsChanged", "oa(sa{sv})", (session, shortcuts)
            )
            self._send_to(client, changed)

    def close_sessions(self) -> None:
        """The desktop closes the sessions (say, the user removed Murmur's shortcuts in its settings)."""
        for session, client in self.sessions.items():
            self._send_to(
                client,
                new_signal(DBusAddress(session, interface="org.freedesktop.portal.Session"), "Closed", "a{sv}", ({},)),
            )


def _path_part(unique_name: str) -> str:
    """A client's unique name as the portal puts it in its objects' paths: ':1.42' -> '1_42'."""
    return unique_name.lstrip(":").replace(".", "_")


def start_portal(offers_shortcuts: bool = True, bind_response: int = 0) -> PortalService:
    """The portal on the session bus in DBUS_SESSION_BUS_ADDRESS (tests/support/session_bus.py's
    `session_bus` fixture makes a private one)."""
    portal = PortalService(claim(BUS_NAME), offers_shortcuts, bind_response)
    answer_calls(portal.connection, portal.answer, "test-portal")
    return portal
