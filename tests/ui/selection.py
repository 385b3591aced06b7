"""Putting entries on the list through the service and selecting one in the window, as a test's first step."""

from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceSource
from app.ui.application import Murmur

WAIT_MS = 15_000


def said_and_selected(qtbot: QtBot, murmur: Murmur, *said: str) -> str:
    """Say each of `said`, wait for the list to show the one entry they leave, select it; returns its ID."""
    for words in said:
        murmur.service.submit(words, UtteranceSource.CLI)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    [entry_id] = murmur.window.entries.entry_ids()
    murmur.window.show()
    murmur.window.resize(1200, 760)
    assert murmur.window.select_entry(entry_id)
    return entry_id
