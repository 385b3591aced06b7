"""A file Murmur cannot use is one clear line and changes nothing; a file it can partly use brings in the rest."""

import json
from pathlib import Path

import pytest

from app.domain.enums import Format
from app.errors import UsageError
from app.service import MurmurService
from app.store.queries import stored_rows


def _count(service: MurmurService) -> int:
    with service.store.read() as session:
        return len(stored_rows(session, "entries"))


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("list.docx", b"PK\x03\x04", "cannot tell the format of list.docx from its name; add --format"),
        ("tasks.csv", b"summary\n\xff\xfebad", "is not UTF-8 text (byte 9 cannot be read)"),
        ("tasks.csv", b"when,what\n1,2\n", "the CSV file has no summary column"),
        ("tasks.csv", b"", "the CSV file is empty"),
        ("tasks.csv", b'"summary\nBuy milk\n', "the CSV file's first line cannot be read: unexpected end of data"),
        ("tasks.ics", b"SUMMARY:not a calendar\n", "not an iCalendar file: no BEGIN:VCALENDAR"),
        ("backup.json", b'{"entries": []}', "not a Murmur export: the JSON has no murmur_export number"),
        ("backup.json", b'{"murmur_export": 2, "entries": []}', "newer than this Murmur reads (1): upgrade Murmur"),
        ("backup.json", b'{"murmur_export": 1,', "not a JSON file"),
        ("notes.md", b"# hi", "Murmur does not import markdown"),
    ],
)
def test_a_file_murmur_cannot_read_is_one_line_and_changes_nothing(
    filled: MurmurService, tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    before = _count(filled)

    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        filled.import_file(path)

    assert "\n" not in str(raised.value) and _count(filled) == before


def test_a_missing_file_or_a_folder_is_named(filled: MurmurService, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no file at"):
        filled.import_file(tmp_path / "nothing.ics")
    with pytest.raises(UsageError, match="is a folder"):
        filled.import_file(tmp_path, Format.ICS)


def test_bad_rows_of_a_json_export_are_named_by_line_and_the_rest_restored(
    filled: MurmurService, empty: MurmurService, tmp_path: Path
) -> None:
    text = filled.export(Format.JSON)
    lines = text.split("\n")
    entry_lines = [number for number, line in enumerate(lines, start=1) if '"summary": ' in line]
    broken = json.loads(lines[entry_lines[1] - 1].rstrip(","))
    lines[entry_lines[1] - 1] = json.dumps(broken | {"category": "chore"}) + ","
    third = json.loads(lines[entry_lines[2] - 1].rstrip(","))
    lines[entry_lines[2] - 1] = json.dumps(third | {"due_at": "next week"}) + ","
    path = tmp_path / "export.json"
    path.write_text("\n".join(lines))

    outcome = empty.import_file(path)

    assert [str(p) for p in outcome.problems] == [
        f"line {entry_lines[1]}: entry skipped: 'chore' is not a valid Category",
        f"line {entry_lines[2]}: entry skipped: Invalid isoformat string: 'next week'",
    ]
    assert outcome.added == 7 and _count(empty) == 7


def test_a_bad_component_in_a_calendar_costs_only_itself(empty: MurmurService, tmp_path: Path) -> None:
    path = tmp_path / "mixed.ics"
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//y//EN"]
    for number in range(3):
        due = "2026XX" if number == 1 else f"2026120{number + 1}T100000Z"
        lines += ["BEGIN:VTODO", f"UID:task-{number}", f"SUMMARY:Task {number}", f"DUE:{due}", "END:VTODO"]
    path.write_text("\r\n".join([*lines, "END:VCALENDAR", ""]))

    outcome = empty.import_file(path)

    assert outcome.added == 2
    assert [(p.line, "2026XX" in p.message) for p in outcome.problems] == [(9, True)]
