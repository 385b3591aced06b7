"""The list as people use it (issue 14): views in the sidebar, empty states that teach, the keys
(arrows past section headers, Space, Enter, Ctrl+N, /), the checkbox and folding a section."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.ui.application import Murmur
from app.ui.entry_delegate import RowLayout
from app.ui.entry_model import EntryListModel
from app.ui.entry_sections import Sort
from app.ui.entry_view import EntryView
from tests.support.app_window import said_and_shown, summaries, type_and_enter
from tests.support.fake_dictation import FakeMicrophone

WAIT_MS = 15_000


def focus_list(qtbot: QtBot, murmur: Murmur) -> EntryView:
    view = murmur.window.entries
    murmur.window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    return view


def current_summary(view: EntryView) -> str:
    return str(view.list_model.data(view.currentIndex()))


def test_the_first_run_says_what_to_say_and_the_button_tries_the_microphone(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    window = murmur_with_microphone.window
    assert window.list_stack.currentWidget() is window.empty
    assert window.empty.title.text() == "Say what’s on your mind"
    assert "Hold Ctrl+Alt+Space and say: “remind me to call the dentist Thursday”" in window.empty.body.text()
    assert not window.empty.button.isHidden()
    qtbot.mouseClick(window.empty.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(murmur_with_microphone.voice.is_recording)
    with qtbot.waitSignal(murmur_with_microphone.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(window.empty.button, Qt.MouseButton.LeftButton)  # the second click sends it
    assert summaries(murmur_with_microphone) == ["Buy oat milk"]
    assert window.list_stack.currentWidget() is window.entries


def test_an_empty_view_says_why(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk")  # no day: Someday, not Today
    window = murmur.window
    window.show_place("today")
    assert window.list_stack.currentWidget() is window.empty and window.empty.title.text() == "Nothing due today"
    assert window.empty.button.isHidden()
    window.show_place("idea")
    assert window.empty.title.text() == "No open ideas"
    window.show_place("all")
    assert window.list_stack.currentWidget() is window.entries
    qtbot.keyClicks(window.search, "zucchini")
    assert window.empty.title.text() == "Nothing matches “zucchini”"
    window.search.clear()
    assert summaries(murmur) == ["Buy milk"]


def test_a_search_from_another_page_looks_through_everything(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk", "buy bread")
    murmur.service.complete([e.id for e in murmur.service.entries([Status.ACTIVE]) if e.summary == "Buy bread"])
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    window = murmur.window
    window.show_place("history")
    qtbot.keyClicks(window.search, "bread")
    assert window.pages.currentWidget() is window.list_page
    assert summaries(murmur, done=True) == ["Buy bread"]  # done, and found


def test_the_arrows_pass_over_section_headers(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "call mom tomorrow at 9", "buy milk", "plan the trip in 3 weeks")
    view = focus_list(qtbot, murmur)
    assert summaries(murmur) == ["Call mom", "Plan the trip", "Buy milk"]  # Tomorrow, Later, Someday
    view.select_entry(view.entry_ids()[0])
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert current_summary(view) == "Plan the trip"
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert current_summary(view) == "Buy milk"
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert current_summary(view) == "Buy milk"  # the last one
    qtbot.keyClick(view, Qt.Key.Key_Up)
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert current_summary(view) == "Call mom"
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert current_summary(view) == "Call mom"  # not the header above it


def test_space_ticks_off_with_undo_and_enter_edits_the_summary(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk", "buy bread")
    view = focus_list(qtbot, murmur)
    view.select_entry(view.entry_ids()[0])
    ticked = current_summary(view)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_Space)
    [done] = murmur.service.entries([Status.COMPLETED])
    assert done.summary == ticked and murmur.toast.undo_button.isVisible()
    assert summaries(murmur, done=True)[-1] == ticked  # under Done today, struck through
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(murmur.toast.undo_button, Qt.MouseButton.LeftButton)
    assert murmur.service.entries([Status.COMPLETED]) == []

    view = focus_list(qtbot, murmur)
    view.select_entry(view.entry_ids()[0])
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert view.state() is EntryView.State.EditingState
    editor = view.focusWidget()
    editor.selectAll()  # type: ignore[union-attr]
    qtbot.keyClicks(editor, "Buy oat milk")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert "Buy oat milk" in summaries(murmur)


def test_the_checkbox_ticks_off_and_a_header_folds(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk", "call mom tomorrow at 9")
    window = murmur.window
    window.show()
    view = window.entries
    milk = view.list_model.index_of(view.entry_ids()[1])
    row = view.list_model.row_at(milk)
    assert row is not None and row.summary == "Buy milk"
    box = RowLayout.of(view.visualRect(milk), row, view.fontMetrics()).check
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=box.center())
    assert [e.summary for e in murmur.service.entries([Status.COMPLETED])] == ["Buy milk"]

    done_header = next(
        view.list_model.index(line, 0)
        for line in range(view.list_model.rowCount())
        if (header := view.list_model.header_at(view.list_model.index(line, 0)))
        and header.section.title == "Done today"
    )
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(done_header).center())
    assert summaries(murmur, done=True) == ["Call mom"]  # folded: its rows are hidden, its header stays
    header = view.list_model.header_at(view.list_model.index(view.list_model.rowCount() - 1, 0))
    assert header is not None and header.folded and header.count == 1


def test_ctrl_n_and_slash_go_to_the_input(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk")
    window = murmur.window
    view = focus_list(qtbot, murmur)
    qtbot.keyClick(view, Qt.Key.Key_Slash)
    assert window.input.hasFocus() and window.input.text() == ""
    view = focus_list(qtbot, murmur)
    qtbot.keyClick(view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.input.hasFocus()
    qtbot.keyClicks(window.input, "a/b")
    assert window.input.text() == "a/b"  # in a text box, a slash is a slash


def test_a_narrow_window_keeps_the_sidebar_icons(qtbot: QtBot, murmur: Murmur) -> None:
    window = murmur.window
    window.show()
    window.resize(480, 360)
    qtbot.waitUntil(lambda: window.sidebar.width() < 60)
    window.resize(1000, 700)
    qtbot.waitUntil(lambda: window.sidebar.width() > 150)


def test_the_input_box_stays_put_while_words_come_and_go(qtbot: QtBot, murmur: Murmur) -> None:
    window = murmur.window
    window.show()
    qtbot.waitExposed(window)

    def input_top() -> int:
        return window.input.mapTo(window, window.input.rect().topLeft()).y()

    before = input_top()
    long_one = "buy milk and eggs and call mom tomorrow at five and then water the plants and feed the cat " * 2
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, long_one)
    assert window.activity.outcome.isVisible() and window.activity.transcript.text()
    assert input_top() == before
    window.activity.set_status("Something long went wrong: " + "the server said no. " * 10, error=True)
    assert input_top() == before


def test_the_archived_view_brings_an_entry_back_and_undo_puts_it_away(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk", "buy bread")
    milk = next(e.id for e in murmur.service.entries([Status.ACTIVE]) if e.summary == "Buy milk")
    murmur.service.archive([milk])
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    window = murmur.window
    window.show_place("archived")
    assert window.page_title.text() == "Archived" and summaries(murmur, done=True) == ["Buy milk"]
    view = focus_list(qtbot, murmur)
    view.select_entry(milk)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
    assert [e.summary for e in murmur.service.entries([Status.ACTIVE], search="milk")] == ["Buy milk"]
    assert window.list_stack.currentWidget() is window.empty and window.empty.title.text() == "Nothing archived"
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.undo_last()
    assert summaries(murmur, done=True) == ["Buy milk"]


def test_the_sort_chosen_orders_the_list_and_is_remembered(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk", "call the bank", "book flights")
    window = murmur.window
    assert summaries(murmur) == ["Book flights", "Call the bank", "Buy milk"]  # someday: the newest first
    window.sort.setCurrentIndex(window.sort.findData("alphabetical"))
    assert summaries(murmur) == ["Book flights", "Buy milk", "Call the bank"]
    other = type(window)(EntryListModel())
    qtbot.addWidget(other)
    other.restore_view_state()
    assert other.sort.currentData() == "alphabetical" and other.model.sorted_by is Sort.ALPHABETICAL
