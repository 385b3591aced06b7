"""Renaming an entry in place in the list, as a misheard word is put right: the details pane's Text says the new
words, its history and the History view tell the creation under the old name and the rename on a line of its own,
and Undo takes back the rename, then the creation."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from tests.support.app_window import summaries
from tests.ui.selection import WAIT_MS, said_and_selected

SAID = "call the dentits about the crown on thursday"
CREATED = "Created “Call the dentits about the crown”"
RENAMED = "Renamed “Call the dentits about the crown” to “Call the dentist about the crown”"


def renamed_in_the_list(qtbot: QtBot, murmur: Murmur, entry_id: str, words: str) -> None:
    view = murmur.window.entries
    view.edit(murmur.window.model.index_of(entry_id))
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, words)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(editor, Qt.Key.Key_Return)


def history_view_lines(murmur: Murmur) -> list[str]:
    tree = murmur.window.history.tree
    tops = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return [top.child(j).text(0) for top in reversed(tops) if top for j in range(top.childCount())]


def test_a_rename_in_the_list_puts_the_text_right_and_is_its_own_line_in_the_history(
    qtbot: QtBot, murmur: Murmur
) -> None:
    entry_id = said_and_selected(qtbot, murmur, SAID)
    renamed_in_the_list(qtbot, murmur, entry_id, "Call the dentist about the crown")
    details = murmur.window.details
    assert details.summary.text() == "Call the dentist about the crown"
    assert details.content.toPlainText() == "Call the dentist about the crown on thursday"
    lines = [details.changes.item(i).text() for i in range(details.changes.count())]
    assert [line.split(" · ", 1)[1] for line in lines] == [f"{RENAMED}", f"{CREATED}, from “{SAID}”"]
    assert history_view_lines(murmur) == [CREATED, RENAMED]

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.undo_last()
    assert summaries(murmur) == ["Call the dentits about the crown"]
    assert details.content.toPlainText() == "Call the dentits about the crown on thursday"
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.undo_last()
    assert summaries(murmur) == []
