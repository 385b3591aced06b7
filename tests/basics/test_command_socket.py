"""The command socket's client, `murmur toggle` (run in this process), against listeners that are not our app:
another user's, in our folder or in one they made first, and one that never answers."""

import os
import pwd
import socket
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from app.command_socket import socket_path
from tests.support.in_process import run_in_process
from tests.support.other_user import listen_as, other_user, shared_folder  # noqa: F401 (fixtures)


@pytest.fixture(autouse=True)
def no_runtime_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)


def toggle() -> subprocess.CompletedProcess[str]:
    """`murmur toggle`, run in this process (tests/support/in_process.py) with its environment."""
    return run_in_process(["toggle"], dict(os.environ), None)


def assert_refused_in_one_line(done: subprocess.CompletedProcess[str], text: str) -> None:
    assert done.returncode == 1
    assert done.stderr.startswith("murmur: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert text in done.stderr


def received(listener: "subprocess.Popen[str]") -> str:
    output, _ = listener.communicate(timeout=30)
    return output


def test_the_socket_folder_is_private_to_us(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fallback = socket_path().parent
    assert (fallback.name, fallback.stat().st_uid) == (f"murmur-{os.getuid()}", os.getuid())
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    for folder in (fallback, socket_path().parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert socket_path().parent == runtime / "murmur"


@pytest.mark.slow  # waits the three seconds out
def test_a_listener_that_never_answers_gives_one_line() -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as silent:
        silent.bind(str(socket_path()))
        silent.listen()
        started = time.monotonic()
        done = toggle()
    socket_path().unlink()
    assert_refused_in_one_line(done, "the running Murmur did not answer within 3 seconds")
    assert time.monotonic() - started < 15


def test_another_users_listener_at_our_path_is_not_sent_the_command(
    other_user: pwd.struct_passwd,  # noqa: F811
) -> None:
    listener = listen_as(other_user, socket_path(), "bind-first")
    done = toggle()
    socket_path().unlink()
    assert_refused_in_one_line(done, f"is held by a program of another user (uid {other_user.pw_uid})")
    assert "toggle" not in received(listener)


def test_a_socket_folder_another_user_made_first_is_not_trusted(
    other_user: pwd.struct_passwd,  # noqa: F811
    shared_folder: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TMPDIR", str(shared_folder))
    monkeypatch.setattr(tempfile, "tempdir", str(shared_folder))
    path = socket_path()
    os.chown(path.parent, other_user.pw_uid, other_user.pw_gid)  # as if they had made it before us
    listener = listen_as(other_user, path, "user-first")
    done = toggle()
    assert_refused_in_one_line(done, f"{path.parent} (the folder of Murmur's command socket) belongs to another user")
    listener.kill()
    assert "toggle" not in received(listener)
