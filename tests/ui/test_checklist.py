"""A list's items in the window: the row says how many are done ("2 of 4"), the details panel ticks them one by
one through the service (undoable, from the toast too) and adds new ones; the last item completes the entry."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from app.domain.checklist import ChecklistItem, load_items
from app.domain.enums import Status
from app.store.models import Entry
from app.ui.application import Murmur
from app.ui.entry_delegate import RowLayout
from app.ui.plain_text import plain_tooltip
from tests.ui.selection import WAIT_MS, said_and_selected

SAID = "buy eggs, bread, milk and coffee"
SUMMARY = "Buy eggs, bread, milk and coffee"


def stored(murmur: Murmur, entry_id: str) -> Entry:
    with murmur.service.store.read() as session:
        entry = session.get(Entry, entry_id)
    assert entry is not None
    return entry


def box(murmur: Murmur, text: str) -> QCheckBox:
    [found] = [box for box in murmur.window.details.checklist.boxes if box.accessibleName() == text]
    return found


def click(qtbot: QtBot, murmur: Murmur, text: str) -> None:
    """A click on the box itself (its indicator), as the user aims it; the list is read again after."""
    target = box(murmur, text)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(target, Qt.MouseButton.LeftButton, pos=QPoint(8, target.height() // 2))


def test_the_row_says_how_many_items_are_done(qtbot: QtBot, murmur: Murmur) -> None:
    entry_id = said_and_selected(qtbot, murmur, SAID, "milk is done", "the bread is done")
    view, model = murmur.window.entries, murmur.window.model
    index = model.index_of(entry_id)
    row = model.row_at(index)
    assert row is not None and row.summary == SUMMARY and row.progress == "2 of 4"
    assert model.data(index, Qt.ItemDataRole.AccessibleTextRole).startswith(f"{SUMMARY}, 2 of 4 done, todo")
    layout = RowLayout.of(view.visualRect(index), row, view.fontMetrics())
    assert layout.progress is not None and layout.progress.left() > layout.summary.right()
    assert view.visualRect(index).contains(layout.progress)
    assert layout.tooltip(layout.progress.center(), row) == plain_tooltip("2 of 4 items done")
    # Painted: the progress's place holds more than the row's background.
    image = view.viewport().grab().toImage()
    spot = layout.progress
    colours = {image.pixel(x, y) for x in range(spot.left(), spot.right()) for y in range(spot.top(), spot.bottom())}
    assert len(colours) > 1


def test_a_click_on_an_item_ticks_it_and_undo_takes_it_back(qtbot: QtBot, murmur: Murmur) -> None:
    entry_id = said_and_selected(qtbot, murmur, SAID)
    details = murmur.window.details
    assert [b.text() for b in details.checklist.boxes] == ["eggs", "bread", "milk", "coffee"]
    assert not any(b.isChecked() for b in details.checklist.boxes)

    click(qtbot, murmur, "milk")
    assert load_items(stored(murmur, entry_id).items)[2] == ChecklistItem("milk", done=True)
    assert box(murmur, "milk").isChecked() and not box(murmur, "eggs").isChecked()
    assert murmur.window.model.row_of(entry_id).progress == "1 of 4"  # type: ignore[union-attr]
    toast = murmur.toast
    assert toast.isVisible() and toast.undo_button.isVisible()
    assert toast.title.text() == f"Ticked “milk” on “{SUMMARY}” · 1 of 4 done"
    assert details.changes.item(0).text().startswith("Today ") and f"Ticked “milk” on “{SUMMARY}”" in (
        details.changes.item(0).text()
    )

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert not any(item.done for item in load_items(stored(murmur, entry_id).items))
    assert not box(murmur, "milk").isChecked()
    assert murmur.window.model.row_of(entry_id).progress == "0 of 4"  # type: ignore[union-attr]


def test_unticking_takes_an_item_back(qtbot: QtBot, murmur: Murmur) -> None:
    entry_id = said_and_selected(qtbot, murmur, SAID, "milk is done")
    assert box(murmur, "milk").isChecked()
    click(qtbot, murmur, "milk")
    assert not any(item.done for item in load_items(stored(murmur, entry_id).items))
    assert not box(murmur, "milk").isChecked()


def test_the_last_item_completes_the_entry(qtbot: QtBot, murmur: Murmur) -> None:
    entry_id = said_and_selected(qtbot, murmur, SAID, "eggs are done", "bread is done", "milk is done")
    click(qtbot, murmur, "coffee")
    entry = stored(murmur, entry_id)
    assert entry.status is Status.COMPLETED and all(item.done for item in load_items(entry.items))
    assert murmur.window.details.status.text().startswith("Done")
    # A completed list's ticked items can be taken back, which opens it again; nothing is added to it.
    assert box(murmur, "coffee").isEnabled() and not murmur.window.details.checklist.add_line.isEnabled()
    click(qtbot, murmur, "coffee")
    assert stored(murmur, entry_id).status is Status.ACTIVE


def test_an_item_added_in_the_panel_joins_the_list(qtbot: QtBot, murmur: Murmur) -> None:
    entry_id = said_and_selected(qtbot, murmur, SAID)
    line = murmur.window.details.checklist.add_line
    qtbot.keyClicks(line, "salt & pepper")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(line, Qt.Key.Key_Return)
    assert load_items(stored(murmur, entry_id).items)[-1] == ChecklistItem("salt & pepper")
    assert box(murmur, "salt & pepper").text() == "salt && pepper" and line.text() == ""
    assert murmur.window.model.row_of(entry_id).progress == "0 of 5"  # type: ignore[union-attr]
