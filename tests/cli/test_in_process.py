"""`main(argv, env)` runs a command inside this process as a fresh process would: it sees exactly `env`, and
the process is left as it was (environment, umask, streams, logging, keyring), so two runs share nothing."""

import logging
import os
import sys
from pathlib import Path

import keyring
import pytest

from tests.support.in_process import run_in_process
from tests.support.memory_keyring import MemoryKeyring


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "MURMUR_DB": str(home / "murmur.db"),
        "MURMUR_LOG_DIR": str(home / "logs"),
        "MURMUR_CONFIG_DIR": str(home / "config"),
        "MURMUR_DATA_DIR": str(home / "data"),
        "MURMUR_TZ": "Europe/Berlin",
        **extra,
    }


def test_two_runs_each_see_their_own_environment_and_leave_the_process_as_it_was(
    tmp_path: Path, memory_keyring: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    environ, umask = dict(os.environ), os.umask(0o022)
    logger, own_handler = logging.getLogger("murmur"), logging.NullHandler()
    logger.addHandler(own_handler)  # the caller's logging (the desktop app's, another test's) is not the run's
    handlers, streams = list(logger.handlers), (sys.stdin, sys.stdout, sys.stderr)
    try:
        assert run_in_process(["add", "buy milk"], _env(first), None).returncode == 0
        listed = run_in_process(["list"], _env(second), None)
        assert logger.handlers == handlers and logger.propagate
    finally:
        logger.removeHandler(own_handler)

    assert listed.returncode == 0 and "Buy milk" not in listed.stdout  # the second database, not the first
    assert "Buy milk" in run_in_process(["list"], _env(first), None).stdout
    for home, other in ((first, second), (second, first)):  # each run logs to its own folder
        logged = (home / "logs" / "murmur.log").read_text()
        assert f"migrated {home / 'murmur.db'}" in logged and str(other) not in logged
    assert not [record for record in caplog.records if record.name.startswith("murmur")]  # the runs' own logs
    assert not Path(f"{first / 'murmur.db'}-wal").exists()  # its connections closed, as at a process's exit
    assert dict(os.environ) == environ and os.umask(umask) == 0o022
    assert (sys.stdin, sys.stdout, sys.stderr) == streams
    assert keyring.get_keyring() is memory_keyring


def test_a_run_finds_the_keyring_its_environment_names_not_the_caller_s(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    env = _env(tmp_path, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    done = run_in_process(["config", "set-key"], env, "sk-secret-123\n")
    assert done.returncode == 4 and "keyring" in done.stderr
    assert memory_keyring.secrets == {}
