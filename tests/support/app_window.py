"""Driving the desktop app's main window in tests: what its list shows, typing into its input."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.entry_model import Column


def summaries(murmur: Murmur) -> list[str]:
    proxy = murmur.window.proxy
    return [proxy.data(proxy.index(row, Column.SUMMARY)) for row in range(proxy.rowCount())]


def type_and_enter(qtbot: QtBot, murmur: Murmur, text: str) -> None:
    qtbot.keyClicks(murmur.window.input, text)
    qtbot.keyClick(murmur.window.input, Qt.Key.Key_Return)
