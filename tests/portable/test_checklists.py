"""A list's items through each format: exported, imported into an empty database, ticked as they were."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from icalendar import Calendar
from sqlmodel import select

from app.domain.checklist import load_items
from app.domain.enums import Format, Status
from app.service import MurmurService
from app.store.models import Entry
from tests.portable.conftest import open_service

SHOPPING = "Buy eggs, bread, milk and coffee"
PACKING = "Packing list"  # said as "packing list: passport, ...": the list's name, its things its items


@pytest.fixture
def lists(tmp_path: Path) -> Iterator[MurmurService]:
    """Two lists, items ticked and added (one item with a semicolon and brackets in it), and a plain todo."""
    service = open_service(tmp_path / "lists.db")
    for words in ("buy eggs, bread, milk and coffee", "packing list: passport, charger and sunscreen", "call mom"):
        service.submit(words)
    ids = {entry.summary: entry.id for entry in service.entries(list(Status))}
    service.submit("got the milk, and I packed the charger")
    service.add_items(ids[PACKING], ["adapter; the EU kind [2 pins]"])
    yield service
    service.close()


def checklists(service: MurmurService) -> dict[str, list[tuple[str, bool]]]:
    with service.store.read() as session:
        return {e.summary: [(i.text, i.done) for i in load_items(e.items)] for e in session.exec(select(Entry)).all()}


EXPECTED = {
    SHOPPING: [("eggs", False), ("bread", False), ("milk", True), ("coffee", False)],
    PACKING: [("passport", False), ("charger", True), ("sunscreen", False), ("adapter; the EU kind [2 pins]", False)],
    "Call mom": [],
}


def test_the_lists_are_as_said(lists: MurmurService) -> None:
    assert checklists(lists) == EXPECTED


@pytest.mark.parametrize(("fmt", "suffix"), [(Format.JSON, ".json"), (Format.ICS, ".ics"), (Format.CSV, ".csv")])
def test_items_come_back_ticked_as_they_were(
    lists: MurmurService, empty: MurmurService, tmp_path: Path, fmt: Format, suffix: str
) -> None:
    path = tmp_path / f"lists{suffix}"
    path.write_text(lists.export(fmt), encoding="utf-8")
    assert empty.import_file(path).problems == []
    assert checklists(empty) == EXPECTED
    # the items are the entry's, not part of its words
    assert {e.summary: e.content for e in empty.entries(list(Status))}[PACKING] == PACKING


def test_the_ics_description_is_a_checklist_other_apps_show(lists: MurmurService) -> None:
    [packing] = [c for c in Calendar.from_ical(lists.export(Format.ICS)).walk("VTODO") if str(c["SUMMARY"]) == PACKING]
    assert str(packing["DESCRIPTION"]) == (
        "- [ ] passport\n- [x] charger\n- [ ] sunscreen\n- [ ] adapter; the EU kind [2 pins]"
    )


def test_a_checklist_another_app_wrote_is_read_as_items(empty: MurmurService, tmp_path: Path) -> None:
    path = tmp_path / "reminders.ics"
    path.write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Other//EN\r\nBEGIN:VTODO\r\nUID:trip-1\r\n"
        "SUMMARY:Trip\r\nDESCRIPTION:Before Friday\\n- [x] tickets\\n* [ ] towels\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
        encoding="utf-8",
    )
    assert empty.import_file(path).problems == []
    [trip] = empty.entries(list(Status))
    assert (trip.content, [(i.text, i.done) for i in load_items(trip.items)]) == (
        "Before Friday",
        [("tickets", True), ("towels", False)],
    )


def test_a_json_row_with_items_murmur_did_not_write_is_skipped_with_its_line(
    lists: MurmurService, empty: MurmurService, tmp_path: Path
) -> None:
    text = lists.export(Format.JSON).replace('\\"text\\": \\"eggs\\"', '\\"text\\": 5', 1)  # inside the column's text
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    [problem] = empty.import_file(path).problems
    assert "entry skipped: items" in problem.message and "is not a checklist Murmur wrote" in problem.message
    assert SHOPPING not in checklists(empty) and PACKING in checklists(empty)


def test_csv_and_markdown_show_items_as_checkboxes(lists: MurmurService) -> None:
    csv = lists.export(Format.CSV)
    assert csv.splitlines()[0].endswith(",items")
    assert "[ ] eggs; [ ] bread; [x] milk; [ ] coffee" in csv
    markdown = lists.export(Format.MARKDOWN)
    assert (
        "- [ ] Packing list\n  - [ ] passport\n  - [x] charger\n  - [ ] sunscreen\n"
        "  - [ ] adapter; the EU kind \\[2 pins\\]\n" in markdown
    )


def test_todotxt_keeps_the_summary_that_names_the_items(lists: MurmurService) -> None:
    exported = lists.export(Format.TODOTXT)
    assert "Buy eggs, bread, milk and coffee" in exported
    # A list called by its name, its things in its line: todo.txt has no sub-tasks.
    assert "Packing list: passport, charger, sunscreen and adapter; the EU kind [2 pins]" in exported
