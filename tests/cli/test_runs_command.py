"""`murmur runs`: the kept runs newest first, one line each (each stage's time, a slow one marked, how it ended, what
read it), as JSON too; one run's events by the start of its ID; plain words while none is kept."""

import json
from pathlib import Path

from app.presentation.runs import NO_RUNS
from app.store.kept_runs import KeptRuns
from tests.support.kept_runs import FAILED
from tests.support.murmur_cli import Murmur


def test_the_kept_runs_newest_first_one_line_each_and_one_runs_events(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    assert murmur.run("runs").stdout == NO_RUNS + "\n"
    assert murmur.run("add", "--offline", "buy milk").returncode == 0
    KeptRuns.beside(murmur.db_path).keep(FAILED)

    listed = murmur.run("runs")

    failed, added = listed.stdout.splitlines()
    assert failed.startswith("f00dcafe  Today ") and failed.endswith(
        "  typed  interpret 2,340 ms (slow)  failed: llm (LlmError)"
    )
    assert "  cli    interpret " in added and added.endswith("1 changed (offline)") and "milk" not in listed.stdout
    assert murmur.run("runs", "--limit", "1").stdout == failed + "\n"
    [data] = murmur.json("runs", "--limit", "1")
    assert (data["id"], data["slow"], data["ended"], data["error"]) == (
        "f00dcafe1234",
        ["interpret"],
        "failed",
        "LlmError",
    )

    shown = murmur.run("runs", "f00d").stdout.splitlines()
    assert shown[0].startswith("Run f00dcafe1234, Today ") and shown[0].endswith(", typed: failed: llm (LlmError)")
    assert shown[1:] == [
        "  interpret 2,340 ms (slow)",
        "      +0 ms  interpret   run began",
        "  +2,340 ms  interpret   error",
    ]
    unknown = murmur.run("runs", "abc")
    assert (
        unknown.returncode == 2
        and unknown.stderr == "murmur: error: no kept run has ID 'abc'; see them: `murmur runs`\n"
    )
    assert json.loads(murmur.run("runs", "f00d", "--json").stdout)["events"][1] == {
        "kind": "ErrorEvent",
        "stage": "interpret",
        "ms": 2340,
    }
