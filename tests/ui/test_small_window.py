"""The window at its smallest (480x360): every place of the sidebar can be reached, by a scroll bar that shows
there is more, and each has a name; the top of the window tightens so the list shows more rows."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.sidebar import PLACES
from tests.support.app_window import said_and_shown


def shrunk(qtbot: QtBot, murmur: Murmur) -> None:
    window = murmur.window
    window.show()
    qtbot.waitExposed(window)
    window.resize(window.minimumSize())
    qtbot.waitUntil(lambda: window.size() == window.minimumSize())


def test_every_place_of_the_sidebar_is_reachable_and_named_at_the_smallest_size(qtbot: QtBot, murmur: Murmur) -> None:
    shrunk(qtbot, murmur)
    sidebar = murmur.window.sidebar
    bar = sidebar.verticalScrollBar()
    assert bar.maximum() > 0 and bar.isVisible()  # more places than room: the bar says so
    for row, place in enumerate(PLACES):
        item = sidebar.item(row)
        sidebar.scrollToItem(item)
        assert sidebar.viewport().rect().contains(sidebar.visualItemRect(item)), place.key
        assert item.data(Qt.ItemDataRole.AccessibleTextRole) == place.title
        assert item.toolTip() == place.title


def test_the_smallest_window_shows_six_rows_of_the_list(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, *(f"buy thing number {n}" for n in range(8)))
    shrunk(qtbot, murmur)
    view, model = murmur.window.entries, murmur.model

    def rows_in_view() -> int:
        shown = [model.index_of(entry_id) for entry_id in model.entry_ids()]
        return sum(1 for index in shown if view.viewport().rect().contains(view.visualRect(index)))

    qtbot.waitUntil(lambda: rows_in_view() >= 6)  # once the list is laid out at its new size


def test_the_place_chosen_stays_in_view_as_the_window_shrinks(qtbot: QtBot, murmur: Murmur) -> None:
    sidebar = murmur.window.sidebar
    for key in ("memory", "today", "usage"):  # the last, the first, one between: chosen by a key or the tray
        murmur.window.resize(1280, 800)
        murmur.window.show_place(key)
        shrunk(qtbot, murmur)
        item = sidebar.currentItem()
        qtbot.waitUntil(lambda item=item: sidebar.viewport().rect().contains(sidebar.visualItemRect(item)))
