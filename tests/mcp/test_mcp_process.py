"""`murmur mcp` as a process whose client goes away: it ends, quietly, keeping what it was asked before, and its
stdout never carries anything but the protocol's messages."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.murmur_cli import ROOT, Murmur

# Left out of `make test-fast`: each test starts `murmur mcp` as a process of its own and ends it.
pytestmark = pytest.mark.slow

ADD_MILK = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "tools/call",
    "params": {"name": "add", "arguments": {"text": "buy milk"}},
}


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path)


def _started(murmur: Murmur) -> "subprocess.Popen[bytes]":
    """`murmur mcp` after the handshake with a client that speaks the protocol by hand."""
    server = subprocess.Popen(
        [sys.executable, "-m", "app", "mcp", "--offline"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=murmur.env,
        cwd=ROOT,
    )
    assert server.stdin is not None and server.stdout is not None
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "by hand", "version": "0"}}
    _send(server, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
    assert json.loads(server.stdout.readline())["result"]["serverInfo"]["name"] == "murmur"
    _send(server, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    return server


def _send(server: "subprocess.Popen[bytes]", message: dict[str, Any]) -> None:
    assert server.stdin is not None
    server.stdin.write(json.dumps(message).encode() + b"\n")
    server.stdin.flush()


def test_a_closed_input_ends_the_server_after_its_last_answer(murmur: Murmur) -> None:
    server = _started(murmur)
    _send(server, ADD_MILK)
    out, err = server.communicate(timeout=60)  # closes stdin at once: the call in flight is answered first
    assert server.returncode == 0, err.decode()
    [answer] = [json.loads(line) for line in out.splitlines()]  # protocol only: every line a JSON-RPC message
    assert answer["id"] == 2 and answer["result"]["isError"] is False
    assert [entry["summary"] for entry in murmur.json("list")] == ["Buy milk"]


def test_a_client_gone_mid_call_leaves_quietly_and_keeps_the_change(murmur: Murmur) -> None:
    server = _started(murmur)
    assert server.stdout is not None and server.stdin is not None
    server.stdout.close()  # the client is gone before the answer
    _send(server, ADD_MILK)
    server.stdin.close()
    assert server.wait(timeout=60) == 141  # as any `murmur` command whose reader went away
    assert server.stderr is not None
    with server.stderr:
        assert server.stderr.read() == b""
    [batch] = murmur.json("history")
    assert batch["origin"] == "by hand" and batch["undone"] is False
