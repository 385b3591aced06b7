"""The offline interpreter's pass rate on everyday speech, per group of tests/data/offline_utterances.toml
and of the follow-ups to a kept list (tests/data/followups/).

Each case is read at fixed nows (a Monday morning, a Friday night, New Year's Eve 23:30, Feb 28 of a
leap year; some on a Thursday morning with seconds on the clock) in two timezones. Goal: >= 95% overall,
no group under 85%; the follow-up groups >= 95% each. `--blind`: the follow-ups written by someone who never read
the rules (goal: >= 90% right, and a miss asks or changes nothing rather than changing something wrong). Each
miss counts as wrong (it created or changed something) or safe. `--misses` lists what went wrong.
Run: .venv/bin/python bench/offline_bench.py [--misses] [--group NAME] [--held-out | --blind]
"""

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.time_phrase_sweep import KINDS, sweep  # noqa: E402
from tests.support.utterance_corpus import (  # noqa: E402
    BLIND,
    CORPUS,
    FOLLOWUPS,
    FOLLOWUPS_HELD_OUT,
    HELD_OUT,
    changed_something,
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
    parser.add_argument("--blind", action="store_true", help="the follow-ups written without reading the rules")
    args = parser.parse_args()
    cases = load(HELD_OUT) + load(FOLLOWUPS_HELD_OUT) if args.held_out else load(CORPUS) + load(FOLLOWUPS)
    cases = load(BLIND) if args.blind else cases
    cases = [c for c in cases if args.group in (None, c.group)]
    total, passed, wrong = Counter[str](), Counter[str](), Counter[str]()
    started = time.perf_counter()
    for case, clock in runs(cases):
        total[case.group] += 1
        found = problems(case, clock)
        if found:
            wrong[case.group] += changed_something(case, clock)
            if args.misses:
                print(f"MISS [{case.group}] {case.say!r} at {where(clock)}: {'; '.join(found)}")
        else:
            passed[case.group] += 1
    elapsed = time.perf_counter() - started
    print(f"{'group':<18}{'cases':>6}{'runs':>6}{'pass':>8}{'wrong':>8}{'safe':>8}")
    for group in sorted(total):
        count = sum(1 for c in cases if c.group == group)
        print(f"{group:<18}{count:>6}{total[group]:>6}" + _shares(total[group], passed[group], wrong[group]))
    runs_count = sum(total.values())
    print(
        f"{'overall':<18}{len(cases):>6}{runs_count:>6}"
        + _shares(runs_count, sum(passed.values()), sum(wrong.values()))
    )
    print(f"{elapsed / runs_count * 1000:.1f} ms a reading")
    if args.blind:
        _time_phrase_sweep()


def _time_phrase_sweep() -> None:
    """The time phrases read at every hour, as the unit test reads them: readings that break a rule (goal 0)."""
    readings = broken = 0
    for kind in KINDS:
        for _, rules in sweep(kind, full=False):
            readings, broken = readings + 1, broken + bool(rules)
    print(f"time phrases at every hour: {broken} of {readings} readings break a rule (bench/date_sweep_bench.py)")


def _shares(runs: int, passed: int, wrong: int) -> str:
    """Right, wrong (a miss that created or changed something) and safe (a miss that asked or changed nothing)."""
    return f"{passed / runs:>8.1%}{wrong / runs:>8.1%}{(runs - passed - wrong) / runs:>8.1%}"


if __name__ == "__main__":
    main()
