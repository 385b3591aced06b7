"""Text a spreadsheet would run (=, +, -, @, a tab or a line end first) is written to CSV with the single quote
OWASP recommends; Murmur reads it back without it, and the JSON backup keeps every byte."""

import csv
from pathlib import Path

from app.domain.enums import Format, Status
from app.service import MurmurService
from tests.portable.conftest import open_service
from tests.portable.rows import entry_row, json_file

RISKY = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-2+3", "@SUM(A1)", "\tTabbed", "\rReturned", "'=Quoted"]
_FORMULA_FIRST = ("=", "+", "-", "@", "\t", "\r")


def _risky(service: MurmurService, tmp_path: Path) -> None:
    rows = [entry_row(n, summary=text, content=text, source_text=text) for n, text in enumerate(RISKY, start=1)]
    assert service.import_file(json_file(tmp_path / "risky.json", entries=rows)).added == len(RISKY)


def test_no_csv_cell_starts_a_formula(empty: MurmurService, tmp_path: Path) -> None:
    _risky(empty, tmp_path)
    path = tmp_path / "export.csv"
    empty.export_file(path, Format.CSV)

    with path.open(newline="", encoding="utf-8") as file:
        cells = [cell for row in csv.reader(file) for cell in row]
    assert [cell for cell in cells if cell.startswith(_FORMULA_FIRST)] == []
    assert cells.count('\'=HYPERLINK("http://evil.example","x")') == 3 and cells.count("''=Quoted") == 3


def test_the_csv_reads_back_as_written_and_json_keeps_every_byte(empty: MurmurService, tmp_path: Path) -> None:
    _risky(empty, tmp_path)
    exported, backup = tmp_path / "export.csv", tmp_path / "backup.json"
    empty.export_file(exported, Format.CSV)
    empty.export_file(backup, Format.JSON)

    again = open_service(tmp_path / "again.db")
    again.import_file(exported)
    restored = open_service(tmp_path / "restored.db")
    restored.import_file(backup)

    # CSV reading takes runs of spaces out of a summary, as it always has; the quote it takes off is only ours
    assert sorted(entry.summary for entry in again.entries(list(Status))) == sorted(" ".join(t.split()) for t in RISKY)
    assert restored.export(Format.JSON) == backup.read_text(encoding="utf-8")
    again.close()
    restored.close()
