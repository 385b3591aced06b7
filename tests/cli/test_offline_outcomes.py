"""What the built-in rules tell a user about what they did, through the real `murmur` command on a real
database: something already listed, a new entry that looks like a listed one (and merging the two), and
numbers that belong to a name."""

from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def test_something_already_listed_is_said_so_and_is_not_a_failure(murmur: Murmur) -> None:
    eggs = murmur.json("add", "buy eggs")["applied"][0]["entry"]
    again = murmur.run("add", "Buy eggs.")
    assert again.returncode == 0, again.stderr
    assert f"Already on your list: Buy eggs ({eggs['id'][:6]})" in again.stdout
    assert [e["summary"] for e in murmur.json("list")] == ["Buy eggs"]
    assert murmur.json("inbox") == []  # done, not waiting for a retry


def test_word_order_and_numbers_make_a_different_entry(murmur: Murmur) -> None:
    murmur.json("add", "task 5 dash 3")
    second = murmur.json("add", "task 3 dash 5")
    assert second["summary"] == "1 created"
    for n in range(1, 4):
        murmur.json("add", f"remind me to check the oven timer number {n}")
    entries = murmur.json("list")
    assert len(entries) == 5 and all(e["due_at"] is None for e in entries)  # "number 2" is not the 2nd


def test_a_new_entry_like_a_listed_one_is_made_named_and_can_be_merged(murmur: Murmur) -> None:
    plumber = murmur.json("add", "call the plumber")["applied"][0]["entry"]
    said = murmur.run("add", "remind me to call the plumber tomorrow at 11am")
    assert said.returncode == 0 and "1 created" in said.stdout
    assert f"looks like 'Call the plumber' ({plumber['short_id']})" in said.stdout
    listed = murmur.json("list")
    reminder = next(e for e in listed if e["category"] == "reminder")
    assert len(listed) == 2 and next(e for e in listed if e["id"] == plumber["id"])["due_at"] is None

    merged = murmur.json("merge", reminder["short_id"], plumber["short_id"])
    assert merged["summary"] == "1 updated, 1 archived"
    [kept] = murmur.json("list")
    assert kept["id"] == plumber["id"] and kept["due_at"].startswith(reminder["due_at"][:16])
    murmur.json("undo")
    assert len(murmur.json("list")) == 2


def test_merging_an_entry_into_itself_is_refused(murmur: Murmur) -> None:
    entry = murmur.json("add", "call the plumber")["applied"][0]["entry"]
    refused = murmur.run("merge", entry["short_id"], entry["short_id"])
    assert refused.returncode != 0 and "cannot be merged into itself" in refused.stderr
    assert murmur.json("history")[0]["actions"][0]["kind"] == "create"  # nothing else was written


def test_a_birthday_remembered_is_a_day_to_be_due_on(murmur: Murmur) -> None:
    assert murmur.json("add", "bake a cake on my birthday")["applied"][0]["entry"]["due_at"] is None
    murmur.json("memory", "add", "My birthday is May 5th")
    cake = murmur.json("add", "order a cake for my birthday")["applied"][0]["entry"]
    assert cake["summary"] == "Order a cake" and cake["due_at"][5:16] == "05-05T09:00"
    murmur.json("memory", "forget", murmur.json("memory", "list")[0]["short_id"])
    assert murmur.json("add", "buy candles for my birthday")["applied"][0]["entry"]["due_at"] is None


def test_whether_something_is_done_is_answered_from_what_was_done_lately(murmur: Murmur) -> None:
    insurance = murmur.json("add", "renew the car insurance")["applied"][0]["entry"]
    murmur.json("add", "call the vet")
    murmur.json("complete", insurance["short_id"])
    assert "Yes, Renew the car insurance is done." in murmur.run("add", "have I renewed the car insurance?").stdout
    assert "Not yet: Call the vet" in murmur.run("add", "did I call the vet").stdout
    assert sorted(e["summary"] for e in murmur.json("list", "--status", "all")) == [
        "Call the vet",
        "Renew the car insurance",
    ]
