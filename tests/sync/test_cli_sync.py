"""`murmur sync setup`, `murmur sync` and `murmur sync status` as a user (or a script) runs them: the real command,
a real Radicale server, the `caldav` library as the phone. No keyring runs here, so the password comes from
standard input at setup and from MURMUR_CALDAV_PASSWORD after, as the user guide tells such a machine to do."""

import json
from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur, assert_one_line_error
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer


def test_setup_from_a_script_then_sync_and_status(radicale: RadicaleServer, phone: Phone, tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    murmur.run("add", "remind me to call the dentist Thursday at 3pm, and buy oat milk")

    setup = murmur.run(
        "sync", "setup", "--url", radicale.url, "--username", radicale.username, "--calendar", "Murmur",
        "--password-stdin", stdin=radicale.password + "\n",
    )  # fmt: skip

    assert setup.returncode == 0, setup.stderr
    assert "connected: the task list 'Murmur' is at http://127.0.0.1" in setup.stdout
    assert "No keyring here: set MURMUR_CALDAV_PASSWORD" in setup.stdout
    settings = (tmp_path / "config" / "settings.toml").read_text()
    assert f'url = "{radicale.url}"' in settings and radicale.password not in settings
    murmur.env["MURMUR_CALDAV_PASSWORD"] = radicale.password
    report = murmur.json("sync")
    assert sorted(report["pushed"]) == ["created: Buy oat milk", "created: Call the dentist"]
    assert report["queued"] == 0 and report["conflicts"] == []
    assert sorted(str(todo["SUMMARY"]) for todo in phone.todos().values()) == ["Buy oat milk", "Call the dentist"]
    status = murmur.json("sync", "status")
    assert (status["queued"], status["last_error"], status["calendar"]) == (0, None, "Murmur")
    assert status["last_sync_at"] is not None


def test_config_set_alone_is_enough_and_the_task_list_is_made(
    radicale: RadicaleServer, phone: Phone, tmp_path: Path
) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, MURMUR_CALDAV_PASSWORD=radicale.password)
    for key, value in (("sync.url", radicale.url), ("sync.username", radicale.username), ("sync.calendar", "Chores")):
        assert murmur.run("config", "set", key, value).returncode == 0
    murmur.run("add", "buy bread")
    done = murmur.run("sync")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("Synced: 1 sent, 0 received\n")
    phone.list_name = "Chores"
    assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["Buy bread"]


def test_a_wrong_password_is_one_line_and_never_logged(radicale: RadicaleServer, tmp_path: Path) -> None:
    wrong = "not-the-right-pass-42"
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, MURMUR_CALDAV_PASSWORD=wrong)
    murmur.run("config", "set", "sync.url", radicale.url)
    murmur.run("config", "set", "sync.username", radicale.username)
    murmur.run("add", "buy bread")
    done = murmur.run("sync")
    assert_one_line_error(done, 1, f"the sync server at 127.0.0.1:{radicale.port} refused the user name or password")
    status = murmur.json("sync", "status")
    assert status["queued"] == 1  # kept for the next try
    doctor = murmur.run("doctor", "--json")
    checks = {check["name"]: check for check in json.loads(doctor.stdout)["checks"]}
    assert checks["sync"]["ok"] is False and "refused the user name or password" in checks["sync"]["detail"]
    assert "1 waiting, password in the environment" in checks["sync"]["detail"]
    logged = "".join(path.read_text() for path in (tmp_path / "logs").glob("*"))
    assert wrong not in logged + doctor.stdout + doctor.stderr


def test_sync_before_setup_says_what_to_do(tmp_path: Path) -> None:
    done = Murmur(tmp_path / "murmur.db", tmp_path).run("sync")
    assert_one_line_error(done, 2, "sync is not set up: run `murmur sync setup` (or set sync.url and sync.username)")


def test_an_address_that_is_not_a_url_is_refused_in_one_line(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, MURMUR_CALDAV_PASSWORD="x")
    murmur.run("config", "set", "sync.url", "cloud.example.com")
    done = murmur.run("sync")
    assert_one_line_error(done, 1, "the sync server's address must begin with https:// (got 'cloud.example.com')")


@pytest.mark.slow  # three processes of their own
def test_without_the_sync_extra_the_commands_say_what_to_install(tmp_path: Path) -> None:
    """The base install has no caldav: a package of that name that cannot be imported stands in for its absence
    (this machine has it installed, for the other tests)."""
    absent = tmp_path / "absent" / "caldav"
    absent.mkdir(parents=True)
    (absent / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'caldav'\", name='caldav')\n")
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, PYTHONPATH=str(absent.parent), MURMUR_CALDAV_PASSWORD="x")
    murmur.run("config", "set", "sync.url", "https://cloud.example.com/dav")
    for command in (("sync",), ("sync", "setup", "--username", "alice", "--calendar", "Murmur", "--password-stdin")):
        done = murmur.run_process(*command, stdin="x\n")  # a fresh interpreter: PYTHONPATH read at its start
        assert_one_line_error(done, 2, "sync needs the caldav library: pipx inject murmur-desktop caldav")
    assert murmur.run_process("add", "buy bread").returncode == 0  # everything else works without it
