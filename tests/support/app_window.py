"""Driving the desktop app's main window in tests: what its list shows, typing into its input."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur


def summaries(murmur: Murmur, done: bool = False) -> list[str]:
    """The open entries the window's list shows, top to bottom (with `done`, the ticked-off ones too)."""
    model = murmur.window.model
    rows = [model.row_of(entry_id) for entry_id in model.entry_ids()]
    return [row.summary for row in rows if row and (done or not row.done)]


def type_and_enter(qtbot: QtBot, murmur: Murmur, text: str) -> None:
    qtbot.keyClicks(murmur.window.input, text)
    qtbot.keyClick(murmur.window.input, Qt.Key.Key_Return)
