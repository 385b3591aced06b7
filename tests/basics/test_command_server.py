"""The app's end of the command socket, alone, attacked the way a looping script of its own user might:
idle connections by the thousand, a line that never ends, a process out of file descriptors, a socket
file removed under it."""

import logging
import resource
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.command_server import MAX_LINE, CommandServer
from app.command_socket import AppCommand, send_command
from tests.support.murmur_cli import ROOT

WAIT_SECONDS = 30  # a bound on waits for events, never a measure

# Serves the socket at argv[1] under a low descriptor limit, then uses up every descriptor left, until told.
OUT_OF_DESCRIPTORS = """
import logging, os, resource, sys
from pathlib import Path
from app.command_server import CommandServer
logging.basicConfig(stream=sys.stderr, format="%(message)s")
resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
server = CommandServer(Path(sys.argv[1]), lambda command: print("command", command.value, flush=True))
spent = []
try:
    while True:
        spent.append(os.open(os.devnull, os.O_RDONLY))
except OSError:
    print("full", flush=True)
sys.stdin.readline()
for descriptor in spent:
    os.close(descriptor)
print("freed", flush=True)
sys.stdin.readline()
server.close()
"""


class Heard(logging.Handler):
    """Set when the server logs a line containing `text`."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.event = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.event.set()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "app.sock"


@pytest.fixture
def commands() -> list[AppCommand]:
    return []


@pytest.fixture
def server(path: Path, commands: list[AppCommand]) -> Iterator[CommandServer]:
    serving = CommandServer(path, commands.append)
    yield serving
    serving.close()


def connected(path: Path) -> socket.socket:
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(str(path))  # blocking: waits for room when the server's queue is full
    client.settimeout(WAIT_SECONDS)
    return client


def at_least_descriptors(count: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count:
        if hard != resource.RLIM_INFINITY and hard < count:
            pytest.skip(f"needs {count} file descriptors; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


def test_a_command_gets_through_a_thousand_idle_connections(
    server: CommandServer, path: Path, commands: list[AppCommand]
) -> None:
    at_least_descriptors(1_200)
    idle = [connected(path) for _ in range(1_000)]
    try:
        assert send_command(AppCommand.TOGGLE, path) == "toggle"
    finally:
        for client in idle:
            client.close()
    assert commands == [AppCommand.TOGGLE]


def test_an_idle_client_is_closed(server: CommandServer, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.command_server.CLIENT_SECONDS", 0.0)
    with connected(path) as idle:
        assert idle.recv(100) == b""


def test_a_64_mb_line_is_refused_without_being_held(
    server: CommandServer, path: Path, commands: list[AppCommand]
) -> None:
    with connected(path) as client:
        try:
            client.sendall(b"t" * (64 << 20))
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the end, as it should be
        assert client.recv(100) == b"error line too long\n"
    assert server.buffered_peak <= 2 * MAX_LINE
    assert send_command(AppCommand.SHOW, path) == "show"
    assert commands == [AppCommand.SHOW]


def test_an_unknown_command_is_answered_in_one_line(server: CommandServer, path: Path) -> None:
    with connected(path) as client:
        client.sendall(b"dance\n")
        assert client.recv(100) == b"error unknown command 'dance'\n"


def test_a_removed_socket_file_comes_back(server: CommandServer, path: Path) -> None:
    heard = Heard("listening there again")
    logging.getLogger("murmur.commands").addHandler(heard)
    try:
        path.unlink()
        assert heard.event.wait(WAIT_SECONDS)
    finally:
        logging.getLogger("murmur.commands").removeHandler(heard)
    assert send_command(AppCommand.SHOW, path) == "show"


def test_out_of_file_descriptors_the_server_keeps_its_socket_and_answers_later(path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", OUT_OF_DESCRIPTORS, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    try:
        assert child.stdout.readline() == "full\n"
        with connected(path):  # the server cannot take it: accept fails with EMFILE
            refusal = child.stderr.readline()
            assert "cannot take a command connection" in refusal and "Too many open files" in refusal
            assert path.is_socket()
            child.stdin.write("\n")
            child.stdin.flush()
            assert child.stdout.readline() == "freed\n"
            assert send_command(AppCommand.TOGGLE, path) == "toggle"
            assert child.stdout.readline() == "command toggle\n"
        child.stdin.write("\n")
        child.stdin.flush()
        _, errors = child.communicate(timeout=WAIT_SECONDS)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == 0, errors
    assert errors == ""  # the failure was logged once, however often accepting was tried again
