"""Driving the desktop app's main window in tests: what its list shows, typing into its input, its menus."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceSource
from app.ui.application import Murmur

WAIT_MS = 15_000


def summaries(murmur: Murmur, done: bool = False) -> list[str]:
    """The open entries the window's list shows, top to bottom (with `done`, the ticked-off ones too)."""
    model = murmur.window.model
    rows = [model.row_of(entry_id) for entry_id in model.entry_ids()]
    return [row.summary for row in rows if row and (done or not row.done)]


def menu_action(murmur: Murmur, text: str) -> QAction:
    """The action of the window's menu bar named `text` ("Export…")."""
    menus = [action.menu() for action in murmur.window.menuBar().actions() if action.menu()]
    return next(a for menu in menus for a in menu.actions() if a.text() == text)


def type_and_enter(qtbot: QtBot, murmur: Murmur, text: str) -> None:
    qtbot.keyClicks(murmur.window.input, text)
    qtbot.keyClick(murmur.window.input, Qt.Key.Key_Return)


def said_and_shown(qtbot: QtBot, murmur: Murmur, *said: str) -> None:
    """Each of `said` put through the service as the command line would, then the window's list read again."""
    for text in said:
        murmur.service.submit(text, UtteranceSource.CLI)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
