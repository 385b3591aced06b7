"""A real second Unix user, and small programs run as that user: file modes and socket peers are checked
by the kernel, not simulated. Only root can make one; the tests that need it skip otherwise."""

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

NAME = "murmurtest"

# Listens on a Unix socket as the other user and prints what a caller sent. argv: path, uid, gid, and
# "bind-first" to bind while still root (in a folder only root may enter) and become the user before listen()
# (the kernel then reports the user as the listener), else become the user first (their own folder).
LISTENER = """
import os, socket, sys
path, uid, gid, order = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
def drop():
    os.setgroups([]); os.setgid(gid); os.setuid(uid)
if order == "bind-first":
    server.bind(path)
    drop()
else:
    drop()
    server.bind(path)
server.listen()
print("ready", flush=True)
server.settimeout(20)
caller, _ = server.accept()
caller.settimeout(5)
try:
    print("received", repr(caller.recv(100)), flush=True)
except TimeoutError:
    print("received nothing", flush=True)
"""


@pytest.fixture
def other_user() -> pwd.struct_passwd:
    if os.geteuid() != 0:
        pytest.skip("needs root, to create and become a second user")
    try:
        return pwd.getpwnam(NAME)
    except KeyError:  # made here; a test running alongside may make it at the same moment (useradd exits 9)
        made = subprocess.run(["useradd", "--no-create-home", NAME], capture_output=True, text=True)
        assert made.returncode in (0, 9), made.stderr
        return pwd.getpwnam(NAME)


def listen_as(user: pwd.struct_passwd, path: Path, order: str) -> "subprocess.Popen[str]":
    """The LISTENER as `user`, once it is listening."""
    process = subprocess.Popen(
        [sys.executable, "-c", LISTENER, str(path), str(user.pw_uid), str(user.pw_gid), order],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n", process.stderr.read() if process.stderr else ""
    return process


def run_as(user: pwd.struct_passwd, command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["su", user.pw_name, "-s", "/bin/sh", "-c", command], capture_output=True, text=True)


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A fresh folder every user may enter and write in, like /tmp (pytest's own tmp folders are root's alone,
    which would hide what Murmur's own modes do)."""
    folder = Path(tempfile.mkdtemp(prefix="murmur-shared-"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
