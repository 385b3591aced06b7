"""`murmur mcp` at 10,000 entries: one tool call's round trip through the official MCP client, and what of it is
the protocol's rather than the service's own work.

A realistic store (tests/support/big_store.py) is served by `python -m app mcp --offline`, started by the SDK's
stdio client as Claude Desktop starts it. Each call is timed at the client, from the request to the parsed result;
the same call's service work (the service method and the words of its result, as the server does it) is timed in
this process on the same database, call for call in turn with the server's, so both meet the same load. The
difference is what MCP adds: JSON-RPC over two pipes, the SDK's validation, the result as text and data,
redaction. A change is undone by the next call, so the store stays as it was.

Goal: under 50 ms beyond the service's own work (median). Printed: median and p90 over several calls.

Run: .venv/bin/python bench/mcp_bench.py
"""

import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from app.assembly import build_service  # noqa: E402
from app.changes.held import Caps  # noqa: E402
from app.config import Settings  # noqa: E402
from app.mcp.calls import CALLS, Caller  # noqa: E402
from tests.support.big_store import fill_store  # noqa: E402

ENTRIES = 10_000
CALLS_EACH = 30
ROOT = Path(__file__).resolve().parents[1]
Timings = tuple[dict[str, list[float]], dict[str, list[float]]]  # each call's own work, and its round trips


def _quantiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.9)] * 1000


def _asked(name: str, arguments: dict[str, Any], entry: str, batch: int) -> dict[str, Any]:
    """The call's arguments: the complete names `entry`, the undo takes back the batch the complete made."""
    if name == "undo":
        return {"batch": batch}
    if name == "complete_entries":
        return {"entries": [{"id": entry, "reason": "bench"}]}
    return arguments


async def _timed(db: Path, calls: list[tuple[str, dict[str, Any]]], entries: tuple[str, str]) -> Timings:
    """Each call made in turn in this process (on entries[0]) and through the server (on entries[1]), so that both
    meet the same load of the machine."""
    folder = db.parent
    env = {"MURMUR_DB": str(db), "MURMUR_LOG_DIR": str(folder / "logs"), "MURMUR_CONFIG_DIR": str(folder / "config")}
    server = StdioServerParameters(command=sys.executable, args=["-m", "app", "mcp", "--offline"], env=env, cwd=ROOT)
    own: dict[str, list[float]] = {name: [] for name, _ in calls}
    trips: dict[str, list[float]] = {name: [] for name, _ in calls}
    service = build_service(db, Settings(), offline=True)
    caller = Caller(service, "mcp_bench", Caps(confirm_over=5, max_mutations=25))
    own_batch = trip_batch = 0
    async with stdio_client(server) as (read, write):
        client = types.Implementation(name="mcp_bench", version="1")
        async with ClientSession(read, write, client_info=client) as session:
            await session.initialize()
            for _ in range(CALLS_EACH):
                for name, arguments in calls:
                    asked = _asked(name, arguments, entries[0], own_batch)
                    start = time.perf_counter()
                    reply = CALLS[name](caller, asked)
                    own[name].append(time.perf_counter() - start)
                    own_batch = reply.data.get("batch", own_batch)

                    asked = _asked(name, arguments, entries[1], trip_batch)
                    start = time.perf_counter()
                    result = await session.call_tool(name, asked)
                    trips[name].append(time.perf_counter() - start)
                    assert not result.is_error and isinstance(result.structured_content, dict), result.content
                    trip_batch = result.structured_content.get("batch", trip_batch)
    service.close()
    return own, trips


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "murmur.db"
        fill_store(db, ENTRIES, datetime.now(UTC))
        service = build_service(db, Settings(), offline=True)
        first, second = service.search({"status": "active", "limit": 2, "sort": "created"}).rows
        service.close()
        calls: list[tuple[str, dict[str, Any]]] = [
            ("search_entries", {"query": "milk"}),
            ("whats_due", {"when": "week"}),
            ("complete_entries", {}),
            ("undo", {}),
        ]
        own, trips = anyio.run(_timed, db, calls, (first.id, second.id))
    rows = []
    for name, _ in calls:
        own_median, _ = _quantiles(own[name])
        trip_median, trip_p90 = _quantiles(trips[name])
        rows.append(
            f"| {name} | {own_median:.1f} | {trip_median:.1f} | {trip_p90:.1f} | {trip_median - own_median:.1f} |"
        )
    print(f"One call at {ENTRIES:,} entries, {CALLS_EACH} calls each (ms):\n")
    print("| call | service's own work | round trip median | round trip p90 | MCP adds |")
    print("|---|---:|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
