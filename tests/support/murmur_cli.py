"""The `murmur` command run as a user runs it: a real process on a real database file."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

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

    def count(self, table: str) -> int:
        with sqlite3.connect(self.db_path) as db:
            return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def assert_one_line_error(done: subprocess.CompletedProcess[str], code: int, text: str) -> None:
    assert done.returncode == code
    assert done.stderr.startswith("murmur: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert text in done.stderr
