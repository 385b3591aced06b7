"""Each kind of failure exits with its own status, so a script can tell them apart: the real CLI in this process
on a real database."""

from pathlib import Path

from app.cli.exits import MEANINGS, ExitCode
from tests.support.murmur_cli import Murmur


def test_each_kind_of_failure_has_its_own_status(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    assert murmur.run("add", "--offline", "buy milk").returncode == ExitCode.OK
    assert murmur.run("add", "--offline", " ").returncode == ExitCode.USAGE
    assert murmur.run("memory", "forget", "abcdef").returncode == ExitCode.NOT_FOUND
    pasted = " and ".join(f"call person{n} tomorrow" for n in range(40))
    held = murmur.run("add", "--offline", pasted)
    assert held.returncode == ExitCode.WAITS_FOR_YES and "murmur retry" in held.stderr
    (tmp_path / "other.db").write_text("not a database")
    assert murmur.run("list", "--db", str(tmp_path / "other.db")).returncode == ExitCode.STORE
    assert murmur.run("transcribe", str(tmp_path / "nothing.wav")).returncode == ExitCode.SPEECH
    assert len({int(code) for code in ExitCode}) == len(ExitCode) == len(MEANINGS)
