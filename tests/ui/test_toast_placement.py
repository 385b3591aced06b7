"""Where the toast sits in the real window: in every view (the list with its details, Inbox, History, Usage, Memory),
at the largest and the smallest size, it lies inside the window and covers no control a click could reach (a
button, a text box, a list), so a click meant for Forget or Retry never lands on the toast's Undo."""

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceSource
from app.ui.application import Murmur
from app.ui.toast import ToastContent
from tests.support.app_window import WAIT_MS, said_and_shown

PLACES = ("all", "inbox", "history", "usage", "memory")
SIZES = ((1280, 800), (480, 360))
CONTENT = ToastContent(
    title="Created “Call the dentist” · Thu 26 Nov 15:00",
    message="Looks like “Call the dentist about the crown”, already on your list.",
    details=["Created reminder “Call the dentist”, due Thu 26 Nov 15:00", "Completed “Buy milk”"],
    undo_id=1,
    merge=("new", "old"),
)


def on_screen(widget: QWidget) -> QRect:
    """The part of `widget` its parents let show, in screen coordinates (a row scrolled away shows nowhere)."""
    shown = QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None:
        shown = shown.intersected(QRect(parent.mapToGlobal(QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return shown


def controls(window: QWidget) -> list[QWidget]:
    """What a click or the Tab key can reach in `window`: every shown widget that takes focus."""
    return [
        widget
        for widget in window.findChildren(QWidget)
        if widget.isVisible() and widget.focusPolicy() != Qt.FocusPolicy.NoFocus and not on_screen(widget).isEmpty()
    ]


def covered(murmur: Murmur) -> list[str]:
    toast = murmur.toast.frameGeometry()
    return [
        f"{type(widget).__name__} {widget.objectName() or widget.accessibleName() or widget.property('text')!r}"
        for widget in controls(murmur.window)
        if on_screen(widget).intersects(toast)
    ]


@pytest.fixture
def lived_in(qtbot: QtBot, murmur: Murmur) -> Murmur:
    """The app with entries, one utterance waiting in the Inbox, a memory and some history; the window shown."""
    murmur.service.remember("My brother is Tom")
    murmur.service.submit("eggs are done", UtteranceSource.TYPED)  # nothing matches: it waits in the Inbox
    said_and_shown(qtbot, murmur, *(f"buy item {number}" for number in range(12)))
    murmur.window.show()
    qtbot.waitExposed(murmur.window)
    return murmur


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["1280x800", "480x360"])
def test_the_toast_covers_no_control_in_any_view(qtbot: QtBot, lived_in: Murmur, width: int, height: int) -> None:
    window = lived_in.window
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.size().toTuple() == (width, height), timeout=WAIT_MS)
    for place in PLACES:
        window.show_place(place)
        if place == "all":
            window.select_entry(window.entries.entry_ids()[-1])  # the details show its fields, at the bottom too
            assert window.details.isVisible() == (width >= 900)
        for expanded in (False, True):
            lived_in.toast.show_content(CONTENT)
            lived_in.toast.details_button.setChecked(expanded)
            qtbot.waitUntil(lambda: lived_in.toast.isVisible(), timeout=WAIT_MS)
            where = f"{place} at {width}x{height}{', details open' if expanded else ''}"
            assert window.geometry().contains(lived_in.toast.frameGeometry()), where
            assert covered(lived_in) == [], where
            lived_in.toast.dismiss()


def test_the_toast_follows_its_room_when_the_window_is_resized(qtbot: QtBot, lived_in: Murmur) -> None:
    window, toast = lived_in.window, lived_in.toast
    window.resize(*SIZES[0])
    toast.show_content(CONTENT)
    window.resize(*SIZES[1])
    qtbot.waitUntil(lambda: window.geometry().contains(toast.frameGeometry()), timeout=WAIT_MS)  # laid out again
    assert covered(lived_in) == []
    window.hide()  # to the tray: the toast goes to the screen's corner, and the page gets its room back
    assert toast.isVisible() and window.toast_room.isHidden()
    window.show()
    assert window.geometry().contains(toast.frameGeometry()) and covered(lived_in) == []


def places(widgets: list[QWidget]) -> list[QRect]:
    return [QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size()) for widget in widgets]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["1280x800", "480x360"])
def test_nothing_moves_when_the_toast_fades(qtbot: QtBot, lived_in: Murmur, width: int, height: int) -> None:
    """A button that moved as the toast went would take a click meant for it, or leave it to land on nothing."""
    window, toast, inbox = lived_in.window, lived_in.toast, lived_in.window.inbox
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.size().toTuple() == (width, height), timeout=WAIT_MS)
    window.show_place("inbox")
    inbox.tree.setCurrentItem(inbox.tree.topLevelItem(0))
    buttons = [inbox.dismiss_button, inbox.edit_button, inbox.retry_button, window.input]
    toast.set_seconds(0.05)
    toast.show_content(ToastContent(title="Created “Buy stamps”", undo_id=1))
    QApplication.processEvents()
    shown = places(buttons)
    with qtbot.waitSignal(toast.closed, timeout=WAIT_MS):  # it fades by itself
        pass
    QApplication.processEvents()
    assert places(buttons) == shown
    toast.show_content(ToastContent(title="Created “Buy envelopes”", undo_id=2))  # the next one lies there too
    QApplication.processEvents()
    assert places(buttons) == shown and covered(lived_in) == []


def test_in_a_small_window_the_toast_is_one_line_and_the_status_stays_readable(qtbot: QtBot, lived_in: Murmur) -> None:
    window, toast = lived_in.window, lived_in.toast
    window.resize(*SIZES[1])
    qtbot.waitUntil(lambda: window.size().toTuple() == SIZES[1], timeout=WAIT_MS)
    window.activity.transcript.setText("“remind me to buy a new phone charger and stamps tomorrow at ten”")
    window.activity.show_outcome("Created “Buy a new phone charger” and “Buy stamps” · Tomorrow 10:00")
    toast.show_content(CONTENT)
    QApplication.processEvents()
    title, undo = toast.title, toast.undo_button
    assert abs(title.mapToGlobal(title.rect().center()).y() - undo.mapToGlobal(undo.rect().center()).y()) <= 2
    assert toast.height() <= 2 * undo.height()  # one row: the words cut short, the whole in the tooltip
    assert title.text().endswith("…") and CONTENT.title in title.toolTip()
    status = window.activity.status
    assert status.isVisible() and on_screen(status) == QRect(status.mapToGlobal(QPoint(0, 0)), status.size())
    assert status.height() >= status.fontMetrics().height()  # a whole line, not cut by the conversation's scroll
