"""`murmur undo --batch N` reverts what is left of any batch in the history, like plain `undo` does the latest."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.cli.exits import ExitCode

RunMurmur = Callable[..., tuple[int, Any, str]]  # (exit code, parsed stdout, stderr)


@pytest.fixture
def murmur(db_path: Path, capsys: pytest.CaptureFixture[str]) -> RunMurmur:
    """Run `murmur ARGS --json` in this process, on the test's database."""

    def run(*args: str) -> tuple[int, Any, str]:
        code = main([*args, "--db", str(db_path), "--json"])
        printed = capsys.readouterr()
        return code, json.loads(printed.out) if printed.out else None, printed.err

    return run


def test_undo_batch_reverts_an_older_batch_and_leaves_the_newer_one(murmur: RunMurmur) -> None:
    _, milk, _ = murmur("add", "buy milk")
    _, mom, _ = murmur("add", "call mom")
    code, undone, _ = murmur("undo", "--batch", str(milk["undo_id"]))
    assert code == ExitCode.OK
    assert set(undone) == {"undo_id", "label", "reverted", "conflicts"}  # the shape of plain `undo`
    assert undone["undo_id"] == milk["undo_id"] and [a["kind"] for a in undone["reverted"]] == ["create"]
    _, listed, _ = murmur("list")
    assert [e["summary"] for e in listed] == ["Call mom"]
    _, history, _ = murmur("history")
    assert {h["undo_id"]: h["undone"] for h in history} == {mom["undo_id"]: False, milk["undo_id"]: True}


@pytest.mark.parametrize(
    ("batch", "message"), [("99", "no batch 99 in the history"), ("1", "batch 1 was already undone")]
)
def test_a_bad_batch_is_one_line_and_changes_nothing(murmur: RunMurmur, batch: str, message: str) -> None:
    murmur("add", "buy milk")
    murmur("undo")
    code, printed, err = murmur("undo", "--batch", batch)
    assert code == ExitCode.NOTHING_APPLIED and printed is None
    assert err.startswith("murmur: error: ") and err.count("\n") == 1 and message in err
    _, history, _ = murmur("history")
    assert [h["undone"] for h in history] == [True]


def test_batch_and_action_together_are_a_usage_error(murmur: RunMurmur, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        murmur("undo", "--batch", "1", "--action", "1")
    assert exited.value.code == ExitCode.USAGE
    assert "not allowed with argument" in capsys.readouterr().err
