"""The kept runs' file: each run one line appended, owner-only; cut back to the last ones only once it has grown past
twice that; a line a crash left torn passed over, the next run on a line of its own."""

import os
import stat
from datetime import UTC, datetime
from pathlib import Path

from app.store.kept_runs import KEPT, Ending, KeptEvent, KeptRun, KeptRuns


def _run(run_id: str) -> KeptRun:
    return KeptRun(
        id=run_id,
        began=datetime(2026, 11, 29, 14, 3, 12, tzinfo=UTC),
        source="typed",
        ending=Ending.FAILED,
        ms={"interpret": 2340, "reply": 3},
        events=(KeptEvent("RunStart", "interpret", 0), KeptEvent("ErrorEvent", "interpret", 2340)),
        failed="llm",
        error="LlmError",
    )


def test_a_run_is_appended_past_a_torn_line_and_the_file_is_cut_back_only_past_twice_the_kept(
    tmp_path: Path,
) -> None:
    kept = KeptRuns.beside(tmp_path / "murmur.db")
    for number in range(3):
        kept.keep(_run(f"run{number}"))
    with kept.path.open("ab") as file:
        file.write(b'{"id": "torn", "began": "2026-')  # the process died in the middle of its line
    before, inode = kept.path.read_bytes(), kept.path.stat().st_ino

    kept.keep(_run("after"))

    assert kept.path.read_bytes().startswith(before) and kept.path.stat().st_ino == inode  # appended, not rewritten
    assert [run.id for run in kept.read()] == ["run0", "run1", "run2", "after"]
    assert kept.read()[0] == _run("run0")  # every fact read back as it was kept
    assert stat.S_IMODE(os.stat(kept.path).st_mode) == 0o600

    for number in range(2 * KEPT - 5):  # up to twice the kept, the torn line counted: nothing is cut yet
        kept.keep(_run(f"more{number}"))
    assert len(kept.path.read_bytes().splitlines()) == 2 * KEPT and len(kept.read()) == KEPT
    kept.keep(_run("newest"))
    assert len(kept.path.read_bytes().splitlines()) == KEPT and kept.path.stat().st_ino == inode
    assert [run.id for run in kept.read()][-2:] == [f"more{2 * KEPT - 6}", "newest"]
