"""Due reminders as desktop notifications with Done / Snooze 10 min / Tomorrow, on a real private D-Bus
session bus with a small notification server (tests/support/notification_server.py) standing in for the
desktop's daemon; without a server that offers actions, the app falls back to its own message."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.ui.application import Murmur
from tests.support.app_window import said_and_shown
from tests.support.notification_server import NotificationServer, start_server
from tests.support.session_bus import session_bus  # noqa: F401 (a fixture: a private session bus)

WAIT_MS = 15_000


@pytest.fixture
def server(session_bus: str) -> Iterator[NotificationServer]:  # noqa: F811 (the fixture imported above)
    server = start_server(["actions", "body"])
    yield server
    server.connection.close()


def a_reminder(qtbot: QtBot, murmur: Murmur) -> str:
    said_and_shown(qtbot, murmur, "remind me to buy milk")
    [entry] = murmur.service.entries([Status.ACTIVE])
    murmur._on_reminder_due(entry.id, entry.summary)  # what the scheduler does at the due time
    return entry.id


def test_a_reminder_offers_done_snooze_and_tomorrow_and_done_is_undoable(
    qtbot: QtBot, server: NotificationServer, murmur: Murmur
) -> None:
    assert murmur.notifications.available
    entry_id = a_reminder(qtbot, murmur)
    assert server.arrived.wait(5)
    [(app_name, _replaces, _icon, title, body, actions, _hints, _timeout)] = server.shown
    assert (app_name, title, body) == ("Murmur", "Reminder", "Buy milk")
    assert dict(zip(actions[::2], actions[1::2], strict=True)) == {
        "default": "Show", "done": "Done", "snooze": "Snooze 10 min", "tomorrow": "Tomorrow",
    }  # fmt: skip
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        server.click(1, "done")
    [done] = murmur.service.entries([Status.COMPLETED])
    assert done.id == entry_id and murmur.toast.undo_button.isVisible()
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.undo_last()
    assert [e.id for e in murmur.service.entries([Status.ACTIVE])] == [entry_id]


def test_snooze_puts_it_off_ten_minutes(qtbot: QtBot, server: NotificationServer, murmur: Murmur) -> None:
    entry_id = a_reminder(qtbot, murmur)
    assert server.arrived.wait(5)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        server.click(1, "snooze")
    [snoozed] = murmur.service.entries([Status.SNOOZED])
    now = murmur.service.clock().now
    assert snoozed.id == entry_id and snoozed.snooze_until is not None
    assert timedelta(minutes=8) < snoozed.snooze_until - now <= timedelta(minutes=10)


def test_without_a_server_that_has_actions_the_app_says_it_itself(
    qtbot: QtBot,
    session_bus: str,  # noqa: F811
    murmur: Murmur,
) -> None:
    assert not murmur.notifications.available  # a bus, but no notification server on it
    a_reminder(qtbot, murmur)
    assert murmur.toast.title.text() == "Due now: Buy milk"
