"""An assistant over MCP holds the bounds every way in holds: a date no view can show, numbers past SQLite's
integers, a lone surrogate, hundreds of entries in one `add`, text that would act on the reader's terminal. Each is
refused (or cleaned) in one line, and the server answers on; through the official client and a real process."""

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.support.mcp_client import called, mcp_session, text_of
from tests.support.murmur_cli import ROOT, Murmur

# Left out of `make test-fast`: each test starts `murmur mcp` as a process of its own (seconds of imports).
pytestmark = pytest.mark.slow


def _raw_server(murmur: Murmur, text: bool) -> "subprocess.Popen[Any]":
    """`murmur mcp` as a process a raw client talks to over its pipes (what the official client cannot send)."""
    return subprocess.Popen(
        [sys.executable, "-m", "app", "mcp", "--offline"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=murmur.env,
        cwd=ROOT,
        text=text,
    )


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    murmur.env["MURMUR_TZ"] = "America/Los_Angeles"  # west of UTC, where a due in year 1 broke every listing
    return murmur


def test_bounds_over_mcp(murmur: Murmur) -> None:
    year_one = {"content": "x", "summary": "Ancient", "category": "task", "due_date": "0001-01-01 00:30"}
    link = "\x1b]8;;https://evil.example\x07rent\x1b]8;;\x07"  # an OSC-8 hyperlink hiding where it goes
    hostile = {"content": f"Pay {link}", "summary": "Pay \u202erent", "category": "todo"}
    pasted = " and ".join(f"call person{n} tomorrow at {n % 12 + 1}pm" for n in range(100))

    async def scenario() -> dict[str, str]:
        async with mcp_session(murmur) as session:
            said = {}
            for name, tool, arguments in [
                ("year one", "create_entries", {"entries": [year_one]}),
                ("offset", "whats_due", {"when": "week", "offset": 10**30}),
                ("batch", "undo", {"batch": 10**30}),
                ("pasted", "add", {"text": pasted}),
            ]:
                result = await session.call_tool(tool, arguments)
                assert result.is_error, name
                said[name] = text_of(result)
            made = await called(session, "create_entries", {"entries": [hostile]})
            said["hostile"] = str(made)
            said["week"] = text_of(await session.call_tool("whats_due", {"when": "week"}))
            return said

    said = anyio.run(scenario)
    assert "not between the years 1900 and 9999" in said["year one"]
    assert "offset" in said["offset"] and "not a whole number from 0" in said["offset"]
    assert "not a whole number from 1" in said["batch"]
    assert "100 changes at once" in said["pasted"] and "nothing was changed" in said["pasted"]
    assert "\x1b" not in said["hostile"] and "\u202e" not in said["hostile"] and "Pay rent" in said["hostile"]
    listed = murmur.json("list")
    assert {entry["summary"] for entry in listed} == {"Pay \u202erent"}  # kept as given
    assert murmur.run("list").returncode == 0


def test_a_lone_surrogate_in_a_request_is_answered(murmur: Murmur) -> None:
    """A raw client (the official one cannot send it): JSON's "\\ud800" is a lone UTF-16 surrogate."""
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"text": "buy milk \ud800 now"}},
        },
    ]
    with _raw_server(murmur, text=True) as server:
        assert server.stdin is not None and server.stdout is not None
        answers: list[dict[str, Any]] = []
        # as the protocol has a client do: the rest only once initialize is answered
        for sent, awaited in ((requests[:1], 1), (requests[1:], 2)):
            server.stdin.write("".join(json.dumps(request) + "\n" for request in sent))
            server.stdin.flush()
            while not any(answer.get("id") == awaited for answer in answers):
                ready, _, _ = select.select([server.stdout], [], [], 60)
                assert ready, "the server did not answer the request"
                answers.append(json.loads(server.stdout.readline()))
        server.stdin.close()
        server.wait(timeout=30)
    [added] = [answer for answer in answers if answer.get("id") == 2]
    assert not added["result"].get("isError"), added
    assert added["result"]["structuredContent"]["applied"][0]["entry"]["summary"] == "Buy milk \ufffd now"


def test_a_client_undoes_only_what_its_own_session_made_and_murmur_undo_takes_the_users(murmur: Murmur) -> None:
    assert murmur.run("add", "water the plants").returncode == 0  # the user's own batch

    async def first_session() -> int:
        async with mcp_session(murmur) as session:
            made = await called(session, "add", {"text": "buy bread"})
            return int(made["batch"])

    async def same_name_again(batch: int) -> str:
        async with mcp_session(murmur) as session:  # another process, the same name
            refused = await session.call_tool("undo", {"batch": batch})
            assert refused.is_error
            return text_of(refused)

    bread = anyio.run(first_session)
    assert "not made by Claude Desktop in this session" in anyio.run(same_name_again, bread)
    undone = murmur.run("undo")  # the assistant's batch is newer: the user's own is what "undo" means
    assert undone.returncode == 0, undone.stderr
    assert {entry["summary"] for entry in murmur.json("list")} == {"Buy bread"}


def test_a_client_that_never_reads_its_answers_stops_the_server_reading(murmur: Murmur) -> None:
    """A raw client sends thousands of requests and reads nothing: the server stops taking them (its backlog is
    bounded, so its memory is), and the client's writes block on the full pipe instead."""
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    opening = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    call = {"name": "whats_due", "arguments": {"when": "week"}}
    with _raw_server(murmur, text=False) as server:
        assert server.stdin is not None and server.stdout is not None
        os.set_blocking(server.stdin.fileno(), False)
        pending = b"".join(json.dumps(message).encode() + b"\n" for message in opening)
        pending += b"".join(
            json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": call}).encode() + b"\n"
            for n in range(1, 20_001)
        )
        sent, quiet_since = 0, time.monotonic()
        while sent < len(pending) and time.monotonic() - quiet_since < 5:  # until it took nothing for 5 s
            try:
                took = os.write(server.stdin.fileno(), pending[sent : sent + 65_536])
            except BlockingIOError:
                time.sleep(0.05)
                continue
            sent, quiet_since = sent + took, time.monotonic()
        taken = pending[:sent].count(b"\n")
        server.kill()
    assert 100 < taken < 2_000, taken  # answered some, then held (without the bound it reads all 20,000)
