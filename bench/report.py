"""Runs benches and writes each one's output into its place in docs/benchmarks.md, with the machine and the date.

A bench's place is the block between `<!-- bench: COMMAND -->` and `<!-- end -->`, COMMAND being the script and
its arguments as run from the repository's root; the words around the blocks are kept as written. With no
arguments it runs what `make bench` runs; `bench/report.py "bench/watch_bench.py"` refreshes one block.
Run: .venv/bin/python bench/report.py [COMMAND ...]
"""

import os
import platform
import re
import shlex
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "benchmarks.md"
# What `make bench` runs: the benches that need no model download, no llama.cpp build and no desktop session.
BENCHES = [
    "bench/offline_bench.py",
    "bench/offline_bench.py --held-out",
    "bench/offline_bench.py --blind",
    "bench/date_sweep_bench.py",
    "bench/robustness_bench.py",
    "bench/executor_bench.py",
    "bench/transactions_bench.py",
    "bench/agent_bench.py",
    "bench/speech_bench.py",
    "bench/speech_accuracy_bench.py",
    "bench/whisper_window_bench.py",
    "bench/live_whisper_bench.py",
    "bench/real_voice_bench.py",
    "bench/voice_clarity_bench.py",
    "bench/vocabulary_bench.py",
    "bench/live_vs_file_bench.py",
    "bench/data_bench.py",
    "bench/undo_bench.py",
    "bench/sync_bench.py",
    "bench/mcp_bench.py",
    "bench/settings_bench.py",
    "bench/recordings_bench.py",
]


def block(command: str, body: str) -> str:
    return f"<!-- bench: {command} -->\n{body}<!-- end -->"


def replace_block(page: str, command: str, body: str) -> str:
    """The page with the block of `command` holding `body`; a command with no block is a mistake, not skipped."""
    pattern = re.compile(re.escape(f"<!-- bench: {command} -->") + r"\n.*?<!-- end -->", re.DOTALL)
    if not pattern.search(page):
        raise SystemExit(f"{PAGE.name} has no block for {command!r}: add `{block(command, '')}` where it goes")
    return pattern.sub(lambda _: block(command, body), page, count=1)


def machine() -> str:
    """The CPU's model, its cores, the system and Python: what the figures depend on."""
    cpu = platform.processor() or platform.machine()
    info = Path("/proc/cpuinfo")
    if info.exists():
        names = [
            line.split(":", 1)[1].strip() for line in info.read_text().splitlines() if line.startswith("model name")
        ]
        cpu = names[0] if names else cpu
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def run(command: str) -> str:
    """The bench's standard output (its progress goes to the terminal as it runs), dated and fenced."""
    done = subprocess.run(
        [sys.executable, *shlex.split(command)], cwd=ROOT, stdout=subprocess.PIPE, text=True, check=False
    )
    print(done.stdout, end="", flush=True)
    if done.returncode != 0:
        raise SystemExit(f"{command} failed (exit status {done.returncode}); {PAGE.name} keeps its earlier figures")
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"`{command}`, {when}, on {machine()}:\n\n```text\n{done.stdout.rstrip()}\n```\n"


def main(commands: list[str]) -> None:
    chosen = commands or BENCHES
    for command in chosen:  # every block is looked for before the first bench spends its minutes
        replace_block(PAGE.read_text(encoding="utf-8"), command, "")
    for command in chosen:
        print(f"$ {command}", flush=True)
        # Written after each bench: a failing one keeps the figures of those that ran.
        PAGE.write_text(replace_block(PAGE.read_text(encoding="utf-8"), command, run(command)), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
