"""The offline interpreter's pass rate on everyday speech, per group of tests/data/offline_utterances.toml
and of the follow-ups to a kept list (tests/data/followups/).

Each case is read at fixed nows (a Monday morning, a Friday night, New Year's Eve 23:30, Feb 28 of a
leap year; some on a Thursday morning with seconds on the clock) in two timezones. Goal: >= 95% overall,
no group under 85%; the follow-up groups >= 95% each. `--misses` lists what went wrong.
Run: .venv/bin/python bench/offline_bench.py [--misses] [--group NAME] [--held-out]
"""

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.utterance_corpus import (  # noqa: E402
    CORPUS,
    FOLLOWUPS,
    FOLLOWUPS_HELD_OUT,
    HELD_OUT,
    load,
    problems,
    runs,
    where,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print every run that missed, and why")
    parser.add_argument("--group", help="only this group")
    parser.add_argument("--held-out", action="store_true", help="the sentences written after the rules were tuned")
    args = parser.parse_args()
    cases = load(HELD_OUT) + load(FOLLOWUPS_HELD_OUT) if args.held_out else load(CORPUS) + load(FOLLOWUPS)
    cases = [c for c in cases if args.group in (None, c.group)]
    total, passed = Counter[str](), Counter[str]()
    started = time.perf_counter()
    for case, clock in runs(cases):
        total[case.group] += 1
        found = problems(case, clock)
        if found:
            if args.misses:
                print(f"MISS [{case.group}] {case.say!r} at {where(clock)}: {'; '.join(found)}")
        else:
            passed[case.group] += 1
    elapsed = time.perf_counter() - started
    print(f"{'group':<18}{'cases':>6}{'runs':>6}{'pass':>8}")
    for group in sorted(total):
        count = sum(1 for c in cases if c.group == group)
        print(f"{group:<18}{count:>6}{total[group]:>6}{passed[group] / total[group]:>8.1%}")
    runs_count = sum(total.values())
    print(f"{'overall':<18}{len(cases):>6}{runs_count:>6}{sum(passed.values()) / runs_count:>8.1%}")
    print(f"{elapsed / runs_count * 1000:.1f} ms a reading")


if __name__ == "__main__":
    main()
