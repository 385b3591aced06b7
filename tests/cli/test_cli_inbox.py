"""`murmur dismiss` and `murmur retry --text` as a user runs them: the real command on a real database file."""

from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur, assert_one_line_error


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def waiting_id(murmur: Murmur, said: str) -> int:
    murmur.json("add", said, code=1)  # nothing on the list matches: it waits in the inbox
    [waiting] = murmur.json("inbox")
    assert waiting["text"] == said
    return int(waiting["id"])


def test_dismiss_clears_the_inbox_and_undo_brings_it_back(murmur: Murmur) -> None:
    utterance_id = waiting_id(murmur, "eggs are done")
    dismissed = murmur.json("dismiss", str(utterance_id))
    assert dismissed["change"] == "dismiss" and dismissed["utterance"]["id"] == utterance_id
    assert dismissed["utterance"]["dismissed_at"] is not None and murmur.json("inbox") == []
    undone = murmur.json("undo")
    assert undone["undo_id"] == dismissed["undo_id"]
    assert [(a["subject"], a["entry_id"]) for a in undone["reverted"]] == [("utterance", str(utterance_id))]
    [back] = murmur.json("inbox")
    assert back["id"] == utterance_id and back["dismissed_at"] is None


def test_dismiss_in_words_and_its_errors(murmur: Murmur) -> None:
    utterance_id = waiting_id(murmur, "eggs are done")
    done = murmur.run("dismiss", str(utterance_id))
    assert done.returncode == 0 and done.stdout == f"Dismissed {utterance_id}: 'eggs are done'  (undo: murmur undo)\n"
    assert_one_line_error(murmur.run("dismiss", str(utterance_id)), 2, f"utterance {utterance_id} was dismissed")
    assert_one_line_error(murmur.run("dismiss", "99"), 2, "no utterance 99; `murmur inbox` lists")
    assert_one_line_error(murmur.run("dismiss", "eggs"), 2, "eggs is not a whole number from 1 to")
    undone = murmur.run("undo")
    assert undone.returncode == 0 and f"undone    dismiss of utterance {utterance_id}" in undone.stdout


def test_retry_with_the_words_put_right(murmur: Murmur) -> None:
    utterance_id = waiting_id(murmur, "legs are done")  # misheard
    murmur.json("add", "buy eggs")
    retried = murmur.json("retry", str(utterance_id), "--text", "eggs are done")
    assert retried["utterance_id"] == utterance_id and retried["summary"] == "1 completed"
    assert murmur.json("inbox") == []
    assert_one_line_error(murmur.run("retry", str(utterance_id), "--text", "x"), 2, "already applied")
