"""`murmur list` shows a list's items under it and how many are ticked; `--json` carries them."""

import json
import re
from pathlib import Path

import pytest

from app.cli import main


def murmur(db_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main([*args, "--db", str(db_path)]) == 0
    return capsys.readouterr().out


def test_the_list_shows_items_ticked_and_not(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    murmur(db_path, capsys, "add", "buy eggs, bread, milk and coffee")
    murmur(db_path, capsys, "add", "call the plumber")
    murmur(db_path, capsys, "add", "got the milk, and the coffee is done too")
    listed = murmur(db_path, capsys, "list").splitlines()
    shopping = next(i for i, line in enumerate(listed) if "Buy eggs" in line)
    assert re.search(r"todo +Buy eggs, bread, milk and coffee  \[2 of 4\]$", listed[shopping])
    assert [line.strip() for line in listed[shopping + 1 : shopping + 5]] == [
        "[ ] eggs",
        "[ ] bread",
        "[x] milk",
        "[x] coffee",
    ]
    assert "[" not in next(line for line in listed if "Call the plumber" in line)


def test_the_json_list_carries_each_entry_s_items(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    murmur(db_path, capsys, "add", "packing list: passport, charger and sunscreen")
    murmur(db_path, capsys, "add", "call the plumber")
    murmur(db_path, capsys, "add", "I packed the charger")
    listed = {e["summary"]: e["items"] for e in json.loads(murmur(db_path, capsys, "list", "--json"))}
    assert listed == {
        "Packing list": [
            {"text": "passport", "done": False},
            {"text": "charger", "done": True},
            {"text": "sunscreen", "done": False},
        ],
        "Call the plumber": [],
    }
