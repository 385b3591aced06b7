"""Words as a question and an entry are compared: each word with its English base forms, so "cleaned" finds
"Window cleaning", "emails" finds "Email the landlord" and "renewed" finds "Renew the insurance"."""

import re
from collections.abc import Collection, Iterable
from functools import cache, lru_cache

from lemminflect import getAllLemmas, getAllLemmasOOV, getInflection
from rapidfuzz import fuzz, process

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


@lru_cache(maxsize=4096)  # an entry's words are the same from one question to the next
def content_words(text: str) -> tuple[Forms, ...]:
    """The forms of each word of `text` that says something (no stop words)."""
    words = (w.removesuffix("'s") for w in _WORD.findall(text.lower()))
    return tuple(dict.fromkeys(forms(w) for w in words if w and w not in STOP_WORDS))


def all_forms(words: Iterable[Forms]) -> frozenset[str]:
    return frozenset().union(*words)


def with_slips(said: Forms, vocabulary: Collection[str]) -> Forms:
    """The word's forms, and the words of `vocabulary` spelled nearly alike to one of them (a slip of the
    recogniser, or of spelling)."""
    candidates = [word for word in vocabulary if len(word) >= _FUZZY_MIN_LENGTH]
    alike = (
        found
        for form in said
        if len(form) >= _FUZZY_MIN_LENGTH
        for found, _, _ in process.extract(form, candidates, scorer=fuzz.ratio, score_cutoff=_SPELLED_ALIKE, limit=None)
    )
    return said.union(alike)
