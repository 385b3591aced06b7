"""Write transactions and time per utterance, through MurmurService on a real SQLite file.

Each write transaction is a BEGIN IMMEDIATE ... COMMIT with synchronous=FULL, so an fsync: the
count is what an utterance costs on a slow disk. Goal for the offline rules: 2 per utterance (save
what was said; apply its changes with their undo record and the outcome). The LLM agent, with the
local test server answering a create call and then its closing words, is shown for comparison: it
also writes each request to the log. Run: `make bench` (or .venv/bin/python bench/transactions_bench.py).
"""

import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.agent.loop import LlmAgent  # noqa: E402
from app.changes.interpretation import Agent, Interpreter  # noqa: E402
from app.config import PrivacySettings  # noqa: E402
from app.domain.clock import Clock  # noqa: E402
from app.offline import OfflineInterpreter  # noqa: E402
from app.service import MurmurService  # noqa: E402
from tests.support.llm_server import FakeLlmServer, Reply, call, provider_for  # noqa: E402
from tests.support.store_writes import CountingStore  # noqa: E402

ROUNDS = 50
# One round: creates, a completion, a snooze, an utterance that applies nothing (it goes to the inbox).
UTTERANCES = (
    "remind me to call the dentist thursday and buy milk",
    "idea: a standing desk for the study",
    "milk is done",
    "snooze the dentist until friday",
    "the eggs are done",
)


def agent_reply(body: dict[str, Any]) -> Reply:
    if body["messages"][-1]["role"] == "tool":
        return Reply("Added it.")
    return Reply(tool_calls=[call("create_entries", {"entries": [{"content": "Buy milk", "category": "todo"}]})])


def measure(interpreter: Interpreter | Agent, texts: Sequence[str]) -> tuple[list[int], list[float]]:
    """Write transactions and milliseconds of each utterance, on a fresh database."""
    writes: list[int] = []
    milliseconds: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = CountingStore.open(Path(folder) / "bench.db")
        service = MurmurService(store=store, interpreter=interpreter, clock=Clock.system)
        for _ in range(ROUNDS):
            for text in texts:
                writes_before, started = store.writes, time.perf_counter()
                service.submit(text)
                milliseconds.append((time.perf_counter() - started) * 1000)
                writes.append(store.writes - writes_before)
        store.close()
    return writes, milliseconds


def report(name: str, writes: list[int], milliseconds: list[float]) -> None:
    print(
        f"{name:<38} {statistics.mean(writes):>6.2f} {max(writes):>4} "
        f"{statistics.median(milliseconds):>10.1f} {statistics.mean(milliseconds):>8.1f}"
    )


def main() -> None:
    print(f"per utterance, {ROUNDS} rounds, on a real SQLite file (WAL, synchronous=FULL)")
    print(f"{'':<38} {'writes':>6} {'max':>4} {'median ms':>10} {'mean ms':>8}")
    report(f"offline rules ({len(UTTERANCES)} kinds of utterance)", *measure(OfflineInterpreter(), UTTERANCES))
    with FakeLlmServer(agent_reply) as server:
        agent = LlmAgent(provider_for(server.base_url, follow_up_seconds=0), PrivacySettings())
        report("LLM agent (2 requests, test server)", *measure(agent, ["buy milk"]))


if __name__ == "__main__":
    main()
