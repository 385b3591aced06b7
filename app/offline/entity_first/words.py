"""Words as the entry search compares them: each with where it was said, and a key that is the same for every
form of it ("called", "calling" and "call" are "call"; "bills" is "bill"; "twenty" is "20")."""

import re
from dataclasses import dataclass
from functools import lru_cache

from lemminflect import getAllLemmas

from app.domain.spoken_numbers import CARDINALS

# Spoken numbers past twelve that a title may hold as digits ("Read for 20 minutes").
_MORE_NUMBERS = {
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100,
}  # fmt: skip
_NUMBERS = {word: str(n) for word, n in (CARDINALS | _MORE_NUMBERS).items()}
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# Words that never tell one entry from another.
UNMEANING = frozenset(
    """
    a an the my our your his her their its this that these those to of for on in at by with from and or but so
    is are was were be been being am it i me we you he she they them him us please about some any up as just
    also too really very again now then there here do does did done have has had got get will would can could
    should shall must may might let let's i'm i've i'll i'd we're we've we'll it's that's there's what's
    one thing stuff bit lot loads actually already still yet anyway instead maybe oh um uh so well okay ok
    hey alright right yeah yes no not don't didn't doesn't isn't aren't wasn't haven't hasn't can't won't
    """.split()
)


@dataclass(frozen=True)
class Word:
    said: str
    start: int
    end: int
    key: str  # the same for every form of the word

    @property
    def meaningful(self) -> bool:
        return self.said.lower() not in UNMEANING and self.key not in UNMEANING


@lru_cache(maxsize=8192)
def word_key(word: str) -> str:
    """One form for every form of `word`: its number, or its base form (a verb's first, then a noun's)."""
    lowered = word.lower().replace("’", "'")
    lowered = lowered.removesuffix("'s").removesuffix("s'") if len(lowered) > 3 else lowered
    if lowered in _NUMBERS:
        return _NUMBERS[lowered]
    lemmas = getAllLemmas(lowered)
    for kind in ("VERB", "NOUN", "ADJ", "PROPN"):
        if kind in lemmas:
            return str(lemmas[kind][0]).lower()
    return lowered


def words_of(text: str) -> list[Word]:
    return [
        Word(found.group(0), found.start(), found.end(), word_key(found.group(0))) for found in _WORD.finditer(text)
    ]


def keys_of(text: str) -> frozenset[str]:
    """The meaningful keys of `text` ("Read for 20 minutes" -> {"read", "20", "minute"})."""
    return frozenset(word.key for word in words_of(text) if word.meaningful)


def warm() -> None:
    """Load the English word tables now (about 0.2 s), so the first utterance read does not wait for them."""
    word_key("called")
