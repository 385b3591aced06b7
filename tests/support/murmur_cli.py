"""The `murmur` command on a real database file: run inside the test process by default (app.cli.main with the
command's own environment), or as a real process where the process itself is what is tested."""

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

from app.cli.args import parse_args
from tests.support.in_process import run_in_process

ROOT = Path(__file__).parents[2]


class Murmur:
    def __init__(self, db_path: Path, home: Path, **env: str) -> None:
        self.db_path = db_path
        self.env = {
            **os.environ,
            **env,
            "MURMUR_DB": str(db_path),
            "MURMUR_LOG_DIR": str(home / "logs"),
            "MURMUR_CONFIG_DIR": str(home / "config"),
            "MURMUR_TZ": "Europe/Berlin",
        }

    def run(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """`murmur args` in this process; `murmur` with no command starts the desktop app, so that one runs as a
        process of its own."""
        if _starts_the_app(args):
            return self.run_process(*args, stdin=stdin)
        return run_in_process(args, self.env, stdin)

    def run_process(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """`python -m app args` as a real process: for what only a process shows (its exit, signals, pipes)."""
        return subprocess.run(
            [sys.executable, "-m", "app", *args],
            capture_output=True,
            text=True,
            env=self.env,
            cwd=ROOT,
            input=stdin,
            timeout=60,
        )

    def json(self, *args: str, code: int = 0) -> Any:
        done = self.run(*args, "--json")
        assert done.returncode == code, done.stderr
        return json.loads(done.stdout)

    def run_read_only(self, *args: str, folder_writable: bool = False) -> subprocess.CompletedProcess[str]:
        """`murmur args` on this database made read-only (the file, and its folder unless `folder_writable`:
        then SQLite can make the files it reads a WAL database with). Root ignores file permissions, so as
        root the command runs as 'nobody': make the Murmur with `world_reachable`."""
        folder = self.db_path.parent
        with closing(sqlite3.connect(self.db_path)) as db:  # what the WAL holds goes into the file first
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for sidecar in ("-wal", "-shm"):
            Path(f"{self.db_path}{sidecar}").unlink(missing_ok=True)
        self.db_path.chmod(0o444)
        folder.chmod(0o777 if folder_writable else 0o555)
        settings = Path(self.env["MURMUR_CONFIG_DIR"])
        if settings.is_dir():
            settings.chmod(0o755)  # Murmur made it private to root: 'nobody' is to find no settings in it
        command = [sys.executable, "-m", "app", *args]
        if os.geteuid() == 0:
            command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]
        try:
            return subprocess.run(command, capture_output=True, text=True, env=self.env, cwd=ROOT, timeout=60)
        finally:
            folder.chmod(0o755)
            self.db_path.chmod(0o600)

    def count(self, table: str) -> int:
        with sqlite3.connect(self.db_path) as db:
            return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def _starts_the_app(args: tuple[str, ...]) -> bool:
    try:
        return parse_args(args).command is None
    except SystemExit:  # --help, --version or a usage error: answered by the parser, whichever way it runs
        return False


def world_reachable(**env: str) -> Murmur:
    """A Murmur whose database folder another user (nobody) can reach, for run_read_only."""
    folder = Path(tempfile.mkdtemp(prefix="murmur-ro-"))
    folder.chmod(0o755)
    return Murmur(folder / "murmur.db", folder, **env)


def assert_one_line_error(done: subprocess.CompletedProcess[str], code: int, text: str) -> None:
    assert done.returncode == code
    assert done.stderr.startswith("murmur: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert text in done.stderr
