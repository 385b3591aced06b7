"""The LLM pipeline's own cost, with the local test server answering instantly.

1. Overhead per utterance (everything but the server): one utterance = two requests (a create
   call, then the model's closing words), timed end to end, minus the time spent inside the
   HTTP requests themselves. At 100 and 10,000 stored entries.
2. Prompt size sent at 10, 100, 1,000 and 10,000 active entries, in characters and in tokens
   estimated as characters / 4 (no tokenizer can be downloaded here).

Run: .venv/bin/python bench/agent_bench.py
"""

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.agent.client import ChatClient, ChatRequest, Progress  # noqa: E402
from app.agent.loop import LlmAgent  # noqa: E402
from app.agent.tools import TOOLS  # noqa: E402
from app.agent.turn import AssistantTurn, ToolCallCallback  # noqa: E402
from app.config import PrivacySettings  # noqa: E402
from app.domain.clock import Clock  # noqa: E402
from app.domain.enums import Category  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from app.store.models import Entry  # noqa: E402
from tests.support.llm_server import FakeLlmServer, Reply, call, provider_for  # noqa: E402

ROUNDS = 30


class TimedClient(ChatClient):
    """The real client, recording how long each request took on the wire and in the server."""

    spent: float = 0.0

    def send(
        self,
        request: ChatRequest,
        on_tool_call: ToolCallCallback | None = None,
        time_left: float | None = None,
        progress: Progress | None = None,
    ) -> AssistantTurn:
        started = time.perf_counter()
        calls: list[Any] = []
        reply = super().send(request, calls.append, time_left, progress)  # calls run after the clock
        self.spent += time.perf_counter() - started
        for tool_call in calls if on_tool_call else []:
            on_tool_call(tool_call)  # type: ignore[misc]
        return reply


def fill(store: Store, count: int) -> None:
    with store.write() as session:
        session.add_all(
            Entry(content=f"Entry {n}", summary=f"Do thing number {n} today", category=Category.TODO, source_text="b")
            for n in range(count)
        )


def script(body: dict[str, Any]) -> Reply:
    if body["messages"][-1]["role"] == "tool":
        return Reply("Added it.")
    return Reply(tool_calls=[call("create_entries", {"entries": [{"content": "Buy milk", "category": "todo"}]})])


def overhead(size: int, server: FakeLlmServer) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "bench.db")
        fill(store, size)
        client = TimedClient(provider_for(server.base_url, follow_up_seconds=0))
        agent = LlmAgent(provider_for(server.base_url, follow_up_seconds=0), PrivacySettings(), client)
        service = MurmurService(store=store, interpreter=agent, clock=Clock.system)
        totals, overheads = [], []
        for _ in range(ROUNDS):
            client.spent = 0.0
            started = time.perf_counter()
            service.submit("buy milk")
            total = time.perf_counter() - started
            totals.append(total * 1000)
            overheads.append((total - client.spent) * 1000)
        store.close()
    return statistics.median(totals), statistics.median(overheads)


def prompt_chars(size: int, server: FakeLlmServer) -> int:
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(Path(folder) / "bench.db")
        fill(store, size)
        agent = LlmAgent(provider_for(server.base_url, follow_up_seconds=0), PrivacySettings())
        service = MurmurService(store=store, interpreter=agent, clock=Clock.system)
        before = len(server.requests)
        service.submit("buy milk")
        first = server.requests[before]
        store.close()
    return len(json.dumps(first["messages"])) + len(json.dumps(TOOLS))


def main() -> None:
    with FakeLlmServer(script) as server:
        print(f"pipeline overhead per utterance (2 requests, {ROUNDS} rounds, median), test server answering instantly")
        print(f"{'entries':>8} {'total ms':>9} {'overhead ms':>12}")
        for size in (100, 10_000):
            total, own = overhead(size, server)
            print(f"{size:>8,} {total:>9.1f} {own:>12.1f}")
        print("\nprompt size of the first request (messages + tool schema)")
        print(f"{'entries':>8} {'characters':>11} {'~tokens':>8}")
        for size in (10, 100, 1_000, 10_000):
            chars = prompt_chars(size, server)
            print(f"{size:>8,} {chars:>11,} {chars // 4:>8,}")


if __name__ == "__main__":
    main()
