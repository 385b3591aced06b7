"""The last runs as `murmur doctor` sums them up: how many, how many failed and why, the time each stage takes."""

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

STAGES = ("listen", "transcribe", "interpret", "reply")


def runs_summary(runs: Sequence[Mapping[str, Any]]) -> str:
    """'12 kept, 1 failed (model); median transcribe 110 ms, interpret 85 ms; newest 2026-11-29T04:40:00+00:00,
    typed, 2 changed (offline)' for runs as app/run/kept.py keeps them, oldest first."""
    failed = [str(run.get("failed")) for run in runs if run.get("failed")]
    why = f" ({', '.join(sorted(set(failed)))})" if failed else ""
    times = []
    for stage in STAGES:
        spent = [run["ms"][stage] for run in runs if isinstance(run.get("ms"), dict) and stage in run["ms"]]
        if spent and stage != "listen":  # how long the key was held is the user's, not Murmur's
            times.append(f"{stage} {statistics.median(spent):.0f} ms")
    newest = runs[-1]
    ended = f"failed ({newest['failed']})" if newest.get("failed") else f"{newest.get('applied', 0)} changed"
    by = f" ({newest['interpreter']})" if newest.get("interpreter") else ""
    parts = [f"{len(runs)} kept, {len(failed)} failed{why}"]
    if times:
        parts.append("median " + ", ".join(times))
    parts.append(f"newest {newest.get('began', '?')}, {newest.get('source', '?')}, {ended}{by}")
    return "; ".join(parts)
