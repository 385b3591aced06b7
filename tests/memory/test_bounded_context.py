"""The real `murmur` on a store of 10,000 entries, against the local test server: the first request shows a
bounded context that still holds the old entry the user names, says how many it leaves out, and
search_entries pages through the rest."""

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from app.memory.tokens import estimate_tokens
from tests.support.big_store import fill_store
from tests.support.llm_server import FakeLlmServer, Reply, call
from tests.support.murmur_cli import Murmur

pytestmark = pytest.mark.slow


def context_of(body: dict[str, Any]) -> str:
    return str(body["messages"][0]["content"])


def short_id_of(summary: str, text: str) -> str:
    match = re.search(rf'^\[([0-9a-f]+)\] [^\n]*"{re.escape(summary)}"$', text, re.MULTILINE)
    assert match, f"{summary!r} is not in:\n{text}"
    return match.group(1)


@pytest.fixture
def big(tmp_path: Path) -> Murmur:
    murmur = Murmur(tmp_path / "m.db", tmp_path, MURMUR_LLM_MODEL="m")
    assert murmur.run("add", "--offline", "remind me to book the boiler service").returncode == 0
    fill_store(murmur.db_path, 10_000, datetime.now(UTC))  # every one of them newer than the boiler
    return murmur


def test_the_entry_the_user_names_is_in_the_first_request_among_ten_thousand(big: Murmur) -> None:
    def model(body: dict[str, Any]) -> Reply:
        if body["messages"][-1]["role"] == "tool":
            return Reply("Marked the boiler service done.")
        short = short_id_of("Book the boiler service", context_of(body))
        return Reply(tool_calls=[call("complete_entries", {"entries": [{"id": short, "reason": "done"}]})])

    with FakeLlmServer(model) as server:
        big.env["MURMUR_LLM_BASE_URL"] = server.base_url
        done = big.run("add", "the boiler service is done")
        first = context_of(server.requests[0])
    assert done.returncode == 0, done.stderr
    assert "completed" in done.stdout
    assert re.search(r"[\d,]+ more open entries are not shown: use search_entries", first)
    entry_lines = [line for line in first.splitlines() if line.startswith("[")]
    assert sum(estimate_tokens(line) for line in entry_lines) <= 1500
    assert "boiler" not in " ".join(e["summary"].lower() for e in big.json("list"))


def test_search_entries_pages_through_every_match(big: Murmur) -> None:
    pages: list[str] = []

    def model(body: dict[str, Any]) -> Reply:
        results = [m["content"] for m in body["messages"] if m["role"] == "tool"]
        if results:
            pages.append(results[-1])
        offset = re.search(r"offset=(\d+)", results[-1]) if results else None
        if results and not offset:
            return Reply("Those are all the plumber entries.")
        arguments = {"query": "plumber", "status": "any", "limit": 50, "offset": int(offset.group(1)) if offset else 0}
        return Reply(tool_calls=[call("search_entries", arguments)])

    with FakeLlmServer(model) as server:
        big.env["MURMUR_LLM_BASE_URL"] = server.base_url
        done = big.run("add", "what do I have about the plumber?")
    assert done.returncode == 0, done.stderr
    total = int(re.search(r"of (\d+):", pages[0]).group(1))  # type: ignore[union-attr]
    shown = [line for page in pages for line in page.splitlines() if line.startswith("[")]
    assert len(shown) == len(set(shown)) == total > 50
    assert all("plumber" in line.lower() for line in shown)
