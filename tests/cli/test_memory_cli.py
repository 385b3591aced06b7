"""`murmur memory` as a user runs it: the real command on a real database file, undone with `murmur undo`."""

import sqlite3
from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur, assert_one_line_error


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def listed(murmur: Murmur) -> list[str]:
    done = murmur.run("memory", "list")
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_add_list_forget_and_undo_brings_it_back(murmur: Murmur) -> None:
    assert listed(murmur) == ["No memories yet."]
    added = murmur.run("memory", "add", "My", "brother", "is", "Tom")
    assert added.returncode == 0, added.stderr
    short_id = added.stdout.split()[1].rstrip(":")
    assert added.stdout == f"Remembered {short_id}: My brother is Tom  (undo: murmur undo)\n"
    assert listed(murmur) == [f"{short_id}  My brother is Tom"]

    [memory] = murmur.json("memory", "list")
    assert memory["short_id"] == short_id and memory["text"] == "My brother is Tom" and memory["source"] == "user"
    assert memory["id"].startswith(short_id) and len(memory["id"]) == 32

    forgot = murmur.run("memory", "forget", short_id)
    assert forgot.returncode == 0, forgot.stderr
    assert forgot.stdout == f"Forgot {short_id}: My brother is Tom  (undo: murmur undo)\n"
    assert listed(murmur) == ["No memories yet."]

    history = murmur.run("history").stdout
    assert f"Forgot “My brother is Tom” (memory {short_id})" in history  # the change, named as the window names it

    undone = murmur.run("undo")
    assert undone.returncode == 0, undone.stderr
    assert (
        undone.stdout.splitlines()[-1]
        == 'Undid batch 2 (forgot "My brother is Tom"): “My brother is Tom” is remembered again'
    )

    assert listed(murmur) == [f"{short_id}  My brother is Tom"]


def test_edit_and_the_same_fact_again(murmur: Murmur) -> None:
    added = murmur.json("memory", "add", "Works at Acme")
    short_id = added["memory"]["short_id"]
    again = murmur.json("memory", "add", "works   at ACME")
    assert again["confirmed"] and again["memory"]["id"] == added["memory"]["id"]
    assert murmur.count("memories") == 1

    edited = murmur.run("memory", "edit", short_id, "Works", "at", "Initech")
    assert edited.returncode == 0, edited.stderr
    assert edited.stdout == f"Edited {short_id}: Works at Initech  (undo: murmur undo)\n"
    assert listed(murmur) == [f"{short_id}  Works at Initech"]
    assert murmur.run("undo").returncode == 0
    assert listed(murmur) == [f"{short_id}  Works at Acme"]


def test_a_memory_persists_across_processes(murmur: Murmur, tmp_path: Path) -> None:
    assert murmur.run("memory", "add", "Prefers mornings").returncode == 0
    other = Murmur(murmur.db_path, tmp_path)  # a new process, the same file
    [memory] = other.json("memory", "list")
    assert memory["text"] == "Prefers mornings"
    with sqlite3.connect(murmur.db_path) as db:
        assert db.execute("SELECT text, source, forgotten_at FROM memories").fetchall() == [
            ("Prefers mornings", "user", None)
        ]


def test_a_bad_id_is_one_line_and_exit_1(murmur: Murmur) -> None:
    assert murmur.run("memory", "add", "Has a cat").returncode == 0
    assert_one_line_error(murmur.run("memory", "forget", "abcd"), 3, "no memory has ID 'abcd'")
    assert_one_line_error(murmur.run("memory", "forget", "xyz!"), 3, "is not a memory ID")
    assert_one_line_error(murmur.run("memory", "edit", "abc", "new words"), 3, "too short")
    assert murmur.count("undo_batches") == 1


def test_a_text_over_300_characters_is_refused_and_nothing_stored(murmur: Murmur) -> None:
    done = murmur.run("memory", "add", "x" * 301)
    assert_one_line_error(done, 2, "the limit is 300")
    assert murmur.count("memories") == 0 and murmur.count("undo_batches") == 0
    assert murmur.run("memory", "add", "x" * 300).returncode == 0


def test_escape_sequences_in_a_memory_never_reach_the_terminal(murmur: Murmur) -> None:
    assert murmur.run("memory", "add", "Tom\x1b[2J\x1b]0;pwned\x07 is my brother").returncode == 0
    [line] = listed(murmur)
    assert "\x1b" not in line and line.endswith("  Tom is my brother")
