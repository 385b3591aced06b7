"""The Memory tab: remember, edit (double-click, or Edit) and forget through the real app and service, each
shown in the list and in the store, each taken back by Undo."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.memory_view import MemoryView

WAIT_MS = 15_000


def view_of(murmur: Murmur) -> MemoryView:
    murmur.window.show_place("memory")
    return murmur.window.memory


def stored(murmur: Murmur) -> list[str]:
    return [memory.text for _, memory in murmur.service.memories()]


def undo_last(qtbot: QtBot, murmur: Murmur, expected: list[str]) -> None:
    """The window's "Undo last change" (Ctrl+Z), then wait for the list to show `expected`."""
    undo = next(a for a in murmur.window.findChildren(QAction) if a.text() == "Undo last change")
    undo.trigger()
    qtbot.waitUntil(lambda: murmur.window.memory.texts() == expected, timeout=WAIT_MS)
    assert stored(murmur) == expected


def remember(qtbot: QtBot, murmur: Murmur, text: str) -> None:
    view = view_of(murmur)
    qtbot.keyClicks(view.input, text)
    qtbot.keyClick(view.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: text in view.texts(), timeout=WAIT_MS)


def test_remember_shows_in_the_list_and_the_store_and_undo_takes_it_back(qtbot: QtBot, murmur: Murmur) -> None:
    view = view_of(murmur)
    assert murmur.window.pages.currentWidget() is view and murmur.window.sidebar.chosen().title == "Memory"
    assert view.texts() == [] and not view.empty.isHidden()
    remember(qtbot, murmur, "My brother is Tom")
    assert view.input.text() == "" and view.empty.isHidden()
    assert stored(murmur) == ["My brother is Tom"]
    assert murmur.toast.title.text() == "Remembered: My brother is Tom" and murmur.toast.undo_button.isVisible()
    when = view.rows()[0].text(1)
    assert when.startswith("Today ") and len(when) == len("Today 18:30")

    undo_last(qtbot, murmur, [])


def test_edit_by_double_click_and_its_undo(qtbot: QtBot, murmur: Murmur) -> None:
    remember(qtbot, murmur, "Works at Acme")
    view = view_of(murmur)
    [row] = view.rows()
    rect = view.tree.visualItemRect(row)
    where = rect.topLeft() + QPoint(20, rect.height() // 2)  # on the text
    qtbot.mouseClick(view.tree.viewport(), Qt.MouseButton.LeftButton, pos=where)  # a view acts on a double
    qtbot.mouseDClick(view.tree.viewport(), Qt.MouseButton.LeftButton, pos=where)  # click on the row it pressed
    editor = view.tree.viewport().findChild(QLineEdit)
    assert editor is not None and editor.text() == "Works at Acme"
    editor.setText("Works at Initech")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: stored(murmur) == ["Works at Initech"], timeout=WAIT_MS)
    qtbot.waitUntil(lambda: murmur.toast.title.text() == "Edited: Works at Initech", timeout=WAIT_MS)
    assert view.texts() == ["Works at Initech"]

    undo_last(qtbot, murmur, ["Works at Acme"])


def test_edit_button_and_an_emptied_text_asks_nothing(qtbot: QtBot, murmur: Murmur) -> None:
    remember(qtbot, murmur, "Likes tea")
    view = view_of(murmur)
    [row] = view.rows()
    assert not view.edit_button.isEnabled()
    row.setSelected(True)
    assert view.edit_button.isEnabled()
    qtbot.mouseClick(view.edit_button, Qt.MouseButton.LeftButton)
    editor = view.tree.viewport().findChild(QLineEdit)
    assert editor is not None
    with qtbot.assertNotEmitted(view.edit_requested):
        editor.setText("   ")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert view.texts() == ["Likes tea"] and stored(murmur) == ["Likes tea"]


def test_forget_removes_it_and_undo_restores_it(qtbot: QtBot, murmur: Murmur) -> None:
    remember(qtbot, murmur, "Prefers mornings")
    remember(qtbot, murmur, "Has a cat called Miso")
    view = view_of(murmur)
    assert view.texts() == ["Has a cat called Miso", "Prefers mornings"]  # most recently used first
    view.rows()[1].setSelected(True)
    qtbot.mouseClick(view.forget_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.texts() == ["Has a cat called Miso"], timeout=WAIT_MS)
    assert stored(murmur) == ["Has a cat called Miso"]
    assert murmur.toast.title.text() == "Forgot: Prefers mornings"

    undo_last(qtbot, murmur, ["Has a cat called Miso", "Prefers mornings"])


def test_a_memory_is_shown_as_plain_text(qtbot: QtBot, murmur: Murmur) -> None:
    text = '<a href="https://example.com">Sign in</a> <b>now</b>'
    remember(qtbot, murmur, text)
    view = view_of(murmur)
    assert view.texts() == [text]
    assert "&lt;a href=" in view.rows()[0].toolTip(0)  # a tooltip is read as markup, so it is escaped
