"""Typed input -> pipeline on the worker thread -> list updated -> toast -> Undo -> list restored."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.domain.enums import Status, UtteranceSource
from app.ui.application import Murmur
from app.ui.entry_model import EntryListModel
from app.ui.entry_sections import Part, Section
from app.ui.icons import AppState
from tests.support.app_window import said_and_shown, summaries, type_and_enter


def test_typed_input_updates_the_list_and_undo_restores_it(qtbot: QtBot, murmur: Murmur) -> None:
    assert summaries(murmur) == []
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "buy milk and call mom tomorrow")
    assert sorted(summaries(murmur)) == ["Buy milk", "Call mom"]
    assert murmur.window.input.text() == ""
    toast = murmur.toast
    assert (
        toast.isVisible()
        and toast.title.text() == "Created “Buy milk” and “Call mom”"
        and toast.undo_button.isVisible()
    )
    assert "Buy milk" in toast.details.text()
    activity = murmur.window.activity
    assert "“buy milk and call mom tomorrow”" in activity.transcript.text()
    assert activity.outcome.text() == toast.title.text() and activity.outcome.isVisible()
    assert activity.progress.isHidden() and activity.progress.count() > 0  # the raw steps wait behind Details
    qtbot.mouseClick(activity.details, Qt.MouseButton.LeftButton)
    assert activity.progress.isVisible()

    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert summaries(murmur) == []
    assert toast.title.text() == "Undone: removed “Call mom” and removed “Buy milk”"
    assert murmur.state() is AppState.IDLE


def test_a_change_by_hand_after_a_run_is_not_shown_under_what_was_said(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "buy milk")
    activity = murmur.window.activity
    assert "“buy milk”" in activity.transcript.text()
    [entry] = murmur.service.entries([Status.ACTIVE])
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        murmur.edit(lambda service: service.archive([entry.id]))
    assert activity.outcome.text() == "Archived “Buy milk”" and activity.transcript.text() == ""


def test_utterances_queue_in_order_and_none_is_dropped(qtbot: QtBot, murmur: Murmur) -> None:
    texts = [f"buy item{i}" for i in range(5)]
    for text in texts:
        murmur.conductor.submit(text, UtteranceSource.TYPED)
    assert murmur.state() is AppState.THINKING
    qtbot.waitUntil(lambda: len(summaries(murmur)) == 5 and murmur.state() is AppState.IDLE, timeout=20_000)
    history = murmur.service.history()
    assert [h.batch.utterance_id for h in history] == sorted((h.batch.utterance_id for h in history), reverse=True)


def test_a_failed_utterance_waits_in_the_inbox_and_retry_applies_it(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "eggs are done")
    toast = murmur.toast
    assert toast.content is not None and toast.content.error
    assert toast.retry_button.isVisible() and not toast.undo_button.isVisible()
    assert murmur.state() is AppState.ERROR
    assert murmur.window.inbox.tree.topLevelItemCount() == 1
    [inbox] = murmur.window.sidebar.findItems("Inbox", Qt.MatchFlag.MatchExactly)
    assert inbox.data(Qt.ItemDataRole.AccessibleTextRole) == "Inbox, 1"

    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "buy eggs")
    murmur.window.inbox.tree.topLevelItem(0).setSelected(True)
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        qtbot.mouseClick(murmur.window.inbox.retry_button, Qt.MouseButton.LeftButton)
    assert murmur.window.inbox.tree.topLevelItemCount() == 0
    assert murmur.toast.title.text() == "Completed “Buy eggs”"
    assert summaries(murmur) == []  # the eggs todo is done


def test_manual_edits_are_undoable_from_the_history(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "buy bread")
    view = murmur.window.entries
    murmur.window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    model = murmur.window.model
    [bread] = view.entry_ids()
    view.select_entry(bread)
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        qtbot.keyClick(view, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert model.row_of(bread).priority == 2  # type: ignore[union-attr]
    assert view.selected_ids() == [bread]  # kept
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        qtbot.keyClick(view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert summaries(murmur) == []

    history = murmur.window.history.tree
    lines = [(history.topLevelItem(i).text(0), history.topLevelItem(i).child(0).text(0)) for i in range(3)]
    assert lines == [
        ("Completed by hand", "Completed “Buy bread”"),
        ("Edited by hand", "Updated “Buy bread”: priority 2"),
        ("“buy bread”", "Created “Buy bread”"),  # what was said, and what it made
    ]
    assert history.topLevelItem(0).text(1).startswith("Today ")
    history.topLevelItem(0).setSelected(True)
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        qtbot.mouseClick(murmur.window.history.undo_button, Qt.MouseButton.LeftButton)
    assert summaries(murmur, done=True) == ["Buy bread"]
    assert model.row_of(bread).priority == 2  # type: ignore[union-attr]


def test_view_state_persists(qtbot: QtBot, murmur: Murmur) -> None:
    murmur.window.show_place("history")
    murmur.window.save_view_state()
    other = type(murmur.window)(murmur.model)
    qtbot.addWidget(other)
    assert other.sidebar.chosen().key == "all"  # a first start shows everything open
    other.restore_view_state()
    assert other.sidebar.chosen().key == "history" and other.pages.currentWidget() is other.history


def test_a_category_view_shows_that_category(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "buy milk. remind me to call mom tomorrow")
    murmur.window.show_place("todo")
    assert summaries(murmur) == ["Buy milk"] and murmur.window.page_title.text() == "Todos"
    murmur.window.show_place("reminder")
    assert summaries(murmur) == ["Call mom"]
    murmur.window.show_place("all")
    assert summaries(murmur) == ["Call mom", "Buy milk"]  # tomorrow's section, then someday


def test_folded_sections_stay_folded_after_a_restart(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "call mom tomorrow at 9", "buy milk")
    model = murmur.window.model
    model.set_folded(Section(Part.TOMORROW), True)
    other = type(murmur.window)(EntryListModel())
    qtbot.addWidget(other)
    other.restore_view_state()
    assert other.model.folded == {"tomorrow"}
    model.set_folded(Section(Part.TOMORROW), False)
    other.restore_view_state()
    assert other.model.folded == set()
