"""A change made in the window updates the rows it touched in place: the model is not reset, the selection
stays, and the entries it did not touch are not read again."""

from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from tests.support.app_window import said_and_shown

WAIT_MS = 15_000


def test_an_edit_updates_its_row_in_place_and_reads_no_other_entry(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_shown(qtbot, murmur, "buy milk", "buy bread", "call mom")
    model, view = murmur.model, murmur.window.entries
    before = {entry_id: row.entry for entry_id in model.entry_ids() if (row := model.row_of(entry_id))}
    [milk] = [entry_id for entry_id, entry in before.items() if entry.summary == "Buy milk"]
    murmur.window.select_entry(milk)
    with qtbot.assertNotEmitted(model.modelReset), qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.edit(lambda service: service.edit([milk], {"summary": "Buy oat milk"}))
    after = {entry_id: row.entry for entry_id in model.entry_ids() if (row := model.row_of(entry_id))}
    assert after[milk].summary == "Buy oat milk"
    assert all(after[entry_id] is before[entry_id] for entry_id in before if entry_id != milk)
    assert model.entry_id(view.currentIndex()) == milk  # still selected
    assert murmur.window.details.summary.text() == "Buy oat milk"  # the details follow the row
