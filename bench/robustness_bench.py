"""How long the offline interpreter takes on text no one would say (tests/support/odd_texts.py): each odd text,
and five thousand words of real commands. Goals: each odd text under 5 s, the five thousand words under 10 s
(a stuck regular expression shows as minutes). Printed: the seconds each took, and whether it met its goal.

Run: .venv/bin/python bench/robustness_bench.py
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.odd_texts import ODD, five_thousand_words  # noqa: E402
from tests.support.offline_entries import interpret  # noqa: E402

ODD_GOAL_SECONDS = 5.0
WORDS_GOAL_SECONDS = 10.0


def timed(text: str) -> float:
    started = time.perf_counter()
    interpret(text)
    return time.perf_counter() - started


def main() -> int:
    cases = [(repr(text[:20]), text, ODD_GOAL_SECONDS) for text in ODD]
    cases.append(("five thousand words", five_thousand_words(), WORDS_GOAL_SECONDS))
    missed = 0
    for name, text, goal in cases:
        seconds = timed(text)
        met = seconds < goal
        missed += not met
        print(f"{name:<28} {seconds:7.3f} s  (goal < {goal:g} s){'' if met else '  MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
