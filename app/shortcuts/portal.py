"""The desktop's GlobalShortcuts portal (xdg-desktop-portal) over the session D-Bus, with jeepney's blocking API on
a thread of its own: one session holding one shortcut, "talk", whose press and release arrive as callbacks.

The desktop asks the user once to confirm or change the key; the stable shortcut ID and session token let it keep
the binding across restarts. Outside Flatpak the app's ID is registered first (portals since 1.21 refuse an empty
one). Every way the talk key ends (the bind denied or failed, the session closed, the portal gone) is said once
through `failed`; `stop()` ends it without a word."""

import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count
from typing import Any

from jeepney import (
    DBusAddress,
    DBusErrorResponse,
    HeaderFields,
    MatchRule,
    Message,
    Properties,
    new_method_call,
)
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import DBusConnection, open_dbus_connection
from jeepney.wrappers import unwrap_msg

from app.shortcuts.problems import BindDenied, BindFailed, SessionClosed, ShortcutError

log = logging.getLogger("murmur.shortcuts.portal")

BUS_NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"
REQUEST = "org.freedesktop.portal.Request"
SESSION = "org.freedesktop.portal.Session"
REGISTRY = "org.freedesktop.host.portal.Registry"
SHORTCUT_ID = "talk"
SESSION_TOKEN = "murmur_talk"
CALL_SECONDS = 5.0  # a portal that does not answer a call by then is not used; the user's dialog has no limit
SIGNALS_KEPT = 64
SUCCESS, CANCELLED = 0, 1  # Request.Response codes; 2: ended some other way
FLATPAK_INFO = "/.flatpak-info"  # inside Flatpak the portal knows the app's ID from the sandbox
# pynput's key names that the XDG shortcuts spec writes otherwise (its modifiers, and keysym names).
_TRIGGER_NAMES = {
    "ctrl": "CTRL",
    "alt": "ALT",
    "shift": "SHIFT",
    "cmd": "LOGO",
    "super": "LOGO",
    "enter": "Return",
    "esc": "Escape",
    "backspace": "BackSpace",
}


@dataclass(frozen=True)
class TalkKey:
    """What the portal is asked to bind: for which app, said how in the desktop's dialog, which key first."""

    app_id: str
    description: str
    preferred_trigger: str  # the XDG shortcuts spec's form: CTRL+ALT+space


@dataclass(frozen=True)
class Listener:
    """Called on the portal's thread."""

    pressed: Callable[[], None]
    released: Callable[[], None]
    bound: Callable[[str], None]  # the key as the desktop describes it ("" when it does not say)
    failed: Callable[[ShortcutError], None]


def portal_problem(address: str = "SESSION") -> str | None:
    """Why the GlobalShortcuts portal cannot be used on the session bus, in a few words, or None when it can."""
    try:
        with open_dbus_connection(address) as connection:
            get = Properties(DBusAddress(PATH, BUS_NAME, SHORTCUTS)).get("version")
            unwrap_msg(connection.send_and_get_reply(get, timeout=CALL_SECONDS))
    except DBusErrorResponse as error:
        if error.name == "org.freedesktop.DBus.Error.ServiceUnknown":
            return "no xdg-desktop-portal on the session bus"
        return f"the portal has no GlobalShortcuts interface: {error.name}"
    except TimeoutError:
        return "the desktop's portal did not answer"
    except Exception as error:  # no session bus: no address, a socket that refuses, a failed handshake
        return f"no session bus ({error or type(error).__name__})"
    return None


def portal_trigger(combination: str) -> str:
    """A hotkey in pynput's syntax, '<ctrl>+<alt>+<space>', in the XDG shortcuts spec's: 'CTRL+ALT+space'."""
    parts = []
    for part in combination.split("+"):
        name = part.strip("<>") or part  # "<ctrl>++": the plus key's part is "+"
        if name[:1] == "f" and name[1:].isdigit():
            name = name.upper()
        parts.append(_TRIGGER_NAMES.get(name.split("_")[0] if len(name) > 1 else name, name))
    return "+".join(parts)


class PortalShortcut:
    """The talk key through the portal: `start()` connects and binds on a thread of its own, `stop()` ends it."""

    def __init__(self, key: TalkKey, listener: Listener, address: str = "SESSION") -> None:
        self.key, self.listener, self.address = key, listener, address
        self._connection: DBusConnection | None = None
        self._stopping = threading.Event()
        self._tokens = count(1)
        self._portal = DBusAddress(PATH, BUS_NAME, SHORTCUTS)

    def start(self) -> None:
        """Connect to the session bus and bind on the portal's thread; what the portal answers comes later."""
        try:
            self._connection = open_dbus_connection(self.address)
        except Exception as error:  # as in portal_problem: the bus went away since the backend was chosen
            raise SessionClosed(f"the session bus cannot be reached ({error or type(error).__name__})") from error
        threading.Thread(target=self._run, args=(self._connection,), name="murmur-shortcuts", daemon=True).start()

    def stop(self) -> None:
        """End the session (the portal closes a client's sessions when it leaves the bus), without a word."""
        self._stopping.set()
        if self._connection is not None:
            try:
                self._connection.sock.shutdown(socket.SHUT_RDWR)  # wakes the thread; it closes the connection
            except OSError:  # already closed by the bus
                pass
            self._connection = None

    # The portal's thread.

    def _run(self, connection: DBusConnection) -> None:
        try:
            with connection, connection.filter(MatchRule(type="signal"), bufsize=SIGNALS_KEPT) as signals:
                self._listen_for_signals(connection)
                self._register(connection)
                session = self._create_session(connection, signals)
                self.listener.bound(self._bind(connection, signals, session))
                self._hear(connection, signals, session)
        except ShortcutError as error:
            self._end(error)
        except Exception as error:  # the connection closed: stop(), or the session bus went away
            self._end(SessionClosed(f"the connection to the desktop's portal ended ({error or type(error).__name__})"))

    def _end(self, error: ShortcutError) -> None:
        if not self._stopping.is_set():
            log.warning("%s", error)
            self.listener.failed(error)

    def _listen_for_signals(self, connection: DBusConnection) -> None:
        gone = MatchRule(type="signal", interface="org.freedesktop.DBus", member="NameOwnerChanged")
        gone.add_arg_condition(0, BUS_NAME)
        rules = [MatchRule(type="signal", sender=BUS_NAME, interface=name) for name in (REQUEST, SESSION, SHORTCUTS)]
        for rule in [*rules, gone]:
            unwrap_msg(connection.send_and_get_reply(message_bus.AddMatch(rule), timeout=CALL_SECONDS))

    def _call(self, connection: DBusConnection, message: Message) -> tuple[Any, ...]:
        try:
            return tuple(unwrap_msg(connection.send_and_get_reply(message, timeout=CALL_SECONDS)))
        except DBusErrorResponse as error:
            raise BindFailed(
                f"the desktop's shortcut portal refused: {error.name} {' '.join(map(str, error.data))}"
            ) from error

    def _register(self, connection: DBusConnection) -> None:
        if os.path.exists(FLATPAK_INFO):
            return
        registry = DBusAddress(PATH, BUS_NAME, REGISTRY)
        try:
            self._call(connection, new_method_call(registry, "Register", "sa{sv}", (self.key.app_id, {})))
        except BindFailed as error:  # portals before 1.19 have no registry and take the app's ID from elsewhere
            log.info("the app's ID was not registered with the portal: %s", error)

    def _request(
        self, connection: DBusConnection, signals: Any, method: str, signature: str, body: tuple[Any, ...]
    ) -> tuple[int, dict[str, tuple[str, Any]]]:
        """Call a portal method that answers through a Request object (its last argument: the options); the code
        and results of its Response."""
        token = f"murmur_{next(self._tokens)}_{secrets.token_hex(4)}"
        sender = str(connection.unique_name).lstrip(":").replace(".", "_")
        expected = f"{PATH}/request/{sender}/{token}"
        options = {**body[-1], "handle_token": ("s", token)}
        (handle,) = self._call(connection, new_method_call(self._portal, method, signature, (*body[:-1], options)))
        while True:
            message = self._next_signal(connection, signals)
            if self._portal_gone(message):
                raise SessionClosed("the desktop's shortcut portal left the session bus")
            if _is(message, REQUEST, "Response") and message.header.fields.get(HeaderFields.path) in (expected, handle):
                code, results = message.body
                return int(code), dict(results)

    def _create_session(self, connection: DBusConnection, signals: Any) -> str:
        options = {"session_handle_token": ("s", SESSION_TOKEN)}
        code, results = self._request(connection, signals, "CreateSession", "a{sv}", (options,))
        if code != SUCCESS or "session_handle" not in results:
            raise BindFailed(f"the desktop's shortcut portal made no session (response {code})")
        return str(results["session_handle"][1])

    def _bind(self, connection: DBusConnection, signals: Any, session: str) -> str:
        """Bind the talk key (the desktop may ask the user); the key as the desktop describes it."""
        talk = {"description": ("s", self.key.description), "preferred_trigger": ("s", self.key.preferred_trigger)}
        body: tuple[Any, ...] = (session, [(SHORTCUT_ID, talk)], "", {})
        code, results = self._request(connection, signals, "BindShortcuts", "oa(sa{sv})sa{sv}", body)
        if code == CANCELLED:
            raise BindDenied("the desktop's shortcut dialog was cancelled, so no talk key is bound")
        if code != SUCCESS:
            raise BindFailed(f"the desktop's shortcut portal could not bind the talk key (response {code})")
        trigger = _talk_trigger(results.get("shortcuts", ("", []))[1])
        if trigger is None:
            raise BindDenied("the desktop bound no talk key (it was left out in its shortcut dialog)")
        return trigger

    def _hear(self, connection: DBusConnection, signals: Any, session: str) -> None:
        """The talk key's press and release, until the session or the portal ends."""
        while True:
            message = self._next_signal(connection, signals)
            if self._portal_gone(message):
                raise SessionClosed("the desktop's shortcut portal left the session bus: the talk key no longer works")
            if _is(message, SESSION, "Closed", session):
                raise SessionClosed("the desktop closed Murmur's shortcut session: the talk key no longer works")
            if _is(message, SHORTCUTS, "ShortcutsChanged") and message.body[0] == session:
                self._changed(message.body[1])
            if tuple(message.body[:2]) != (session, SHORTCUT_ID):
                continue
            if _is(message, SHORTCUTS, "Activated"):
                self.listener.pressed()
            elif _is(message, SHORTCUTS, "Deactivated"):
                self.listener.released()

    def _changed(self, shortcuts: list[tuple[str, dict[str, tuple[str, Any]]]]) -> None:
        """The user changed the session's shortcuts in the desktop's settings."""
        trigger = _talk_trigger(shortcuts)
        if trigger is None:
            raise SessionClosed("the talk key was taken out of the desktop's shortcut settings")
        self.listener.bound(trigger)

    @staticmethod
    def _next_signal(connection: DBusConnection, signals: Any) -> Message:
        message: Message = connection.recv_until_filtered(signals)
        return message

    @staticmethod
    def _portal_gone(message: Message) -> bool:
        """The portal's name lost its owner (it crashed or was stopped): no signal of it comes any more."""
        return (
            _is(message, "org.freedesktop.DBus", "NameOwnerChanged")
            and message.body[0] == BUS_NAME
            and not (message.body[2])
        )


def _talk_trigger(shortcuts: list[tuple[str, dict[str, tuple[str, Any]]]]) -> str | None:
    """The talk key as the desktop describes it ("" when it does not say), None when it is not among `shortcuts`."""
    for name, properties in shortcuts:
        if name == SHORTCUT_ID:
            return str(properties.get("trigger_description", ("s", ""))[1])
    return None


def _is(message: Message, interface: str, member: str, path: str | None = None) -> bool:
    fields = message.header.fields
    return (
        fields.get(HeaderFields.interface) == interface
        and fields.get(HeaderFields.member) == member
        and (path is None or fields.get(HeaderFields.path) == path)
    )
