"""The context's cost as the list grows: the first request's prompt for the same utterance, and the time
to choose its entries, at 100, 1,000 and 10,000 entries (a realistic list: varied categories, dates,
priorities, a fifth completed or archived; tests/support/big_store.py).

Goals: prompt tokens at 10,000 <= 1.5x those at 100; assembly <= 30 ms at 10,000.
Tokens are estimated conservatively (app/memory/tokens.py; no tokenizer can be downloaded here), with
characters / 4 beside them. "whole list" is what showing every open entry would cost.

Run: .venv/bin/python bench/context_bench.py
"""

import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.agent.loop import LlmAgent  # noqa: E402
from app.agent.tools import TOOLS  # noqa: E402
from app.config import PrivacySettings  # noqa: E402
from app.domain.clock import Clock  # noqa: E402
from app.memory.context import assemble_entries  # noqa: E402
from app.memory.entry_rows import OPEN_CONDITION, EntryReader  # noqa: E402
from app.memory.lines import entry_line  # noqa: E402
from app.memory.tokens import estimate_tokens  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from tests.support.big_store import fill_store  # noqa: E402
from tests.support.llm_server import FakeLlmServer, Reply, provider_for  # noqa: E402

SIZES = (100, 1_000, 10_000)
UTTERANCE = "the boiler service is done, and remind me to call Anna about the passport form on Friday"
ROUNDS = 30


def first_prompt(db: Path, server: FakeLlmServer) -> str:
    store = Store.open(db)
    agent = LlmAgent(provider_for(server.base_url, follow_up_seconds=0), PrivacySettings())
    service = MurmurService(store=store, interpreter=agent, clock=Clock.system)
    before = len(server.requests)
    service.submit(UTTERANCE)
    body: dict[str, Any] = server.requests[before]
    agent.close()
    store.close()
    return json.dumps(body["messages"], ensure_ascii=False) + json.dumps(TOOLS)


def assembly_ms(db: Path) -> tuple[float, int]:
    store = Store.open(db)
    clock = Clock.system()
    times = []
    with store.read() as session:
        for _ in range(ROUNDS):
            started = time.perf_counter()
            shown = assemble_entries(session, clock.now, clock.tz, UTTERANCE, 1500)
            times.append((time.perf_counter() - started) * 1000)
        reader = EntryReader(session, clock.now)
        whole = sum(estimate_tokens(entry_line(row, row.id[:6], clock.tz)) for row in reader.rows(OPEN_CONDITION))
    store.close()
    return statistics.median(times), whole if shown.hidden else shown.tokens


def main() -> None:
    rows = []
    with FakeLlmServer(lambda body: Reply("Done.")) as server, tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            db = Path(folder) / f"{size}.db"
            fill_store(db, size, datetime.now(UTC))
            prompt = first_prompt(db, server)
            ms, whole = assembly_ms(db)
            rows.append((size, estimate_tokens(prompt), len(prompt) // 4, whole, ms))
    base = rows[0][1]
    print(f"first request, same utterance ({UTTERANCE!r})")
    print(f"{'entries':>8} {'tokens':>8} {'chars/4':>8} {'x at 100':>9} {'whole list':>11}")
    for size, tokens, quarter, whole, _ in rows:
        print(f"{size:>8,} {tokens:>8,} {quarter:>8,} {tokens / base:>8.2f}x {whole:>11,}")
    print(f"\nchoosing the context's entries (median of {ROUNDS}, budget 1,500 tokens)")
    print(f"{'entries':>8} {'ms':>7}")
    for size, *_, ms in rows:
        print(f"{size:>8,} {ms:>7.1f}")


if __name__ == "__main__":
    main()
