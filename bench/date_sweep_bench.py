"""Time phrases inside ordinary sentences ("feed the cat tonight at 11", "remind me to call grandma at 8 tomorrow
morning"), read by the offline rules at every hour (on the hour and at :55) of a week, months' and a year's ends
and the daylight-saving changes of Berlin and New York: how many readings break each rule. Goal: 0 for every
rule. `--misses` prints each broken reading; `--quick` reads the grid the unit test reads (tests/support/
time_phrase_sweep.py).
Run: .venv/bin/python bench/date_sweep_bench.py [--misses] [--quick] [--kind NAME]
"""

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.time_phrase_sweep import KINDS, RULES, sweep  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print every reading that broke a rule, and which")
    parser.add_argument("--quick", action="store_true", help="one day per hour, as the unit test reads")
    parser.add_argument("--kind", help="only the phrases of this kind (e.g. 'tonight at N')")
    args = parser.parse_args()
    kinds = [kind for kind in KINDS if args.kind in (None, kind.name)]
    broken, by_kind, readings = Counter[str](), Counter[str](), 0
    started = time.perf_counter()
    for kind in kinds:
        for reading, rules in sweep(kind, full=not args.quick):
            readings += 1
            broken.update(rules)
            by_kind[kind.name] += bool(rules)
            if rules and args.misses:
                print(f"MISS [{kind.name}] {reading}: {'; '.join(rules)}")
    elapsed = time.perf_counter() - started
    print(f"{readings} readings of {len(kinds)} kinds of time phrase")
    print(f"{'rule':<55}{'broken':>7}")
    for rule in RULES:
        print(f"{rule:<55}{broken[rule]:>7}")
    print(f"{'readings breaking any rule':<55}{sum(by_kind.values()):>7}")
    for name, count in sorted(by_kind.items()):
        if count:
            print(f"  {name:<53}{count:>7}")
    print(f"{elapsed / readings * 1000:.1f} ms a reading")


if __name__ == "__main__":
    main()
