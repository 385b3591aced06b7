"""One item taken off a list in the details panel: its remove button asks the service (undoable from the toast),
the other items keep their ticks, and the list stays open; a list made by its name shows its name and items."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from app.domain.checklist import ChecklistItem, load_items
from app.domain.enums import Status
from app.store.models import Entry
from app.ui.application import Murmur
from app.ui.checklist_editor import remove_words
from tests.ui.selection import WAIT_MS, said_and_selected


def stored(murmur: Murmur, entry_id: str) -> Entry:
    with murmur.service.store.read() as session:
        entry = session.get(Entry, entry_id)
    assert entry is not None
    return entry


def remove_button(murmur: Murmur, text: str) -> QToolButton:
    [found] = [b for b in murmur.window.details.checklist.remove_buttons if b.accessibleName() == remove_words(text)]
    return found


def test_an_item_s_remove_button_takes_it_off_and_undo_puts_it_back(qtbot: QtBot, murmur: Murmur) -> None:
    entry_id = said_and_selected(qtbot, murmur, "picnic list: rolls, cherries, lemonade", "got the cherries")
    details = murmur.window.details
    assert details.summary.text() == "Picnic list"  # the list's name; its things are its items
    assert [b.text() for b in details.checklist.boxes] == ["rolls", "cherries", "lemonade"]

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(remove_button(murmur, "rolls"), Qt.MouseButton.LeftButton)
    entry = stored(murmur, entry_id)
    assert entry.status is Status.ACTIVE and entry.summary == "Picnic list"
    assert load_items(entry.items) == (ChecklistItem("cherries", done=True), ChecklistItem("lemonade"))
    assert [b.text() for b in details.checklist.boxes] == ["cherries", "lemonade"]
    assert details.checklist.boxes[0].isChecked()
    toast = murmur.toast
    assert toast.title.text() == "Removed “rolls” from “Picnic list”"

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert load_items(stored(murmur, entry_id).items) == (
        ChecklistItem("rolls"),
        ChecklistItem("cherries", done=True),
        ChecklistItem("lemonade"),
    )
    assert [b.text() for b in details.checklist.boxes] == ["rolls", "cherries", "lemonade"]


def test_a_done_list_s_items_cannot_be_removed(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_selected(qtbot, murmur, "picnic list: rolls, cherries", "got the rolls", "got the cherries")
    assert not any(button.isEnabled() for button in murmur.window.details.checklist.remove_buttons)
