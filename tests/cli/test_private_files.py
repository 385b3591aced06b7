"""What Murmur keeps is its user's alone: folders 0700, files 0600, whatever the umask, and ones found
looser are tightened at start. Root ignores file modes, so modes are read with stat and access is tried
as a real second user."""

import os
import pwd
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from tests.support.in_process import run_in_process
from tests.support.other_user import other_user, run_as, shared_folder  # noqa: F401 (fixtures)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


class Home:
    """A user's home with the platform's folders (no MURMUR_* overrides), as a fresh install sees it."""

    def __init__(self, root: Path) -> None:
        self.data = root / ".local/share/murmur"
        self.config = root / ".config/murmur"
        self.logs = root / ".local/state/murmur/log"
        self.db = self.data / "murmur.db"
        unset = ("MURMUR_DATA_DIR", "MURMUR_CONFIG_DIR", "MURMUR_LOG_DIR", "MURMUR_DB", "XDG_RUNTIME_DIR")
        self.env = {name: value for name, value in os.environ.items() if name not in unset}
        self.env.update(
            HOME=str(root),
            XDG_DATA_HOME=str(root / ".local/share"),
            XDG_CONFIG_HOME=str(root / ".config"),
            XDG_STATE_HOME=str(root / ".local/state"),
            MURMUR_TZ="Europe/Berlin",
        )
        for base in (".local/share", ".config", ".local/state"):  # already there, open, as in a real home
            (root / base).mkdir(parents=True)
        for folder in (root, root / ".local", root / ".local/share", root / ".config", root / ".local/state"):
            folder.chmod(0o755)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = run_in_process(args, self.env, None)
        assert done.returncode == 0, done.stderr
        return done


@pytest.fixture
def home(shared_folder: Path) -> Home:  # noqa: F811
    return Home(shared_folder / "home")


def test_a_fresh_install_keeps_everything_owner_only(home: Home) -> None:
    home.run("add", "buy milk")
    home.run("config", "set", "llm.model", "llama3.1")
    assert {folder: mode(folder) for folder in (home.data, home.config, home.logs)} == dict.fromkeys(
        (home.data, home.config, home.logs), 0o700
    )
    found = [*home.data.rglob("*"), *home.config.rglob("*"), *home.logs.rglob("*")]
    files = [path for path in found if path.is_file()]
    assert {file.name for file in files} >= {"murmur.db", "settings.toml", "murmur.log"}
    assert any(file.parent.name == "backups" for file in files)  # the day's backup, beside the database
    assert {file.name: mode(file) for file in files} == {file.name: 0o600 for file in files}
    folders = [path for path in found if path.is_dir()]
    assert {folder.name: mode(folder) for folder in folders} == {folder.name: 0o700 for folder in folders}


def test_what_an_older_version_left_readable_is_tightened_at_start(home: Home) -> None:
    home.data.mkdir(parents=True, mode=0o755)
    home.data.chmod(0o755)
    sqlite3.connect(home.db).close()
    home.db.chmod(0o644)
    home.run("list")
    assert (mode(home.data), mode(home.db)) == (0o700, 0o600)
    log = (home.logs / "murmur.log").read_text(encoding="utf-8")
    assert f"tightened permissions of {home.data} to 0700" in log
    assert f"tightened permissions of {home.db} to 0600" in log


def test_another_user_cannot_read_the_database(home: Home, other_user: pwd.struct_passwd) -> None:  # noqa: F811
    home.run("add", "my bank PIN is 1234")
    public = home.data.parent / "public.txt"
    public.write_text("anyone may read this")
    public.chmod(0o644)
    assert run_as(other_user, f"cat '{public}'").returncode == 0  # the folders above are open to them
    refused = run_as(other_user, f"cat '{home.db}'")
    assert refused.returncode != 0 and "1234" not in refused.stdout
    assert "Permission denied" in refused.stderr
