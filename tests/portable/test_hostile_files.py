"""A file with one broken line, or a value Murmur would never write, costs only that line: it is named with its
number and the rest comes in. Real files in tmp_path, real SQLite at the other end."""

from pathlib import Path

import pytest

from app.changes.imports import Problem
from app.domain.enums import Format, Status
from app.errors import UsageError
from app.service import MurmurService
from tests.portable.rows import entry_row, json_file, memory_row, utterance_row


def _csv(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "tasks.csv"
    path.write_text("\n".join(["summary,content", *rows]) + "\n", encoding="utf-8")
    return path


def _lines(problems: list[Problem]) -> list[int]:
    return [problem.line for problem in problems]


def test_a_stray_quote_costs_only_its_row(empty: MurmurService, tmp_path: Path) -> None:
    rows = [f"task {number},words {number}" for number in range(2, 20_002)]
    rows[599] = '"task 601 with a stray quote,words'  # line 601: its quote is never closed
    outcome = empty.import_file(_csv(tmp_path, rows), dry_run=True)

    assert _lines(outcome.problems) == [601]
    assert outcome.added == 19_999


def test_a_cell_past_the_size_cap_costs_only_its_row_and_a_large_one_comes_in(
    empty: MurmurService, tmp_path: Path
) -> None:
    rows = ["first,a", f"large,{'x' * 19_000}", f"long,{'z' * 25_000}", f"huge,{'y' * 2_000_000}", "last,b"]
    outcome = empty.import_file(_csv(tmp_path, rows))

    assert _lines(outcome.problems) == [4, 5]
    assert "content is too long (25,000 characters; at most 20,000)" in outcome.problems[0].message
    assert "larger than" in outcome.problems[1].message
    assert sorted(entry.summary for entry in empty.entries(list(Status))) == ["first", "large", "last"]


def test_a_component_the_calendar_library_cannot_read_costs_only_itself(empty: MurmurService, tmp_path: Path) -> None:
    path = tmp_path / "tasks.ics"
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//y//EN"]
    lines += ["BEGIN:VTODO", "UID:one", "SUMMARY:Dated tags", "CATEGORIES;VALUE=DATE:20260101", "END:VTODO"]
    lines += ["BEGIN:VTODO", "UID:two", "SUMMARY:Fine", "END:VTODO", "END:VCALENDAR", ""]
    path.write_text("\r\n".join(lines), encoding="utf-8")

    outcome = empty.import_file(path)

    assert _lines(outcome.problems) == [4]
    assert [entry.summary for entry in empty.entries(list(Status))] == ["Fine"]


@pytest.mark.parametrize("closed", [True, False])
def test_json_nested_past_any_export_is_one_line_and_changes_nothing(
    empty: MurmurService, tmp_path: Path, closed: bool
) -> None:
    path = tmp_path / "deep.json"
    deep = "[" * 100_000 + ("]" * 100_000 + "}" if closed else "")
    path.write_text('{"murmur_export": 1, "entries": ' + deep, encoding="utf-8")

    with pytest.raises(UsageError, match="nested"):
        empty.import_file(path)
    assert empty.entries(list(Status)) == []


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"revision": 2**70}, "revision"),
        ({"revision": True}, "revision"),
        ({"utterance_id": 2**70}, "utterance_id"),
        ({"due_at": "9999-12-31T12:00:00+00:00"}, "due_at"),
        ({"created_at": "0001-01-01T00:00:00+00:00"}, "created_at"),
        ({"status": ["active"]}, "not a valid Status"),
        ({"summary": 5}, "summary"),
    ],
)
def test_an_entry_murmur_would_never_write_is_skipped_and_named(
    empty: MurmurService, tmp_path: Path, bad: dict[str, object], message: str
) -> None:
    fine = entry_row(2, summary="Fine", content="Fine")
    outcome = empty.import_file(json_file(tmp_path / "backup.json", entries=[entry_row(**bad), fine]))

    assert _lines(outcome.problems) == [6] and message in outcome.problems[0].message
    assert [entry.summary for entry in empty.entries(list(Status))] == ["Fine"]


@pytest.mark.parametrize(
    "bad",
    [{"attempts": "lots"}, {"attempts": -1}, {"attempts": 2**70}, {"id": 2**70}, {"id": "u1"}, {"revision": 0}],
)
def test_an_utterance_murmur_would_never_write_is_skipped_and_named(
    empty: MurmurService, tmp_path: Path, bad: dict[str, object]
) -> None:
    rows = [utterance_row(**bad), utterance_row(2)]
    outcome = empty.import_file(json_file(tmp_path / "backup.json", utterances=rows))

    assert _lines(outcome.problems) == [8] and "utterance skipped" in outcome.problems[0].message
    assert outcome.utterances == 1


@pytest.mark.parametrize("bad", [{"id": "m1"}, {"id": 7}, {"revision": 2**70}, {"forgotten_at": "9999-01-01T00:00"}])
def test_a_memory_row_murmur_would_never_write_is_skipped_and_named(
    empty: MurmurService, tmp_path: Path, bad: dict[str, object]
) -> None:
    outcome = empty.import_file(json_file(tmp_path / "backup.json", memories=[memory_row(**bad)]))

    assert _lines(outcome.problems) == [10] and "memory skipped" in outcome.problems[0].message
    assert empty.memories() == []


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        (Format.CSV, "summary,due\nFar off,9999-12-31 23:00\nSoon,2026-12-01\n"),
        (Format.TODOTXT, "Far off due:9999-12-31\nSoon due:2026-12-01\n"),
        (Format.ICS, "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Far off\r\nDUE:99991231T230000Z\r\n"
         "END:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY:Soon\r\nDUE:20261201T100000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"),
    ],
)  # fmt: skip
def test_a_time_past_what_the_list_can_show_is_refused_and_every_export_still_works(
    empty: MurmurService, tmp_path: Path, fmt: Format, text: str
) -> None:
    path = tmp_path / f"tasks.{fmt.value}"
    path.write_text(text, encoding="utf-8")

    outcome = empty.import_file(path, fmt)

    assert len(outcome.problems) == 1 and "9999" in outcome.problems[0].message
    assert [entry.summary for entry in empty.entries(list(Status))] == ["Soon"]
    assert all(empty.export(each) for each in Format)


def test_every_row_of_a_long_json_file_keeps_its_line(empty: MurmurService, tmp_path: Path) -> None:
    rows = [entry_row(number, summary=f"Task {number}") for number in range(1, 201)]
    rows[149]["revision"] = -3
    path = json_file(tmp_path / "backup.json", entries=rows)

    outcome = empty.import_file(path, confirmed=True)  # a long file, let through by the user's yes

    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if '"revision": -3' in text)
    assert _lines(outcome.problems) == [line] and outcome.added == 199


def test_brackets_and_escaped_quotes_inside_words_are_not_nesting(empty: MurmurService, tmp_path: Path) -> None:
    words = "[" * 20 + "]" * 20 + ' "quoted \\" ' + "{" * 20 + "}" * 20 + " \\"  # the file escapes those
    outcome = empty.import_file(json_file(tmp_path / "backup.json", entries=[entry_row(summary=words)]))

    assert outcome.problems == [] and [entry.summary for entry in empty.entries(list(Status))] == [words]
