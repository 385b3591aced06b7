"""Due reminders as desktop notifications with actions (Done, Snooze 10 min, Tomorrow), through the
freedesktop notification service on the session D-Bus, where the desktop offers actions.

jeepney speaks D-Bus (it comes with keyring on Linux): one connection makes the calls, a second one,
on a thread of its own, hears which action was clicked and passes it to the GUI thread as `acted`.
Where there is no session bus or no server with actions, `available` is False and the app shows the
tray's own message instead."""

import logging
import threading
from contextlib import suppress
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from jeepney.io.blocking import DBusConnection

log = logging.getLogger("murmur.ui.notifications")

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
ACTIONS = ["default", "Show", "done", "Done", "snooze", "Snooze 10 min", "tomorrow", "Tomorrow"]
CALL_SECONDS = 2.0  # a notification server that does not answer by then is not used
SHOWN_MS = 0  # 0: the server's own rule for how long a reminder stays (it is not an expiring toast)


class DesktopNotifications(QObject):
    acted = Signal(str, str)  # entry ID, the action: default (show it), done, snooze or tomorrow

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: dict[int, str] = {}  # notification ID -> entry ID
        self._calls: DBusConnection | None = None
        self._listener: DBusConnection | None = None
        try:
            from jeepney import DBusAddress, HeaderFields, MatchRule, new_method_call
            from jeepney.bus_messages import message_bus
            from jeepney.io.blocking import open_dbus_connection

            self._address = DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE)
            self._new_call = new_method_call
            self._member = HeaderFields.member
            calls = open_dbus_connection("SESSION")
            reply = calls.send_and_get_reply(new_method_call(self._address, "GetCapabilities"), timeout=CALL_SECONDS)
            if "actions" not in reply.body[0]:
                calls.close()
                return
            listener = open_dbus_connection("SESSION")
            rule = MatchRule(type="signal", interface=SERVICE, path=PATH)
            listener.send_and_get_reply(message_bus.AddMatch(rule), timeout=CALL_SECONDS)
        except Exception as error:  # no jeepney (not Linux), no bus, no server: the tray's messages serve
            log.info("desktop notifications with actions unavailable: %s", error)
            return
        self._calls, self._listener = calls, listener
        threading.Thread(target=self._hear, name="murmur-notifications", daemon=True).start()

    @property
    def available(self) -> bool:
        return self._calls is not None

    def notify(self, entry_id: str, title: str, body: str) -> bool:
        """Show a reminder with its actions; False when it could not be shown (then the caller falls back)."""
        if self._calls is None:
            return False
        hints: dict[str, tuple[str, object]] = {"urgency": ("y", 1), "category": ("s", "reminder")}
        call = self._new_call(
            self._address,
            "Notify",
            "susssasa{sv}i",
            ("Murmur", 0, "appointment-soon", title, body, ACTIONS, hints, SHOWN_MS),
        )
        try:
            reply = self._calls.send_and_get_reply(call, timeout=CALL_SECONDS)
        except Exception as error:  # the server went away since: fall back
            log.warning("notification not shown: %s", error)
            return False
        self._entries[int(reply.body[0])] = entry_id
        return True

    def _hear(self) -> None:
        """On its own thread: the server's signals, until the connection is closed."""
        listener = self._listener
        assert listener is not None
        while True:
            try:
                message = listener.receive()
            except Exception:  # closed at quit
                return
            member = message.header.fields.get(self._member)
            if member == "ActionInvoked":
                notification, action = message.body
                if (entry_id := self._entries.get(int(notification))) is not None:
                    self.acted.emit(entry_id, str(action))  # queued to the GUI thread
            elif member == "NotificationClosed":
                self._entries.pop(int(message.body[0]), None)

    def close(self) -> None:
        for connection in (self._calls, self._listener):
            if connection is not None:
                with suppress(OSError):
                    connection.close()
        self._calls = self._listener = None
