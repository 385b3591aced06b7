"""What the window says and selects after an undo: the toast and the activity line name what came back or went, the
steps list each change, and the list selects the entry that came back, or the one beside the entry that went."""

from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.icons import AppState
from tests.support.app_window import WAIT_MS, said_and_shown, type_and_enter


def undo_last(qtbot: QtBot, murmur: Murmur) -> None:
    undo = next(a for a in murmur.window.findChildren(QAction) if a.text() == "Undo last change")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        undo.trigger()


def selected(murmur: Murmur) -> str:
    [entry_id] = murmur.window.entries.selected_ids()
    return entry_id


def summary_of(murmur: Murmur, entry_id: str) -> str:
    row = murmur.window.model.row_of(entry_id)
    assert row is not None
    return row.summary


def test_undoing_a_new_entry_names_it_and_selects_its_neighbour(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy bread", "pay rent", "water the plants")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "call the dentist")
    shown, made = murmur.window.entries.entry_ids(), selected(murmur)
    assert summary_of(murmur, made) == "Call the dentist"
    at = shown.index(made)
    neighbour = shown[at + 1] if at + 1 < len(shown) else shown[at - 1]

    undo_last(qtbot, murmur)

    assert murmur.toast.title.text() == "Undone: removed “Call the dentist”"
    activity = murmur.window.activity
    assert activity.outcome.text() == "Undone: removed “Call the dentist”" and activity.outcome.isVisible()
    assert activity.details.isVisible()
    assert [activity.progress.item(row).text() for row in range(activity.progress.count())] == [
        "Removed “Call the dentist”"
    ]
    assert made not in murmur.window.entries.entry_ids() and selected(murmur) == neighbour


def test_undoing_a_completion_reopens_the_entry_and_selects_it(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk", "pay rent", "water the plants")
    rent = next(entry for entry in murmur.window.entries.entry_ids() if summary_of(murmur, entry) == "Pay rent")
    murmur.window.show()
    murmur.window.select_entry(rent)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "milk is done")
    assert murmur.toast.title.text() == "Completed “Buy milk”" and selected(murmur) == rent

    undo_last(qtbot, murmur)

    assert murmur.toast.title.text() == "Undone: “Buy milk” is open again"
    assert murmur.window.activity.outcome.text() == "Undone: “Buy milk” is open again"
    assert summary_of(murmur, selected(murmur)) == "Buy milk"


def test_nothing_to_undo_is_said_and_the_app_stays_ready(qtbot: QtBot, murmur: Murmur) -> None:
    undo = next(a for a in murmur.window.findChildren(QAction) if a.text() == "Undo last change")
    undo.trigger()
    qtbot.waitUntil(lambda: murmur.toast.title.text() == "Nothing to undo", timeout=WAIT_MS)
    assert murmur.window.activity.outcome.text() == "Nothing to undo"
    assert murmur.state() is AppState.IDLE and murmur.window.activity.status.text().startswith("Ready")
