"""The entry list's model: sections at a fixed now, relative dues, the views and the search at 10,000
entries, ticking off and inline edits that ask the service instead of writing."""

from datetime import timedelta
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.store.models import Entry
from app.ui.entry_delegate import split_matches
from app.ui.entry_model import SECTION_ROLE, EntryFilterModel, EntryListModel
from app.ui.entry_sections import View
from app.ui.jobs import EntrySnapshot

CATEGORIES = list(Category)


def entry(clock: Clock, name: str, due_in: timedelta | None = None, **fields: Any) -> Entry:
    fields.setdefault("created_at", clock.now - timedelta(days=1))
    due = None if due_in is None else clock.now + due_in
    return Entry(content=name, summary=name, category=Category.TODO, source_text=name, due_at=due, **fields)


def listed(proxy: EntryFilterModel) -> dict[str, list[str]]:
    """Section title -> the summaries under it, as shown."""
    shown: dict[str, list[str]] = {}
    for s in range(proxy.rowCount()):
        section = proxy.index(s, 0)
        shown[proxy.data(section)] = [proxy.data(proxy.index(r, 0, section)) for r in range(proxy.rowCount(section))]
    return shown


def models(entries: list[Entry], clock: Clock) -> tuple[EntryListModel, EntryFilterModel]:
    model = EntryListModel()
    model.set_snapshot(EntrySnapshot(entries, {e.id: e.id[-6:] for e in entries}, clock.now, clock.tz))
    proxy = EntryFilterModel()
    proxy.setSourceModel(model)
    return model, proxy


def test_entries_fall_into_the_sections_people_read(qtbot: QtBot, clock: Clock) -> None:
    # Sunday 22 Nov 18:30 in Berlin.
    entries = [
        entry(clock, "in five minutes", timedelta(minutes=5)),
        entry(clock, "yesterday's", timedelta(days=-1)),
        entry(clock, "an hour late", timedelta(hours=-1)),
        entry(clock, "tomorrow morning", timedelta(hours=15)),
        entry(clock, "wednesday", timedelta(days=3)),
        entry(clock, "next month", timedelta(days=30)),
        entry(clock, "someday urgent", priority=1),
        entry(clock, "someday plain"),
        entry(clock, "snoozed till tuesday", timedelta(days=-2), status=Status.SNOOZED,
              snooze_until=clock.now + timedelta(days=2)),
        entry(clock, "ticked off", status=Status.COMPLETED, completed_at=clock.now - timedelta(hours=1)),
        entry(clock, "done last week", status=Status.COMPLETED, completed_at=clock.now - timedelta(days=6)),
        entry(clock, "archived", status=Status.ARCHIVED),
    ]  # fmt: skip
    _, proxy = models(entries, clock)
    proxy.set_view(View.ALL)
    assert listed(proxy) == {
        "Overdue": ["yesterday's", "an hour late"],  # the most overdue first
        "Today": ["in five minutes"],
        "Tomorrow": ["tomorrow morning"],
        "Tuesday 24 Nov": ["snoozed till tuesday"],  # it waits as asked
        "Wednesday 25 Nov": ["wednesday"],
        "Later": ["next month"],
        "Someday": ["someday urgent", "someday plain"],
        "Done today": ["ticked off"],
    }
    proxy.set_view(View.TODAY)
    assert list(listed(proxy)) == ["Overdue", "Today", "Done today"]
    proxy.set_view(View.UPCOMING)
    assert list(listed(proxy)) == ["Today", "Tomorrow", "Tuesday 24 Nov", "Wednesday 25 Nov", "Later"]
    proxy.set_view(View.DONE)
    assert listed(proxy) == {"Done today": ["ticked off"], "Done": ["done last week"], "Archived": ["archived"]}


def test_dues_are_said_relative_to_now_and_overdue_is_marked(qtbot: QtBot, clock: Clock) -> None:
    entries = [
        entry(clock, "soon", timedelta(minutes=20)),
        entry(clock, "late", timedelta(hours=-2)),
        entry(clock, "tomorrow", timedelta(hours=14, minutes=30)),
        entry(clock, "wednesday", timedelta(days=3, hours=-3, minutes=-30)),
        entry(clock, "next month", timedelta(days=30)),
        entry(clock, "next year", timedelta(days=60)),
    ]
    model, proxy = models(entries, clock)
    rows = {row.summary: row for row in (proxy.row_at(i) for i in proxy.entry_indexes()) if row}
    assert {name: row.due for name, row in rows.items()} == {
        "late": "Today 16:30",
        "soon": "in 20 min",
        "tomorrow": "Tomorrow 9:00",
        "wednesday": "Wed 15:00",
        "next month": "Tue 22 Dec",
        "next year": "21 Jan 2027",
    }
    assert rows["late"].overdue and not rows["soon"].overdue
    assert rows["tomorrow"].due_exact == "Monday 23 November 2026, 09:00"


@pytest.fixture
def ten_thousand(qtbot: QtBot, clock: Clock) -> tuple[EntryListModel, EntryFilterModel]:
    entries = [
        Entry(
            id=f"{i:032x}",
            content=f"entry number {i}" + (" about milk" if i % 100 == 0 else ""),
            summary=f"Entry {i}",
            category=CATEGORIES[i % len(CATEGORIES)],
            priority=None if i % 6 == 0 else i % 5 + 1,
            status=Status.COMPLETED if i % 10 == 9 else Status.ACTIVE,
            completed_at=clock.now - timedelta(days=2) if i % 10 == 9 else None,
            due_at=clock.now + timedelta(hours=i % 200 - 50) if i % 3 == 0 else None,
            source_text="",
            created_at=clock.now - timedelta(minutes=i),
        )
        for i in range(10_000)
    ]
    return models(entries, clock)


def test_ten_thousand_entries_filter_by_view_category_and_search(
    ten_thousand: tuple[EntryListModel, EntryFilterModel],
) -> None:
    _, proxy = ten_thousand
    proxy.set_view(View.ALL)
    assert len(proxy.entry_indexes()) == 9_000  # open entries (none was done today)
    proxy.set_view(View.ALL, Category.TODO)
    expected = sum(1 for i in range(10_000) if CATEGORIES[i % 8] is Category.TODO and i % 10 != 9)
    assert len(proxy.entry_indexes()) == expected
    proxy.set_view(View.ALL)
    proxy.set_search("MILK entry")
    assert len(proxy.entry_indexes()) == 100  # every status: a search looks through everything
    proxy.set_search("number 19")
    found = {proxy.data(i) for i in proxy.entry_indexes()}
    assert "Entry 19" in found and "Entry 1999" in found  # done ones too
    proxy.set_search("")
    proxy.set_view(View.DONE)
    assert len(proxy.entry_indexes()) == 1_000
    someday = [proxy.row_at(i) for i in proxy.entry_indexes()]
    assert all(row and row.done for row in someday)


def test_ticking_and_editing_ask_the_service_instead_of_writing(qtbot: QtBot, clock: Clock) -> None:
    milk, bread = entry(clock, "Buy milk"), entry(clock, "Buy bread", status=Status.COMPLETED)
    model, proxy = models([milk, bread], clock)
    proxy.set_view(View.ALL)
    index = proxy.index_of(milk.id)
    assert proxy.data(index, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    with qtbot.waitSignal(model.check_requested) as ticked:
        assert proxy.setData(index, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole) is False
    assert ticked.args == [milk.id, True]
    with qtbot.waitSignal(model.edited) as edited:
        proxy.setData(index, "Buy oat milk")
    assert edited.args == [milk.id, {"summary": "Buy oat milk"}]
    with qtbot.assertNotEmitted(model.edited):
        proxy.setData(index, "Buy milk ")  # unchanged
    section = proxy.index(0, 0)
    assert proxy.data(section, SECTION_ROLE).title == "Someday"
    assert not proxy.flags(section) & Qt.ItemFlag.ItemIsSelectable


def test_search_matches_are_cut_out_for_bold() -> None:
    assert split_matches("Buy Milk and milkshake", ["milk"]) == [
        ("Buy ", False), ("Milk", True), (" and ", False), ("milk", True), ("shake", False),
    ]  # fmt: skip
    assert split_matches("Call mom", ["xyz"]) == [("Call mom", False)]
