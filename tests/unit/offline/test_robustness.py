"""Whatever the text, the interpreter answers quickly, never raises, and never changes an entry."""

import random
import time

import pytest

from app.domain.actions import CreateAction, ParseResult
from app.offline import OfflineInterpreter
from app.offline.creating import SUMMARY_WORDS
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


ODD = [
    "x" * 100_000,
    "!" * 5_000 + "buy milk" + "," * 5_000,
    " and " * 2_000,
    "is done " * 500,
    "snooze " + "to the " * 1_000 + "until friday",
    "mark as done",
    "\x00\x01\x02 buy \x7f milk",
    "中文 买牛奶 🙂 and call mom",
    "in 99999999999999 years call mom",
    "remind me to",
    "'; DROP TABLE entries; --",
    "P9 priority 0 call mom",
]


@pytest.mark.parametrize("text", ODD, ids=[repr(t[:20]) for t in ODD])
def test_odd_text_never_raises_and_fails_cleanly(text: str) -> None:
    started = time.perf_counter()
    result = interpret(text)
    assert time.perf_counter() - started < 5
    assert not any("could not read" in f.error for f in result.failures)  # the safety net stayed unused


def test_five_thousand_words_finish_fast() -> None:
    words = (
        "buy more coffee filters and call the garage about the winter tyres. milk is done, also remind me to "
        "water the ferns every morning. urgent: pay rent on the 1st and then snooze the dentist until friday. "
    ).split()
    text = " ".join(words[i % len(words)] for i in range(5_000))
    started = time.perf_counter()
    result = interpret(text)
    elapsed = time.perf_counter() - started
    assert elapsed < 10, f"{elapsed:.1f}s"
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
