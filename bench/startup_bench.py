"""How long `murmur --version` and `murmur toggle` take to start, against a bare `python -c pass`.

A key bound to `murmur start` loses whatever is said before the command reaches the app, so these commands
must load only the socket client. Goal: each at most 5x `python -c pass`. Each is a fresh process with no
app running (toggle answers "not running", exit 1) and its own empty data and config folders. Bytecode is
cached (in a temporary folder, after one warm-up run), as it is for an installed murmur: compiling the sources
on every run would measure the compiler. Printed: the median of several runs and its ratio to the bare
interpreter.

Run: .venv/bin/python bench/startup_bench.py
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 10
GOAL_RATIO = 5.0
MURMUR = "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))"
CASES = {
    "python -c pass": ["-c", "pass"],
    "murmur --version": ["-c", MURMUR, "--version"],
    "murmur toggle": ["-c", MURMUR, "toggle"],
}


def median_seconds(arguments: list[str], env: dict[str, str]) -> float:
    subprocess.run([sys.executable, *arguments], env=env, capture_output=True, check=False, cwd=ROOT)  # warm-up
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run([sys.executable, *arguments], env=env, capture_output=True, check=False, cwd=ROOT)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
            "PYTHONPYCACHEPREFIX": f"{folder}/bytecode",
            "PYTHONPATH": str(ROOT),
            "MURMUR_DATA_DIR": f"{folder}/data",
            "MURMUR_CONFIG_DIR": f"{folder}/config",
            "MURMUR_LOG_DIR": f"{folder}/logs",
            "XDG_RUNTIME_DIR": folder,
        }
        medians = {name: median_seconds(arguments, env) for name, arguments in CASES.items()}
    bare = medians["python -c pass"]
    print(f"median of {RUNS} runs (goal: at most {GOAL_RATIO:g}x python -c pass)")
    for name, seconds in medians.items():
        print(f"  {name:<18} {seconds * 1000:7.1f} ms  {seconds / bare:5.1f}x")


if __name__ == "__main__":
    main()
