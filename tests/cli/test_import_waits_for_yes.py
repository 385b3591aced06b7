"""`murmur import` of a file that would add more entries at once than Murmur makes unasked (MASS_CHANGE_CAP):
nothing is imported, one line says how many and how to go ahead, and `--confirm` imports them as one undoable
batch. A file at the cap, or one whose entries are mostly on the list already, goes straight in. The real
command, in this process, on a real database file."""

import json
from pathlib import Path

import pytest

from app.bounds.limits import MASS_CHANGE_CAP
from app.cli.exits import ExitCode
from tests.support.murmur_cli import Murmur, assert_one_line_error


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def _sheet(path: Path, count: int, first: int = 0) -> Path:
    """A CSV file of `count` tasks, 'Task {first}' onwards."""
    path.write_text("summary\n" + "".join(f"Task {number}\n" for number in range(first, first + count)))
    return path


def test_one_entry_past_the_cap_changes_nothing_and_says_how_to_go_ahead(murmur: Murmur, tmp_path: Path) -> None:
    sheet = _sheet(tmp_path / "from work.csv", MASS_CHANGE_CAP + 1)

    held = murmur.run("import", str(sheet))

    go_ahead = f"`murmur import '{sheet}' --confirm`"
    assert_one_line_error(held, ExitCode.WAITS_FOR_YES, f"from work.csv would add {MASS_CHANGE_CAP + 1} entries")
    assert held.stderr == (
        f"murmur: error: from work.csv would add {MASS_CHANGE_CAP + 1} entries at once (more than "
        f"{MASS_CHANGE_CAP}); nothing was changed: go ahead with {go_ahead}\n"
    )
    assert held.stdout == ""
    assert (murmur.count("entries"), murmur.count("undo_batches")) == (0, 0)


def test_confirmed_it_is_imported_as_one_batch_that_undo_takes_back(murmur: Murmur, tmp_path: Path) -> None:
    sheet = _sheet(tmp_path / "big.csv", MASS_CHANGE_CAP + 1)

    done = murmur.run("import", str(sheet), "--confirm")

    assert done.returncode == ExitCode.OK
    assert done.stdout == f"Imported {MASS_CHANGE_CAP + 1} entries from big.csv. Undo: murmur undo\n"
    assert murmur.count("entries") == MASS_CHANGE_CAP + 1
    assert murmur.run("undo").returncode == ExitCode.OK
    assert murmur.count("entries") == 0


def test_a_format_given_is_given_again_in_the_way_to_go_ahead(murmur: Murmur, tmp_path: Path) -> None:
    sheet = _sheet(tmp_path / "export.txt", MASS_CHANGE_CAP + 1)

    held = murmur.run("import", str(sheet), "--format", "csv", "--json")

    assert_one_line_error(held, ExitCode.WAITS_FOR_YES, f"`murmur import {sheet} --format csv --confirm`")
    assert held.stdout == "" and murmur.count("entries") == 0
    report = murmur.json("import", str(sheet), "--format", "csv", "--confirm")
    assert report["added"] == MASS_CHANGE_CAP + 1


def test_a_file_at_the_cap_goes_straight_in(murmur: Murmur, tmp_path: Path) -> None:
    done = murmur.run("import", str(_sheet(tmp_path / "tasks.csv", MASS_CHANGE_CAP)))

    assert done.returncode == ExitCode.OK and done.stderr == ""
    assert murmur.count("entries") == MASS_CHANGE_CAP


def test_what_is_counted_is_what_would_be_added_not_the_lines_of_the_file(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("import", str(_sheet(tmp_path / "first.csv", 10)))
    sheet = _sheet(tmp_path / "again.csv", MASS_CHANGE_CAP + 10)  # the first 10 are on the list already

    done = murmur.run("import", str(sheet))

    assert done.returncode == ExitCode.OK
    assert done.stdout == (
        f"Imported {MASS_CHANGE_CAP} entries from again.csv; 10 already on your list, skipped. Undo: murmur undo\n"
    )
    assert murmur.count("entries") == MASS_CHANGE_CAP + 10


def test_a_dry_run_past_the_cap_says_what_it_would_add(murmur: Murmur, tmp_path: Path) -> None:
    trial = murmur.run("import", str(_sheet(tmp_path / "big.csv", MASS_CHANGE_CAP + 1)), "--dry-run", "--json")

    assert trial.returncode == ExitCode.OK
    assert json.loads(trial.stdout)["added"] == MASS_CHANGE_CAP + 1 and murmur.count("entries") == 0


def test_a_restore_is_the_whole_database_chosen_and_is_never_held(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("import", str(_sheet(tmp_path / "big.csv", MASS_CHANGE_CAP + 1)), "--confirm")
    backup = tmp_path / "before.db"
    murmur.run("backup", str(backup))
    murmur.run("undo")
    assert murmur.count("entries") == 0

    done = murmur.run("restore", str(backup))

    assert done.returncode == ExitCode.OK and murmur.count("entries") == MASS_CHANGE_CAP + 1
