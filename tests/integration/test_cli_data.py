"""`murmur export` and `murmur import` as a user runs them: real processes on real database files."""

import json
import stat
from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur, assert_one_line_error


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def test_export_to_a_file_and_import_it_into_another_profile(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("add", "remind me to call the dentist Thursday at 3pm, and buy oat milk")
    out = tmp_path / "list.ics"

    done = murmur.run("export", "--format", "ics", "--category", "reminder", "-o", str(out))

    assert done.returncode == 0 and done.stdout == f"Exported to {out}\n"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert "SUMMARY:Call the dentist" in out.read_text() and "oat milk" not in out.read_text()
    other = Murmur(tmp_path / "other.db", tmp_path / "other")
    trial = other.run("import", str(out), "--dry-run")
    assert trial.stdout == "Would import 1 entry from list.ics. Nothing was changed (dry run).\n"
    assert other.count("entries") == 0
    report = other.json("import", str(out))
    assert (report["added"], report["duplicates"], report["problems"]) == (1, 0, [])
    again = other.run("import", str(out))
    assert again.stdout == "Imported 0 entries from list.ics; 1 already here, skipped.\n"


def test_export_to_standard_output_by_status(murmur: Murmur) -> None:
    murmur.run("add", "buy oat milk and buy bread")
    murmur.run("add", "bread is done")

    done = murmur.run("export", "--format", "todotxt", "--status", "active,snoozed")
    assert done.returncode == 0 and done.stdout.endswith("Buy oat milk +todo\n") and "bread" not in done.stdout
    everything = json.loads(murmur.run("export").stdout)
    assert everything["murmur_export"] == 1 and len(everything["entries"]) == 2


def test_problems_are_listed_with_their_lines_and_bad_input_is_one_line(murmur: Murmur, tmp_path: Path) -> None:
    listed = tmp_path / "todo.txt"
    listed.write_text("Call Mom\n+todo\n2026-11-22 Pay due:2026-99-01\n")

    done = murmur.run("import", str(listed))

    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "  line 2: skipped: a task with no words",
        "  line 3: skipped: due:2026-99-01 is not a date (todo.txt writes due:YYYY-MM-DD)",
        "Imported 1 entry from todo.txt; 2 with problems, listed above. Undo: murmur undo",
    ]
    assert_one_line_error(murmur.run("import", str(tmp_path / "list.pdf")), 2, "cannot tell the format of list.pdf")
    assert_one_line_error(murmur.run("export", "--status", "done"), 2, "'done': choose from active, snoozed")
    assert_one_line_error(murmur.run("export", "-o", str(tmp_path / "no" / "x.json")), 2, "does not exist")


def test_backup_list_and_restore_then_take_the_restore_back(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("add", "buy oat milk")
    backups = murmur.json("backups")
    assert [b["kind"] for b in backups] == ["daily"]  # the first command of the day took it
    mine = tmp_path / "before-the-party.db"
    assert murmur.run("backup", str(mine)).stdout.startswith(f"Backed up to {mine} (")
    murmur.run("add", "plan the party")

    done = murmur.run("restore", str(mine))

    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith(f"Restored {mine}. The database as it was is kept in ")
    assert "Plan the party" not in murmur.run("list").stdout
    kept = second.split()[2]
    assert second == f"  murmur restore {kept}   takes this back"
    assert murmur.run("restore", kept).returncode == 0  # by the name `murmur backups` lists
    assert "Plan the party" in murmur.run("list").stdout
    assert_one_line_error(murmur.run("restore", str(tmp_path / "nothing.db")), 1, "no backup at")
    assert_one_line_error(murmur.run("backup", str(mine)), 1, "exists; choose another name")
