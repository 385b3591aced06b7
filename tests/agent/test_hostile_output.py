"""What a model or the store says never drives the terminal: `murmur add`, `list` and `log` in a real pty."""

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.llm_server import FakeLlmServer, Reply, call
from tests.support.murmur_cli import ROOT, Murmur

TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
LINK = "\x1b]8;;https://evil.example/\x1b\\Sign in again\x1b]8;;\x1b\\"
HOSTILE = [
    Reply(
        tool_calls=[call("create_entries", {"entries": [{"summary": f"milk{TITLE}{CLEAR}\u202e", "category": "todo"}]})]
    ),
    Reply(f"Session expired{TITLE}{CLEAR} {LINK}\rhidden\x08"),
]


def run_in_pty(murmur: Murmur, *args: str) -> bytes:
    """The command's output as a terminal would receive it."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "app", *args], stdin=follower, stdout=follower, stderr=follower, env=murmur.env, cwd=ROOT
    )
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the process closed its end
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=60)
    os.close(leader)
    return output


@pytest.mark.slow
def test_escape_sequences_from_the_model_and_the_store_never_reach_the_terminal(tmp_path: Path) -> None:
    with FakeLlmServer(HOSTILE) as server:
        murmur = Murmur(tmp_path / "murmur.db", tmp_path, MURMUR_LLM_BASE_URL=server.base_url, MURMUR_LLM_MODEL="m")
        added = run_in_pty(murmur, "add", "buy milk")
        listed = run_in_pty(murmur, "list")
        logged = run_in_pty(murmur, "log")
    assert b"Session expired" in added and b"Sign in again" in added and b"milk" in listed
    for output in (added, listed, logged):
        assert b"\x1b" not in output and b"\x07" not in output and b"\x08" not in output
        assert "\u202e".encode() not in output
        assert b"\r" not in output.replace(b"\r\n", b"")  # the pty's own line ends only
    # JSON keeps the exact text, escaped
    entries = murmur.json("list")
    assert entries[0]["summary"] == f"milk{TITLE}{CLEAR}\u202e"
