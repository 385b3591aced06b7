"""The `murmur` command end to end, as a user runs it: the real command on a real database file, in this
process, and as a process of its own where the process is what is tested (the console script, the read-only
run, the held database)."""

import hashlib
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.presentation.times import in_sentence
from tests.support.held_database import held
from tests.support.murmur_cli import Murmur, assert_one_line_error, world_reachable

ENTRY_KEYS = {
    "id",
    "short_id",
    "content",
    "summary",
    "category",
    "priority",
    "due_at",
    "due_text",
    "recurrence",
    "repeats",
    "status",
    "snooze_until",
    "created_at",
    "updated_at",
}


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def test_add_list_undo_round_trip(murmur: Murmur) -> None:
    added = murmur.json("add", "remind me to call the dentist Thursday, and buy milk")
    assert set(added) >= {"applied", "failures", "summary", "undo_id", "utterance_id", "interpreter", "message"}
    assert added["summary"] == "2 created" and added["failures"] == [] and added["interpreter"] == "offline"
    dentist = next(a["entry"] for a in added["applied"] if a["entry"]["category"] == "reminder")
    assert set(dentist) >= ENTRY_KEYS
    assert dentist["due_at"].startswith("2") and dentist["due_at"].endswith(("+01:00", "+02:00"))
    assert dentist["due_text"] == "Thursday" and len(dentist["short_id"]) >= 6
    listed = murmur.json("list")
    assert {e["id"] for e in listed} == {a["entry"]["id"] for a in added["applied"]}

    undone = murmur.json("undo")
    assert undone["undo_id"] == added["undo_id"] and len(undone["reverted"]) == 2
    assert murmur.json("list") == []
    history = murmur.json("history")
    assert history[0]["undone"] is True and [a["kind"] for a in history[0]["actions"]] == ["create", "create"]
    assert_one_line_error(murmur.run("undo"), 1, "nothing to undo")


def test_completion_by_voice_then_by_short_id(murmur: Murmur) -> None:
    murmur.json("add", "buy milk and call mom tomorrow")
    done = murmur.json("add", "milk is done")
    assert done["summary"] == "1 completed" and done["applied"][0]["entry"]["status"] == "completed"
    mom = murmur.json("list")[0]
    archived = murmur.json("archive", mom["short_id"])
    assert archived["applied"][0]["entry"]["status"] == "archived"
    assert murmur.json("list") == []
    assert {e["status"] for e in murmur.json("list", "--status", "all")} == {"completed", "archived"}
    murmur.json("undo")
    assert [e["summary"] for e in murmur.json("list")] == [mom["summary"]]


def test_human_output_is_one_line_per_action_and_failure(murmur: Murmur) -> None:
    murmur.run("add", "buy milk")
    done = murmur.run("add", "walk the dog, and bread is done")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].startswith("created") and "Walk the dog" in lines[0]
    assert lines[1].startswith("1 created (1 couldn't be processed)")
    assert done.stderr.startswith("murmur: error: complete failed: ") and "bread" in done.stderr


def test_a_failed_utterance_waits_in_the_inbox_and_can_be_retried(murmur: Murmur) -> None:
    failed = murmur.json("add", "eggs are done", code=1)
    assert failed["applied"] == [] and "eggs" in failed["failures"][0]["error"]
    [waiting] = murmur.json("inbox")
    assert waiting["text"] == "eggs are done" and waiting["outcome"] == "failed"
    murmur.json("add", "buy eggs")
    retried = murmur.json("retry", str(waiting["id"]))
    assert retried["summary"] == "1 completed" and retried["utterance_id"] == waiting["id"]
    assert murmur.json("inbox") == []


def test_edit_snooze_and_undo_of_one_action_from_history(murmur: Murmur) -> None:
    added = murmur.json("add", "book flights and renew passport")
    flights, passport = (a["entry"]["short_id"] for a in added["applied"])
    edited = murmur.json("edit", flights, "--priority", "1", "--due", "friday 5pm")
    assert edited["applied"][0]["entry"]["priority"] == 1 and "T17:00:00" in edited["applied"][0]["entry"]["due_at"]
    snoozed = murmur.json("snooze", passport, "--until", "next week")
    assert snoozed["applied"][0]["entry"]["status"] == "snoozed"
    first_batch = murmur.json("history")[-1]
    one = murmur.json("undo", "--action", str(first_batch["actions"][0]["action_id"]), code=1)
    assert one["conflicts"] and "changed again" in one["conflicts"][0]["conflict"]
    assert_one_line_error(murmur.run("edit", flights, "--priority", "1", "--status", "done"), 2, "invalid choice")


def test_history_says_a_due_as_everything_else_does(murmur: Murmur) -> None:
    """An assistant's ISO date ("2026-12-05T20:00") reads in `murmur history` as the app says a moment."""
    added = murmur.json("add", "Call mom at 7pm")
    berlin = ZoneInfo("Europe/Berlin")
    now = datetime.now(berlin)
    due = datetime.combine(now.date() + timedelta(days=10), time(20, 0), tzinfo=berlin)
    murmur.json("edit", added["applied"][0]["entry"]["short_id"], "--due", due.strftime("%Y-%m-%dT%H:%M"))
    said = murmur.run("history").stdout
    assert f"Updated “Call mom”: due {in_sentence(due, now, berlin)} (" in said and "T20:00" not in said


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (("add", ""), None, 2, "the text is empty"),
        (("add", "   "), None, 2, "the text is empty"),
        (("add", "-"), "x" * 102_400, 2, "too long"),
        (("complete", "abcdef"), None, 1, "no entry has ID 'abcdef'"),
        (("complete", "zz-top"), None, 1, "not an entry ID"),
        (("undo", "--action", "7"), None, 1, "no action 7 in the history"),
        (("undo", "--batch", "7"), None, 1, "no batch 7 in the history"),
        (("retry", "3"), None, 2, "no utterance 3"),
    ],
)
def test_bad_input_gets_one_clear_line_and_changes_nothing(
    murmur: Murmur, args: tuple[str, ...], stdin: str | None, code: int, message: str
) -> None:
    murmur.run("add", "buy milk")
    before = murmur.count("utterances"), murmur.count("entries"), murmur.count("undo_items")
    assert_one_line_error(murmur.run(*args, stdin=stdin), code, message)
    assert (murmur.count("utterances"), murmur.count("entries"), murmur.count("undo_items")) == before


def test_ambiguous_short_id_names_the_prefix(murmur: Murmur) -> None:
    murmur.run("add", "buy milk")
    with sqlite3.connect(murmur.db_path) as db:
        (entry_id,) = db.execute("SELECT id FROM entries").fetchone()
        twin = entry_id[:6] + ("0" if entry_id[6] != "0" else "1") + entry_id[7:]
        columns = [row[1] for row in db.execute("PRAGMA table_info(entries)")][1:]
        copied = ", ".join(columns)
        db.execute(f"INSERT INTO entries (id, {copied}) SELECT ?, {copied} FROM entries", (twin,))
    assert_one_line_error(murmur.run("complete", entry_id[:6]), 1, f"ID '{entry_id[:6]}' is ambiguous")


def test_usage_errors_exit_2(murmur: Murmur) -> None:
    assert murmur.run("list", "--status", "done").returncode == 2
    assert murmur.run("frobnicate").returncode == 2
    assert murmur.run("add").returncode == 2


def test_not_a_database_is_refused_and_left_untouched(murmur: Murmur) -> None:
    murmur.db_path.write_bytes(b"%PDF-1.7 not a database" * 50)
    assert_one_line_error(murmur.run("add", "buy milk"), 4, "is not a Murmur database")
    assert murmur.db_path.read_bytes() == b"%PDF-1.7 not a database" * 50


def test_a_future_schema_is_refused(murmur: Murmur) -> None:
    murmur.run("add", "buy milk")
    with sqlite3.connect(murmur.db_path) as db:
        db.execute("PRAGMA user_version = 99")
    assert_one_line_error(murmur.run("list"), 4, "newer than this Murmur knows")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_another_program_s_database_is_refused_and_left_untouched(murmur: Murmur, tmp_path: Path) -> None:
    foreign = tmp_path / "photos.db"
    with closing(sqlite3.connect(foreign)) as db:
        db.execute("CREATE TABLE photos (path TEXT)")
        db.execute("INSERT INTO photos VALUES ('beach.jpg')")
        db.commit()
    foreign.chmod(0o644)  # another program's choice, not ours to change
    before = sha256(foreign)
    for command in (["add", "x"], ["list"]):
        assert_one_line_error(murmur.run("--db", str(foreign), *command), 4, f"not a Murmur database: {foreign}")
    assert sha256(foreign) == before and not Path(f"{foreign}-wal").exists()
    assert foreign.stat().st_mode & 0o777 == 0o644


def test_a_newer_murmur_database_is_refused_before_its_journal_mode_is_changed(murmur: Murmur) -> None:
    murmur.run("add", "buy milk")
    with closing(sqlite3.connect(murmur.db_path)) as db:
        db.execute("PRAGMA journal_mode = DELETE")  # as a newer Murmur might leave it
        db.execute("PRAGMA user_version = 99")
        db.commit()
    before = sha256(murmur.db_path)
    assert murmur.db_path.read_bytes()[18:20] == b"\x01\x01"  # rollback journal, not WAL (2, 2)
    assert_one_line_error(murmur.run("list"), 4, "newer than this Murmur knows")
    assert sha256(murmur.db_path) == before


def test_a_read_only_database_is_reported() -> None:
    murmur = world_reachable()
    murmur.run("add", "buy milk")
    assert_one_line_error(murmur.run_read_only("add", "call mom"), 4, "read-only")
    assert murmur.count("entries") == 1


@pytest.mark.slow  # two processes of their own
def test_the_console_script_and_python_m_app_agree(murmur: Murmur) -> None:
    script = Path(sys.executable).with_name("murmur")
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, env=murmur.env, timeout=60)
    assert done.returncode == 0 and done.stdout == murmur.run("--help").stdout
    assert "COMMAND" in murmur.run("--help").stdout
    without_display = murmur.run()  # no command starts the desktop app, which needs a display
    assert without_display.returncode == 1 and "no display" in without_display.stderr


@pytest.mark.slow  # a process waits out the lock
def test_what_is_added_while_another_program_holds_the_database_is_kept_and_filed_next_time(murmur: Murmur) -> None:
    murmur.run("inbox")  # the database exists before another program holds it
    with held(murmur.db_path):
        kept = murmur.run_process("add", "buy bread")
    assert_one_line_error(kept, 4, "what you said is kept")
    assert kept.stdout == ""
    for _ in range(2):  # filed once, however often the database is opened
        assert [said["text"] for said in murmur.json("inbox")] == ["buy bread"]
