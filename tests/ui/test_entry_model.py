from datetime import timedelta

import pytest
from pytestqt.qtbot import QtBot

from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.store.models import Entry
from app.ui.entry_model import OVERDUE_COLOUR, Column, EntryFilterModel, EntryTableModel
from app.ui.jobs import EntrySnapshot

CATEGORIES = list(Category)


def many_entries(clock: Clock, count: int) -> list[Entry]:
    entries = []
    for i in range(count):
        entries.append(
            Entry(
                id=f"{i:032x}",
                content=f"entry number {i}" + (" about milk" if i % 100 == 0 else ""),
                summary=f"Entry {i}",
                category=CATEGORIES[i % len(CATEGORIES)],
                priority=None if i % 6 == 0 else i % 5 + 1,
                status=Status.COMPLETED if i % 10 == 9 else Status.ACTIVE,
                source_text="",
                created_at=clock.now - timedelta(minutes=i),
            )
        )
    return entries


@pytest.fixture
def models(qtbot: QtBot, clock: Clock) -> tuple[EntryTableModel, EntryFilterModel]:
    model = EntryTableModel()
    entries = many_entries(clock, 10_000)
    model.set_snapshot(EntrySnapshot(entries, {e.id: e.id[-6:] for e in entries}, clock.now, clock.tz))
    proxy = EntryFilterModel()
    proxy.setSourceModel(model)
    return model, proxy


def test_ten_thousand_entries_sort_by_priority_then_newest(models: tuple[EntryTableModel, EntryFilterModel]) -> None:
    model, _ = models
    rows = [model.row_at(i) for i in range(model.rowCount())]
    assert len(rows) == 10_000
    assert [r.priority for r in rows[:1]] == [1] and rows[-1].priority is None
    keys = [((r.priority or 99), -r.created_at.timestamp()) for r in rows]
    assert keys == sorted(keys)


def test_filters_by_status_category_and_search(models: tuple[EntryTableModel, EntryFilterModel]) -> None:
    model, proxy = models
    assert proxy.rowCount() == 9_000  # open entries by default
    proxy.set_category(Category.TODO)
    assert proxy.rowCount() == sum(1 for i in range(10_000) if CATEGORIES[i % 8] is Category.TODO and i % 10 != 9)
    proxy.set_category(None)
    proxy.set_search("MILK entry")
    found = [proxy.data(proxy.index(i, Column.SUMMARY)) for i in range(proxy.rowCount())]
    assert len(found) == 100 and "Entry 0" in found
    proxy.set_statuses(frozenset({Status.COMPLETED}))
    assert proxy.rowCount() == 0  # no completed entry mentions milk (i % 100 == 0 is never i % 10 == 9)
    proxy.set_search("")
    assert proxy.rowCount() == 1_000


def test_overdue_due_dates_are_relative_and_coloured(qtbot: QtBot, clock: Clock) -> None:
    entry = Entry(
        content="call the dentist",
        summary="Call the dentist",
        category=Category.REMINDER,
        source_text="",
        due_at=clock.now - timedelta(hours=2),
    )
    later = Entry(
        content="pay rent",
        summary="Pay rent",
        category=Category.TODO,
        source_text="",
        due_at=clock.now + timedelta(days=1),
    )
    model = EntryTableModel()
    model.set_snapshot(EntrySnapshot([entry, later], {}, clock.now, clock.tz))
    texts = {model.data(model.index(r, Column.SUMMARY)): model.index(r, Column.DUE) for r in range(2)}
    assert model.data(texts["Call the dentist"]) == "overdue today 16:30"
    assert model.data(texts["Call the dentist"], 9) == OVERDUE_COLOUR  # ForegroundRole
    assert model.data(texts["Pay rent"]) == "tomorrow 18:30"
    assert model.data(texts["Pay rent"], 9) is None


def test_inline_edit_asks_for_an_update_instead_of_writing(qtbot: QtBot, clock: Clock) -> None:
    entry = Entry(content="milk", summary="Buy milk", category=Category.TODO, source_text="")
    model = EntryTableModel()
    model.set_snapshot(EntrySnapshot([entry], {}, clock.now, clock.tz))
    with qtbot.waitSignal(model.edited) as edited:
        assert model.setData(model.index(0, Column.PRIORITY), "2") is False
    assert edited.args == [entry.id, {"priority": "2"}]
    with qtbot.assertNotEmitted(model.edited):
        model.setData(model.index(0, Column.SUMMARY), "Buy milk")  # unchanged
