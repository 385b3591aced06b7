"""Whatever the text, the interpreter answers, never raises, and never changes an entry (how fast it answers:
bench/robustness_bench.py)."""

import random

import pytest

from app.domain.actions import CreateAction, ParseResult
from app.offline import OfflineInterpreter
from app.offline.creating import SUMMARY_WORDS
from tests.support.odd_texts import ODD, five_thousand_words
from tests.support.offline_entries import ENTRIES, interpret


def test_name() -> None:
    assert OfflineInterpreter.name == "offline"


@pytest.mark.parametrize("text", ["", " ", "   \n\t  ", "\n\n"])
def test_empty_text_gives_nothing(text: str) -> None:
    assert interpret(text) == ParseResult([], [])


@pytest.mark.parametrize(
    "text",
    ["um", "uh... hmm", "...", "?!?!", "and and and", ", , ,", "okay so", "urgent", "tomorrow", "the", "🙂🙂"],
)
def test_filler_and_lone_cues_give_nothing(text: str) -> None:
    assert interpret(text) == ParseResult([], [])


@pytest.mark.parametrize("text", ODD, ids=[repr(t[:20]) for t in ODD])
def test_odd_text_never_raises_and_fails_cleanly(text: str) -> None:
    result = interpret(text)  # how fast: bench/robustness_bench.py
    assert not any("could not read" in f.error for f in result.failures)  # the safety net stayed unused


def test_five_thousand_words_are_read_in_full() -> None:
    text = five_thousand_words()
    result = interpret(text)  # how fast: bench/robustness_bench.py
    assert len(result.actions) > 100 and not any("could not read" in f.error for f in result.failures)


def test_random_text_never_raises() -> None:
    rng = random.Random(20261122)
    vocabulary = (
        "buy milk and call mom tomorrow is done remind me to urgent every morning what snooze archive until "
        "friday for 2 days mark as check off never mind scratch that p3 add to the shopping list , . ? ! ; -"
    ).split()
    for _ in range(150):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 30)))
        result = interpret(text)
        assert not any("could not read" in f.error for f in result.failures), text
        for action in result.actions:
            if isinstance(action, CreateAction):
                assert action.content and 0 < len(action.summary.rstrip("…").split()) <= SUMMARY_WORDS, text


def test_entries_are_only_read() -> None:
    before = [e.model_dump() for e in ENTRIES]
    interpret("milk is done. archive the passport. snooze the dentist. buy milk tomorrow. urgent pay the bill")
    assert [e.model_dump() for e in ENTRIES] == before
