"""A list's items by the `murmur` command on a real database: `murmur items` adds, removes, ticks and unticks them,
each undoable; by voice an item comes off its list and the list stays open; a new list is called by its name."""

from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur, assert_one_line_error


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def the_list(murmur: Murmur, summary: str) -> dict[str, object]:
    [found] = [entry for entry in murmur.json("list") if entry["summary"] == summary]
    return found


def items(murmur: Murmur, summary: str) -> list[tuple[str, bool]]:
    listed = the_list(murmur, summary)["items"]
    assert isinstance(listed, list)
    return [(item["text"], item["done"]) for item in listed]


def test_a_list_said_by_its_name_keeps_the_name_as_its_title(murmur: Murmur) -> None:
    murmur.json("add", "add oat milk and rye bread to the corner shop list")
    murmur.json("add", "add Ad blocker to the corner shop list")  # a title that holds the list's words
    assert [entry["summary"] for entry in murmur.json("list")] == ["Corner shop list"]
    assert items(murmur, "Corner shop list") == [("oat milk", False), ("rye bread", False), ("Ad blocker", False)]


def test_an_item_taken_off_by_voice_leaves_the_list_and_its_ticks(murmur: Murmur) -> None:
    murmur.json("add", "groceries list: rice, basil, parmesan")
    murmur.json("add", "got the parmesan")
    removed = murmur.json("add", "take the basil off the groceries list")
    assert [item["action"]["changes"] for item in removed["applied"]] == [{"remove_items": ["basil"]}]
    listed = the_list(murmur, "Groceries list")
    assert listed["status"] == "active"
    assert items(murmur, "Groceries list") == [("rice", False), ("parmesan", True)]
    murmur.json("undo")
    assert items(murmur, "Groceries list") == [("rice", False), ("basil", False), ("parmesan", True)]


def test_items_by_hand_each_undoable(murmur: Murmur) -> None:
    murmur.json("add", "camping list: tent, stove, head torch")
    short = str(the_list(murmur, "Camping list")["short_id"])

    added = murmur.run("items", short, "add", "midge spray", "matches")
    assert added.returncode == 0, added.stderr
    assert "added midge spray, matches" in added.stdout
    murmur.json("items", short, "tick", "stove")
    removed = murmur.run("items", short, "remove", "stove", "tent")
    assert removed.returncode == 0 and "removed stove, tent" in removed.stdout
    assert items(murmur, "Camping list") == [("head torch", False), ("midge spray", False), ("matches", False)]

    undone = murmur.json("undo")
    assert undone["reverted"]
    assert items(murmur, "Camping list") == [
        ("tent", False),
        ("stove", True),  # back in its place, ticked as it was
        ("head torch", False),
        ("midge spray", False),
        ("matches", False),
    ]
    murmur.json("items", short, "untick", "stove")
    assert ("stove", False) in items(murmur, "Camping list")


def test_an_item_not_on_the_list_changes_nothing_and_says_so(murmur: Murmur) -> None:
    murmur.json("add", "camping list: tent, stove")
    short = str(the_list(murmur, "Camping list")["short_id"])
    assert_one_line_error(murmur.run("items", short, "remove", "kayak"), 1, "'kayak' names no one item")
    assert_one_line_error(murmur.run("items", short, "tick", "tent", "stove"), 2, "tick takes one item at a time")
    assert items(murmur, "Camping list") == [("tent", False), ("stove", False)]
