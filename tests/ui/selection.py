"""Putting entries on the list through the service and selecting one in the window, as a test's first step."""

from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from tests.support.app_window import WAIT_MS as WAIT_MS
from tests.support.app_window import said_and_shown


def said_and_selected(qtbot: QtBot, murmur: Murmur, *said: str) -> str:
    """Say each of `said`, wait for the list to show the one entry they leave, select it; returns its ID."""
    said_and_shown(qtbot, murmur, *said)
    [entry_id] = murmur.window.entries.entry_ids()
    murmur.window.show()
    murmur.window.resize(1200, 760)
    assert murmur.window.select_entry(entry_id)
    return entry_id
