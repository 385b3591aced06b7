"""Words as a question and an entry are compared: each word with its English base forms, so "cleaned" finds
"Window cleaning", "emails" finds "Email the landlord" and "renewed" finds "Renew the insurance"."""

import re
from collections.abc import Iterable
from functools import cache

from lemminflect import getAllLemmas, getAllLemmasOOV, getInflection
from rapidfuzz import fuzz

from app.offline.vocabulary import STOP_WORDS

Forms = frozenset[str]

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_SPELLED_ALIKE = 85.0  # fuzz.ratio for one word heard two ways ("colour", "color")
_FUZZY_MIN_LENGTH = 5  # shorter words must share a form: "cat" is not a slip of "car"


@cache
def forms(word: str) -> Forms:
    """The word and its base forms: "games" -> {"games", "game"}, "paid" -> {"paid", "pay"}."""
    word = word.removesuffix("'s")
    lemmas = getAllLemmas(word) or getAllLemmasOOV(word, "NOUN")
    return frozenset({word}.union(*lemmas.values()))


def participle(word: str) -> bool:
    """A past participle other than the verb itself: "paid", "booked", "called"."""
    lemmas = getAllLemmas(word).get("VERB", ())
    return any(word in getInflection(lemma, "VBN") and word != lemma for lemma in lemmas)


def content_words(text: str, dropped: Iterable[str] = ()) -> tuple[Forms, ...]:
    """The forms of each word of `text` that says something (no stop words, none of `dropped`)."""
    skip = STOP_WORDS.union(dropped)
    words = (w.removesuffix("'s") for w in _WORD.findall(text.lower()))
    return tuple(dict.fromkeys(forms(w) for w in words if w and w not in skip))


def same_word(said: Forms, other: Forms) -> bool:
    """One word, in any of its forms, or spelled nearly alike."""
    if said & other:
        return True
    return any(
        fuzz.ratio(a, b) >= _SPELLED_ALIKE for a in said for b in other if min(len(a), len(b)) >= _FUZZY_MIN_LENGTH
    )


def found_in(said: Forms, words: Iterable[Forms]) -> bool:
    return any(same_word(said, word) for word in words)
