"""The entry list's model: sections at a fixed now, relative dues, the views and the search at 10,000
entries, ticking off and inline edits that ask the service instead of writing."""

from datetime import timedelta
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics
from pytestqt.qtbot import QtBot

from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.store.models import Entry
from app.ui.entry_delegate import RowLayout, split_matches
from app.ui.entry_model import EntryListModel
from app.ui.entry_sections import Part, Section, Sort, View
from app.ui.jobs import EntrySnapshot
from app.ui.plain_text import plain_tooltip

CATEGORIES = list(Category)


def entry(clock: Clock, name: str, due_in: timedelta | None = None, **fields: Any) -> Entry:
    fields.setdefault("created_at", clock.now - timedelta(days=1))
    fields.setdefault("category", Category.TODO)
    due = None if due_in is None else clock.now + due_in
    return Entry(content=name, summary=name, source_text=name, due_at=due, **fields)


def listed(model: EntryListModel) -> dict[str, list[str]]:
    """Section title -> the summaries under it, as shown."""
    shown: dict[str, list[str]] = {}
    title = ""
    for line in range(model.rowCount()):
        index = model.index(line, 0)
        if header := model.header_at(index):
            title = header.section.title
            shown[title] = []
        else:
            shown[title].append(model.data(index))
    return shown


def make_model(entries: list[Entry], clock: Clock) -> EntryListModel:
    model = EntryListModel()
    model.set_snapshot(EntrySnapshot(entries, {e.id: e.id[-6:] for e in entries}, clock.now, clock.tz))
    return model


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
    model = make_model(entries, clock)
    assert listed(model) == {
        "Overdue": ["yesterday's", "an hour late"],  # the most overdue first
        "Today": ["in five minutes"],
        "Tomorrow": ["tomorrow morning"],
        "Tuesday 24 Nov": ["snoozed till tuesday"],  # it waits as asked
        "Wednesday 25 Nov": ["wednesday"],
        "Later": ["next month"],
        "Someday": ["someday urgent", "someday plain"],
        "Done today": ["ticked off"],
    }
    model.set_view(View.TODAY)
    assert list(listed(model)) == ["Overdue", "Today", "Done today"]
    model.set_view(View.UPCOMING)
    assert list(listed(model)) == ["Today", "Tomorrow", "Tuesday 24 Nov", "Wednesday 25 Nov", "Later"]
    model.set_view(View.DONE)
    assert listed(model) == {"Done today": ["ticked off"], "Done": ["done last week"], "Archived": ["archived"]}
    model.set_folded(Section(Part.DONE), True)
    assert listed(model) == {"Done today": ["ticked off"], "Done": [], "Archived": ["archived"]}
    folded = model.header_at(model.index(2, 0))
    assert folded is not None and folded.folded and folded.count == 1  # the header stays, with its count


def test_dues_are_said_relative_to_now_and_overdue_is_marked(qtbot: QtBot, clock: Clock) -> None:
    entries = [
        entry(clock, "soon", timedelta(minutes=20)),
        entry(clock, "late", timedelta(hours=-2)),
        entry(clock, "tomorrow", timedelta(hours=14, minutes=30)),
        entry(clock, "wednesday", timedelta(days=3, hours=-3, minutes=-30)),
        entry(clock, "next month", timedelta(days=30)),
        entry(clock, "next year", timedelta(days=60)),
    ]
    model = make_model(entries, clock)
    rows = {row.summary: row for row in map(model.row_of, model.entry_ids()) if row}
    assert {name: row.due for name, row in rows.items()} == {
        "late": "Today 16:30",
        "soon": "in 20 min",
        "tomorrow": "Tomorrow 09:00",
        "wednesday": "Wed 15:00",
        "next month": "Tue 22 Dec",
        "next year": "Thu 21 Jan 2027",
    }
    assert rows["late"].overdue and not rows["soon"].overdue
    assert rows["tomorrow"].due_exact == "Monday 23 November 2026, 09:00"


def test_each_section_folds_on_its_own_and_stays_folded_across_a_refresh(qtbot: QtBot, clock: Clock) -> None:
    entries = [
        entry(clock, "late", timedelta(hours=-1)),
        entry(clock, "tuesday", timedelta(days=2)),
        entry(clock, "wednesday", timedelta(days=3)),
    ]
    model = make_model(entries, clock)
    tuesday = next(h.section for i in range(model.rowCount()) if (h := model.header_at(model.index(i, 0)))
                   and h.section.part is Part.DAY)  # fmt: skip
    model.set_folded(tuesday, True)
    model.set_folded(Section(Part.OVERDUE), True)
    expected = {"Overdue": [], "Tuesday 24 Nov": [], "Wednesday 25 Nov": ["wednesday"]}
    assert listed(model) == expected
    assert model.folded == {"overdue", "2026-11-24"}  # keys that mean the same section tomorrow and after a restart
    model.set_snapshot(EntrySnapshot(entries, {e.id: e.id[-6:] for e in entries}, clock.now, clock.tz))
    assert listed(model) == expected
    model.set_folded(tuesday, False)
    assert listed(model)["Tuesday 24 Nov"] == ["tuesday"]


def test_the_archived_view_lists_archived_entries_alone(qtbot: QtBot, clock: Clock) -> None:
    entries = [
        entry(clock, "open"),
        entry(clock, "done", status=Status.COMPLETED, completed_at=clock.now),
        entry(clock, "put away", status=Status.ARCHIVED),
    ]
    model = make_model(entries, clock)
    model.set_view(View.ARCHIVED)
    assert listed(model) == {"Archived": ["put away"]}


def test_a_sort_orders_the_rows_of_each_section(qtbot: QtBot, clock: Clock) -> None:
    entries = [
        entry(clock, "water plants", timedelta(hours=2), created_at=clock.now - timedelta(hours=2)),
        entry(clock, "Call mom", timedelta(hours=3), category=Category.REMINDER,
              created_at=clock.now - timedelta(hours=1)),
        entry(clock, "buy milk", timedelta(hours=1), category=Category.HABIT,
              created_at=clock.now - timedelta(hours=3)),
        entry(clock, "an idea", category=Category.IDEA),
    ]  # fmt: skip
    model = make_model(entries, clock)
    assert listed(model) == {"Today": ["buy milk", "water plants", "Call mom"], "Someday": ["an idea"]}
    model.set_sort(Sort.CREATED)  # the newest first
    assert listed(model)["Today"] == ["Call mom", "water plants", "buy milk"]
    model.set_sort(Sort.KIND)  # in the order of the categories: todo, reminder, habit
    assert listed(model)["Today"] == ["water plants", "Call mom", "buy milk"]
    model.set_sort(Sort.ALPHABETICAL)  # whatever the case
    assert listed(model) == {"Today": ["buy milk", "Call mom", "water plants"], "Someday": ["an idea"]}
    model.set_sort(Sort.DUE)
    assert listed(model)["Today"] == ["buy milk", "water plants", "Call mom"]


@pytest.fixture
def ten_thousand(qtbot: QtBot, clock: Clock) -> EntryListModel:
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
    return make_model(entries, clock)


@pytest.mark.slow  # ten thousand rows
def test_ten_thousand_entries_filter_by_view_category_and_search(ten_thousand: EntryListModel) -> None:
    model = ten_thousand
    assert len(model.entry_ids()) == 9_000  # open entries (none was done today)
    model.set_view(View.ALL, Category.TODO)
    expected = sum(1 for i in range(10_000) if CATEGORIES[i % 8] is Category.TODO and i % 10 != 9)
    assert len(model.entry_ids()) == expected
    model.set_view(View.ALL)
    model.set_search("MILK entry")
    assert len(model.entry_ids()) == 100  # every status: a search looks through everything
    model.set_search("number 19")
    found = {model.row_of(e).summary for e in model.entry_ids()}  # type: ignore[union-attr]
    assert "Entry 19" in found and "Entry 1999" in found  # done ones too
    model.set_search("")
    model.set_view(View.DONE)
    assert len(model.entry_ids()) == 1_000
    assert all(row and row.done for row in map(model.row_of, model.entry_ids()))


def test_ticking_and_editing_ask_the_service_instead_of_writing(qtbot: QtBot, clock: Clock) -> None:
    milk, bread = entry(clock, "Buy milk"), entry(clock, "Buy bread", status=Status.COMPLETED, completed_at=clock.now)
    model = make_model([milk, bread], clock)
    index = model.index_of(milk.id)
    assert model.data(index, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    with qtbot.waitSignal(model.check_requested) as ticked:
        assert model.setData(index, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole) is False
    assert ticked.args == [milk.id, True]
    with qtbot.waitSignal(model.check_requested) as unticked:
        model.setData(model.index_of(bread.id), Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    assert unticked.args == [bread.id, False]
    with qtbot.waitSignal(model.edited) as edited:
        model.setData(index, "Buy oat milk")
    assert edited.args == [milk.id, {"summary": "Buy oat milk"}]
    with qtbot.assertNotEmitted(model.edited):
        model.setData(index, "Buy milk ")  # unchanged
    header = model.index(0, 0)
    assert model.header_at(header).section.title == "Someday"  # type: ignore[union-attr]
    assert model.data(header) == "Someday, 1"  # what a screen reader says
    assert not model.flags(header) & Qt.ItemFlag.ItemIsSelectable


def test_search_matches_are_cut_out_for_bold() -> None:
    assert split_matches("Buy Milk and milkshake", ["milk"]) == [
        ("Buy ", False), ("Milk", True), (" and ", False), ("milk", True), ("shake", False),
    ]  # fmt: skip
    assert split_matches("Call mom", ["xyz"]) == [("Call mom", False)]


def test_a_rows_tooltips_show_the_users_words_as_plain_text(qtbot: QtBot, clock: Clock) -> None:
    said = "<b>when</b> <a href='x'>pigs</a> fly"
    model = make_model([entry(clock, "Odd one", due_text=said)], clock)
    row = model.row_of(model.entry_ids()[0])
    assert row is not None
    layout = RowLayout.of(QRect(0, 0, 600, 32), row, QFontMetrics(QFont()))
    assert layout.due is not None
    assert layout.tooltip(layout.due.center(), row) == plain_tooltip(f"Due “{said}” (no date read)")
    assert "<b>" not in layout.tooltip(layout.due.center(), row)  # escaped: no markup reaches Qt
