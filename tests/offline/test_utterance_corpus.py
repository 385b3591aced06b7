"""The offline interpreter against everyday speech: the pass rate of each group of the corpus
(tests/data/offline_utterances.toml), of the sentences held out while the rules were tuned, and of the
follow-ups to a kept list (tests/data/followups/), at fixed nows in two timezones. `bench/offline_bench.py`
prints the same figures and every miss."""

from collections import defaultdict

import pytest

from tests.support.utterance_corpus import (
    CORPUS,
    FOLLOWUPS,
    FOLLOWUPS_HELD_OUT,
    HELD_OUT,
    Case,
    load,
    problems,
    runs,
    where,
)

OVERALL_GOAL = 0.95
GROUP_FLOOR = 0.85
FOLLOWUP_FLOOR = 0.95  # the second sentence must read as right as the first
CASES = load()
HELD_OUT_CASES = load(HELD_OUT)
FOLLOWUP_CASES = load(FOLLOWUPS)
FOLLOWUP_HELD_OUT_CASES = load(FOLLOWUPS_HELD_OUT)
Misses = dict[str, tuple[int, list[str]]]  # per group: the number of runs, and what went wrong in each miss


def _misses(cases: list[Case]) -> Misses:
    counts: dict[str, int] = defaultdict(int)
    missed: dict[str, list[str]] = defaultdict(list)
    for case, clock in runs(cases):
        counts[case.group] += 1
        if found := problems(case, clock):
            missed[case.group].append(f"{case.say!r} at {where(clock)}: {'; '.join(found)}")
    return {group: (count, missed[group]) for group, count in counts.items()}


# The sentences held out while the rules were tuned: an edit that breaks them mostly breaks the corpus too, which
# `make test-fast` keeps; `make test` reads both.
HELD_OUT_IS_SLOW = pytest.mark.slow


@pytest.fixture(
    scope="module", params=[CORPUS, pytest.param(HELD_OUT, marks=HELD_OUT_IS_SLOW)], ids=["corpus", "held-out"]
)
def misses(request: pytest.FixtureRequest) -> Misses:
    return _misses(CASES if request.param == CORPUS else HELD_OUT_CASES)


def test_the_corpus_is_big_and_varied() -> None:
    groups = {case.group for case in CASES}
    assert len(CASES) >= 150 and len(groups) >= 10
    assert len(FOLLOWUP_CASES) >= 80 and len({case.group for case in FOLLOWUP_CASES}) >= 6
    for cases in (
        CASES + HELD_OUT_CASES,
        FOLLOWUP_CASES + FOLLOWUP_HELD_OUT_CASES,
    ):  # a follow-up may be said again to another list
        said = [case.say.lower() for case in cases]
        assert len(set(said)) == len(said), "a sentence is in the corpus twice"


@pytest.mark.parametrize("group", sorted({case.group for case in FOLLOWUP_CASES}))
@pytest.mark.parametrize(
    "held_out", [False, pytest.param(True, marks=HELD_OUT_IS_SLOW)], ids=["follow-ups", "held-out"]
)
def test_each_follow_up_group_reads_right(group: str, held_out: bool) -> None:
    cases = FOLLOWUP_HELD_OUT_CASES if held_out else FOLLOWUP_CASES
    count, missed = _misses([case for case in cases if case.group == group])[group]
    assert (count - len(missed)) / count >= FOLLOWUP_FLOOR, "\n".join(missed)


@pytest.mark.parametrize("group", sorted({case.group for case in CASES}))
def test_each_group_passes_its_floor(group: str, misses: Misses) -> None:
    count, missed = misses[group]
    assert (count - len(missed)) / count >= GROUP_FLOOR, "\n".join(missed)


def test_overall_pass_rate(misses: Misses) -> None:
    total = sum(count for count, _ in misses.values())
    missed = [miss for _, group_misses in misses.values() for miss in group_misses]
    assert (total - len(missed)) / total >= OVERALL_GOAL, "\n".join(missed)
