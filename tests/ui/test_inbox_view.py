"""The Inbox's Dismiss and Edit… buttons, through the whole app: the worker, the real service, the toast's Undo."""

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from tests.support.app_window import summaries, type_and_enter

WAIT_MS = 15_000


def wait_in_the_inbox(qtbot: QtBot, murmur: Murmur, said: str) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, said)  # nothing on the list matches: it waits in the inbox
    inbox = murmur.window.inbox
    assert inbox.tree.topLevelItemCount() == 1
    inbox.tree.topLevelItem(0).setSelected(True)


def test_the_buttons_are_named_and_wait_for_a_choice(qtbot: QtBot, murmur: Murmur) -> None:
    inbox = murmur.window.inbox
    buttons = (inbox.retry_button, inbox.edit_button, inbox.dismiss_button)
    assert [b.accessibleName() for b in buttons] == ["Retry", "Edit", "Dismiss"]
    assert not any(b.isEnabled() for b in buttons) and inbox.editing.isHidden()
    wait_in_the_inbox(qtbot, murmur, "eggs are done")
    assert all(b.isEnabled() for b in buttons)


def test_dismiss_clears_the_inbox_and_the_toast_s_undo_brings_it_back(qtbot: QtBot, murmur: Murmur) -> None:
    wait_in_the_inbox(qtbot, murmur, "eggs are done")
    inbox = murmur.window.inbox
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(inbox.dismiss_button, Qt.MouseButton.LeftButton)
    assert inbox.tree.topLevelItemCount() == 0 and murmur.service.inbox() == []
    toast = murmur.toast
    assert toast.content is not None and not toast.content.error
    assert toast.title.text() == "Dismissed “eggs are done”" and toast.undo_button.isVisible()
    [inbox_row] = murmur.window.sidebar.findItems("Inbox", Qt.MatchFlag.MatchExactly)
    assert inbox_row.data(Qt.ItemDataRole.AccessibleTextRole) == "Inbox"  # the badge is gone

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert inbox.tree.topLevelItemCount() == 1 and inbox.tree.topLevelItem(0).text(0) == "eggs are done"


def test_edit_runs_the_words_put_right_and_the_item_leaves_the_inbox(qtbot: QtBot, murmur: Murmur) -> None:
    wait_in_the_inbox(qtbot, murmur, "legs are done")  # misheard
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "buy eggs")
    inbox = murmur.window.inbox
    inbox.tree.topLevelItem(0).setSelected(True)
    qtbot.mouseClick(inbox.edit_button, Qt.MouseButton.LeftButton)
    assert not inbox.editing.isHidden() and inbox.editor.text() == "legs are done"
    assert inbox.editor.accessibleName() == "Corrected words"
    inbox.editor.clear()
    qtbot.keyClicks(inbox.editor, "eggs are done")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(inbox.editor, Qt.Key.Key_Return)
    assert inbox.editing.isHidden() and inbox.tree.topLevelItemCount() == 0
    assert murmur.toast.title.text() == "Completed “Buy eggs”" and summaries(murmur) == []
    [said] = [h for h in murmur.service.recall("eggs are done") if h.said == "eggs are done"]
    assert said.done == ['completed "Buy eggs"']


def test_cancel_leaves_the_words_as_they_are(qtbot: QtBot, murmur: Murmur) -> None:
    wait_in_the_inbox(qtbot, murmur, "eggs are done")
    inbox = murmur.window.inbox
    with qtbot.assertNotEmitted(inbox.edit_requested):
        qtbot.mouseClick(inbox.edit_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(inbox.cancel_edit_button, Qt.MouseButton.LeftButton)
    assert inbox.editing.isHidden() and [u.text for u in murmur.service.inbox()] == ["eggs are done"]
