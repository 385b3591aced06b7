"""Keyboard triage of the entry list (issue 14): Ctrl+Z after typing, what is selected after a
change, new entries shown, and a small window that still lists rows."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceSource
from app.domain.events import ThinkingEvent, TranscriptEvent
from app.ui.application import Murmur
from app.ui.entry_view import EntryView
from tests.support.app_window import said_and_shown, summaries, type_and_enter

WAIT_MS = 15_000


def add_entries(qtbot: QtBot, murmur: Murmur, count: int) -> None:
    """`count` todos ("Buy item0" oldest), written straight through the service, then shown."""
    said_and_shown(qtbot, murmur, *(f"buy item{i}" for i in range(count)))
    assert len(summaries(murmur)) == count


def focus(qtbot: QtBot, murmur: Murmur, widget: object) -> None:
    murmur.window.activateWindow()
    widget.setFocus()  # type: ignore[attr-defined]
    qtbot.waitUntil(widget.hasFocus)  # type: ignore[attr-defined]


def back_to_window(qtbot: QtBot, murmur: Murmur) -> None:
    """The offscreen platform activates every window shown, the toast too; a desktop leaves the window active."""
    murmur.window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is murmur.window)


def row_of(view: EntryView, summary: str) -> int:
    """The entry's place among those listed, section headers not counted."""
    return [view.list_model.row_of(entry).summary for entry in view.entry_ids()].index(summary)  # type: ignore[union-attr]


def select(view: EntryView, summary: str) -> None:
    view.select_entry(view.entry_ids()[row_of(view, summary)])


def selected(view: EntryView) -> list[str]:
    return [view.list_model.data(index) for index in view.selectionModel().selectedIndexes()]


def in_view(view: EntryView, row: int) -> bool:
    return view.viewport().rect().contains(view.visualRect(view.list_model.index_of(view.entry_ids()[row])))


def test_ctrl_z_after_submitting_undoes_the_entry_and_while_typing_edits_the_text(qtbot: QtBot, murmur: Murmur) -> None:
    window = murmur.window
    focus(qtbot, murmur, window.input)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "buy milk")
    assert summaries(murmur) == ["Buy milk"]
    back_to_window(qtbot, murmur)
    assert window.input.hasFocus()

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(window.input, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert summaries(murmur) == []  # the entry is undone ...
    assert window.input.text() == ""  # ... and the submitted text did not come back to be sent twice

    qtbot.keyClicks(window.input, "call mom")
    with qtbot.assertNotEmitted(window.undo_last_requested):
        qtbot.keyClick(window.input, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.input.text() != "call mom"  # typing is undone as text


def test_after_completing_or_archiving_the_row_in_its_place_is_selected(qtbot: QtBot, murmur: Murmur) -> None:
    add_entries(qtbot, murmur, 4)  # newest first: item3, item2, item1, item0
    view = murmur.window.entries
    focus(qtbot, murmur, view)
    select(view, "Buy item2")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert summaries(murmur) == ["Buy item3", "Buy item1", "Buy item0"]
    assert selected(view) == ["Buy item1"]  # the next one; the done one waits under Done today
    assert summaries(murmur, done=True)[-1] == "Buy item2"
    assert view.list_model.data(view.currentIndex()) == "Buy item1" and murmur.window.focusWidget() is view

    back_to_window(qtbot, murmur)
    select(view, "Buy item0")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert summaries(murmur) == ["Buy item3", "Buy item1"]
    assert selected(view) == ["Buy item1"]  # the one before
    assert murmur.window.focusWidget() is view


def test_an_entry_moved_by_a_new_priority_stays_selected_and_in_view(qtbot: QtBot, murmur: Murmur) -> None:
    add_entries(qtbot, murmur, 40)
    view = murmur.window.entries
    focus(qtbot, murmur, view)
    bottom = row_of(view, "Buy item0")
    select(view, "Buy item0")
    view.scrollToBottom()
    assert bottom == 39 and in_view(view, bottom)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert row_of(view, "Buy item0") == 0  # priority 1 sorts it to the top
    assert selected(view) == ["Buy item0"]
    assert in_view(view, 0)


def test_a_new_entry_is_selected_and_scrolled_to(qtbot: QtBot, murmur: Murmur) -> None:
    add_entries(qtbot, murmur, 40)
    view = murmur.window.entries
    murmur.service.edit(view.entry_ids(), {"priority": "3"})  # the new one, with none, goes to the bottom
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    view.scrollToTop()
    focus(qtbot, murmur, murmur.window.input)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "buy zucchini")
    new = row_of(view, "Buy zucchini")
    assert new == 40
    assert selected(view) == ["Buy zucchini"]
    assert in_view(view, new)
    assert murmur.window.focusWidget() is murmur.window.input  # selecting it does not take the typing away


def test_a_small_window_still_lists_three_rows(qtbot: QtBot, murmur: Murmur) -> None:
    add_entries(qtbot, murmur, 10)
    window = murmur.window
    # The live panel at its tallest: a long transcript and the run's progress.
    said = "buy milk and eggs and call mom tomorrow at five and then water the plants " * 3
    window.activity.show_event(TranscriptEvent(said, UtteranceSource.VOICE, 1))
    for turn in range(6):
        window.activity.show_event(ThinkingEvent(turn, "offline"))
    qtbot.keyClicks(window.search, "buy")  # the entries and what was said before, both listed
    qtbot.waitUntil(window.said_before.isVisible)
    window.resize(480, 360)
    qtbot.waitUntil(lambda: window.height() <= max(360, window.minimumHeight()))
    view = window.entries
    qtbot.waitUntil(lambda: sum(in_view(view, row) for row in range(len(view.entry_ids()))) >= 3)
