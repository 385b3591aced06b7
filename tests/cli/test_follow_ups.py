"""What people say next, through the real `murmur` command on a real database: "that", "it" and "actually ..."
mean what the last utterance touched; unsure, Murmur changes nothing, says the likely readings with the command
for each, and the one chosen is applied as one undoable batch."""

import json
from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def listed(murmur: Murmur) -> dict[str, dict[str, object]]:
    return {entry["summary"]: entry for entry in murmur.json("list", "--status", "all")}


def test_a_correction_changes_what_was_just_said_and_nothing_else(murmur: Murmur) -> None:
    assert murmur.run("add", "--offline", "dinner with Sam on Saturday at 7pm").returncode == 0
    assert murmur.run("add", "--offline", "call the plumber tomorrow").returncode == 0
    before = listed(murmur)
    for said in ("actually make that 8am", "and make it urgent please"):
        done = murmur.run("add", "--offline", said)
        assert done.returncode == 0, done.stderr
    after = listed(murmur)
    assert set(after) == set(before)  # nothing filed under the words of the correction
    plumber = after["Call the plumber"]
    assert str(plumber["due_at"])[11:16] == "08:00" and plumber["priority"] == 1
    assert after["Dinner with Sam"] == before["Dinner with Sam"]


def test_unsure_changes_nothing_and_the_reading_chosen_is_applied(murmur: Murmur) -> None:
    assert murmur.run("add", "--offline", "pay the gas bill friday, and pay the phone bill monday").returncode == 0
    unsure = murmur.run("add", "--offline", "paid the bill")
    assert unsure.returncode != 0
    commands = [line.split("  ")[-1] for line in unsure.stdout.splitlines() if "--choice" in line]
    readings = [line for line in unsure.stdout.splitlines() if "--choice" in line]
    assert len(readings) == 2 and all(entry["status"] == "active" for entry in listed(murmur).values())
    inbox = murmur.json("inbox")
    assert [item["text"] for item in inbox] == ["paid the bill"]
    gas = next(command for reading, command in zip(readings, commands, strict=True) if "gas" in reading)
    chosen = murmur.run(*gas.split()[1:], "--json")
    assert chosen.returncode == 0, chosen.stderr
    assert [item["entry"]["summary"] for item in json.loads(chosen.stdout)["applied"]] == ["Pay the gas bill"]
    statuses = {summary: entry["status"] for summary, entry in listed(murmur).items()}
    assert statuses == {"Pay the gas bill": "completed", "Pay the phone bill": "active"}
    assert murmur.json("inbox") == []
    assert murmur.run("undo").returncode == 0
    assert listed(murmur)["Pay the gas bill"]["status"] == "active"


def test_a_command_naming_no_entry_is_never_filed_as_one(murmur: Murmur) -> None:
    assert murmur.run("add", "--offline", "book a haircut").returncode == 0
    for said in ("move my piano lesson to thursday", "move it to friday", "rename the yoga class to pilates"):
        done = murmur.run("add", "--offline", said)
        assert done.returncode != 0 and said in done.stderr
    assert list(listed(murmur)) == ["Book a haircut"]
    assert [item["text"] for item in murmur.json("inbox")][-1] == "rename the yoga class to pilates"
