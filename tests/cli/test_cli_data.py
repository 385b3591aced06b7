"""`murmur export` and `murmur import` as a user runs them: the real command on real database files."""

import json
import os
import sqlite3
import stat
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur, assert_one_line_error
from tests.support.processes import dead_pid


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
    assert again.stdout == "Imported 0 entries from list.ics; 1 already on your list, skipped.\n"


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


def test_a_file_the_readers_fail_on_costs_its_lines_not_an_internal_error(murmur: Murmur, tmp_path: Path) -> None:
    calendar = tmp_path / "tasks.ics"
    calendar.write_text(
        "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Tagged by date\r\nCATEGORIES;VALUE=DATE:20260101\r\n"
        "END:VTODO\r\nBEGIN:VTODO\r\nUID:b\r\nSUMMARY:Plan the trip\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    )
    sheet = tmp_path / "sheet.csv"
    sheet.write_text('summary,due\n"Stray quote,\nFar off,9999-01-01\nPack,2026-12-01\n')

    done = [murmur.run("import", str(calendar)), murmur.run("import", str(sheet))]

    assert [run.returncode for run in done] == [0, 0] and "internal error" not in done[0].stderr + done[1].stderr
    assert done[0].stdout.startswith("  line 2: skipped: ") and "Imported 1 entry from tasks.ics" in done[0].stdout
    assert done[1].stdout.splitlines()[:2] == [
        "  line 2: skipped: unexpected end of data",
        "  line 3: skipped: due_at 9999-01-01 is not between the years 1900 and 2200",
    ]
    assert murmur.count("entries") == 2 and murmur.run("export", "--format", "csv").returncode == 0


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
    assert_one_line_error(murmur.run("restore", str(tmp_path / "nothing.db")), 4, "no backup at")
    assert_one_line_error(murmur.run("backup", str(mine)), 2, f"{mine} exists; add --force to replace it")
    assert murmur.run("backup", str(mine), "--force").returncode == 0


def _brick(path: Path) -> None:
    """The state a half-finished migration leaves: the tables are there, the number says they are not."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA user_version = 0")


def test_a_backup_restores_over_a_database_that_no_longer_opens(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("add", "buy oat milk")
    mine = tmp_path / "good.db"
    murmur.run("backup", str(mine))
    _brick(murmur.db_path)
    assert "already exists" in murmur.run("list").stderr

    done = murmur.run("restore", str(mine))

    assert done.returncode == 0, done.stderr
    assert "Buy oat milk" in murmur.run("list").stdout


def test_a_backup_that_would_brick_the_list_is_refused_and_nothing_changes(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("add", "buy oat milk")
    half = tmp_path / "half.db"
    murmur.run("backup", str(half))
    _brick(half)
    empty = tmp_path / "empty.db"
    empty.touch()

    assert_one_line_error(murmur.run("restore", str(half)), 4, "cannot be brought up to date; nothing was changed")
    assert_one_line_error(murmur.run("restore", str(empty)), 4, "holds no list: it is not a backup")

    listed = murmur.run("list")
    assert listed.returncode == 0 and "Buy oat milk" in listed.stdout
    assert not [b for b in murmur.json("backups") if b["kind"] == "pre-restore"]


def test_a_backup_someone_added_triggers_and_a_view_to_is_refused_and_nothing_changes(
    murmur: Murmur, tmp_path: Path
) -> None:
    murmur.run("add", "buy oat milk")
    tampered = tmp_path / "tampered.db"
    murmur.run("backup", str(tampered))
    with closing(sqlite3.connect(tampered)) as db:
        db.executescript(
            """
            CREATE TABLE seen (summary TEXT);
            CREATE TRIGGER keep_a_copy AFTER INSERT ON entries BEGIN INSERT INTO seen VALUES (new.summary); END;
            CREATE TRIGGER wipe_all AFTER INSERT ON entries WHEN new.summary LIKE '%wipe%'
                BEGIN UPDATE entries SET status = 'archived'; END;
            CREATE VIEW everything_said AS SELECT text FROM utterances;
            """
        )

    done = murmur.run("restore", str(tampered))

    assert_one_line_error(done, 4, f"{tampered} holds a trigger 'keep_a_copy' that Murmur did not make; nothing was")
    murmur.run("add", "wipe the table")
    listed = murmur.run("list")
    assert "Buy oat milk" in listed.stdout and "Wipe the table" in listed.stdout
    assert not [b for b in murmur.json("backups") if b["kind"] == "pre-restore"]
    with closing(sqlite3.connect(murmur.db_path)) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE name IN ('seen', 'keep_a_copy')").fetchall() == []


def test_what_a_backup_or_a_restore_killed_midway_left_is_removed_at_the_next_start(
    murmur: Murmur, tmp_path: Path
) -> None:
    murmur.run("add", "buy oat milk")
    backups, dead, alive = tmp_path / "backups", dead_pid(), os.getpid()
    left = [
        backups / f".murmur-20261124T070000Z-pre-migration.db.{dead}.partial",
        tmp_path / f".murmur.db.{dead}.restoring",
        tmp_path / f"..murmur.db.{dead}.restoring.{dead}.partial",
        backups / f".murmur-20261120T070000Z-daily.db.{alive}.partial",  # older than any run: its pid was reused
    ]
    others = [
        backups / f".murmur-20261124T070000Z-daily.db.{alive}.partial",  # a live process is writing it
        tmp_path / f".murmur.db.{alive}.restoring",
        backups / f".my-notes.db.{dead}.partial",  # not a backup's name
        tmp_path / f".other.db.{dead}.restoring",  # another database's
        tmp_path / f".murmur.db.{dead}.restoring.txt",
        tmp_path / f"murmur.db.{dead}.restoring",
    ]
    for path in left + others:
        path.write_bytes(b"\0" * 4096)
    days_ago = time.time() - 3 * 86400
    os.utime(left[-1], (days_ago, days_ago))
    mine = tmp_path / "mine.txt"
    mine.write_text("my own file")
    link = backups / f".murmur-20261124T070000Z-manual.db.{dead}.partial"
    link.symlink_to(mine)  # a link of that name is not a copy Murmur wrote

    assert murmur.run("list").returncode == 0

    assert [path for path in left if path.exists()] == []
    assert [path for path in others if not path.exists()] == []
    assert link.is_symlink() and mine.read_text() == "my own file"


def test_export_replaces_a_file_only_with_force_and_writes_through_a_link(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("add", "buy oat milk")
    mine = tmp_path / "mine.txt"
    mine.write_text("my own notes")
    link = tmp_path / "link.json"
    link.symlink_to(mine)

    for path in (mine, link):
        assert_one_line_error(murmur.run("export", "-o", str(path)), 2, f"{path} exists; add --force to replace it")
    assert mine.read_text() == "my own notes"
    done = murmur.run("export", "-o", str(link), "--force")

    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and "Buy oat milk" in mine.read_text()
    assert stat.S_IMODE(mine.stat().st_mode) == 0o600


def test_export_refuses_what_is_not_a_regular_file(murmur: Murmur, tmp_path: Path) -> None:
    murmur.run("add", "buy oat milk")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for path in (pipe, tmp_path):
        for force in ((), ("--force",)):
            done = murmur.run("export", "-o", str(path), *force)
            assert_one_line_error(done, 2, f"{path} is not a regular file")
    assert stat.S_ISFIFO(pipe.stat().st_mode)


def test_export_never_replaces_a_device(murmur: Murmur) -> None:
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    murmur.run("add", "buy oat milk")

    for force in ((), ("--force",)):
        done = murmur.run("export", "-o", os.devnull, *force)
        assert_one_line_error(done, 2, f"{os.devnull} is not a regular file")
        assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.parametrize("command", [["list"], ["export"], ["history"], ["backups"], ["memory", "list"]])
def test_a_command_that_reads_makes_no_database(tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "nowhere" / "m.db"
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)

    done = murmur.run(*command, "--db", str(missing))

    assert_one_line_error(done, 4, f"no database at {missing}")
    assert not missing.parent.exists()
    assert murmur.run("add", "--offline", "buy milk", "--db", str(missing)).returncode == 0  # a write makes it


@pytest.mark.parametrize("command", [["backup"], ["say", "hello", "--output"]], ids=["backup", "say"])
def test_every_file_named_to_write_is_checked_as_an_export_is(
    murmur: Murmur, tmp_path: Path, command: list[str]
) -> None:
    murmur.run("add", "--offline", "buy oat milk")
    mine = tmp_path / "mine.txt"
    mine.write_text("my own notes")

    assert_one_line_error(murmur.run(*command, str(mine)), 2, f"{mine} exists; add --force to replace it")
    assert_one_line_error(murmur.run(*command, os.devnull, "--force"), 2, f"{os.devnull} is not a regular file")
    assert mine.read_text() == "my own notes" and stat.S_ISCHR(os.stat(os.devnull).st_mode)
