"""Finding the open entry a spoken phrase means ("milk" -> "Buy milk"), or saying why not.

Both sides are normalised to meaningful words (lower case, no stop words, plurals and -ing folded).
A phrase word counts as found in an entry when present there or spelled nearly alike (speech
recognition slips: "dentest"). Most of the phrase's words must be found (MIN_OVERLAP), so "milk"
matches "Buy milk" but never "Call mom", and "call mom's doctor" is not "Call mom"; the score is
then the mean of that share and rapidfuzz's token-set similarity.

The best entry must reach MATCH_THRESHOLD and beat the runner-up by AMBIGUITY_MARGIN; otherwise
nothing is touched and the error names the candidates, so the user can say which.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from app.domain.actions import Cause
from app.domain.enums import FailureKind, Status
from app.domain.summaries import clipped
from app.offline.vocabulary import STOP_WORDS
from app.store.models import Entry

MATCH_THRESHOLD = 70.0
AMBIGUITY_MARGIN = 5.0
MIN_OVERLAP = 0.7  # most of what was said must be found: "call mom's doctor" is not "Call mom"
WORD_SIMILARITY = 80.0  # fuzz.ratio for two spellings of one word
_FUZZY_MIN_LENGTH = 4  # shorter words must match exactly: "cat" is not a slip of "car"
_MAX_CANDIDATES_NAMED = 4
MAX_PHRASE_WORDS = 20  # an entry is named in a few words; more is not a reference to one
_MAX_SHOWN = 60
# Words that say what kind of thing an entry is, not which: "the vet appointment" is "Take the cat to the vet".
_KIND_WORDS = frozenset({"appointment", "appt", "task", "reminder", "thing", "errand", "todo", "item", "entry"})
_OPEN = (Status.ACTIVE, Status.SNOOZED)


def _folded(word: str) -> str:
    """Crude plural and verb-form folding ("flights" -> "flight", "booking" -> "book"), applied
    alike to both sides, so only consistency matters, not correct English."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "oes")):
        return word[:-2]
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def meaningful_words(text: str) -> tuple[str, ...]:
    """Lowercase words without stop words, forms folded ("the eggs" -> ("egg",))."""
    words = re.findall(r"[^\W_]+(?:'[^\W_]+)?", text.lower())
    return tuple(_folded(w.removesuffix("'s")) for w in words if w not in STOP_WORDS and w.removesuffix("'s"))


@dataclass(frozen=True)
class EntryMatch:
    """The entry found, or `error` saying why there is none (no match, or several alike)."""

    entry: Entry | None
    error: str | None = None
    candidates: tuple[Entry, ...] = ()  # when ambiguous: the entries it could be, best first
    item: str | None = None  # the one item of the entry's checklist it names (app/offline/items.py)
    cause: Cause = Cause()  # why there is none, as data


def _shown(phrase: str) -> str:
    """The phrase as said, for a message: trimmed, and cut short if long."""
    phrase = phrase.strip(" ,.!?;:'\"")
    return clipped(phrase, _MAX_SHOWN)


def _no_match(shown: str) -> EntryMatch:
    return EntryMatch(None, f"no open entry matches '{shown}'", cause=Cause(FailureKind.NOT_FOUND, shown))


def _label(entry: Entry) -> str:
    return f"'{entry.summary}' ({entry.id[:6]})"


def _names(entries: Sequence[Entry]) -> str:
    """Candidates as "'A' (3fa1b2) or 'B' (9c0d1e)", at most a few of them."""
    labels = [_label(e) for e in entries[:_MAX_CANDIDATES_NAMED]]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


class EntryIndex:
    """The open entries' normalised words, computed once per utterance and searched per clause."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self._entries = [e for e in entries if e.status in _OPEN]
        self._words = [(meaningful_words(e.summary), meaningful_words(e.content)) for e in self._entries]

    def find(self, phrase: str) -> EntryMatch:
        words = tuple(dict.fromkeys(meaningful_words(phrase)))  # unique, in the order said
        shown = _shown(phrase) or "that"
        if not words:
            return EntryMatch(None, f"'{shown}' does not say which entry; name it (e.g. 'the milk')")
        if len(words) > MAX_PHRASE_WORDS:  # a ramble, not a name: no need to score it
            return _no_match(shown)
        scored: list[tuple[float, bool, Entry]] = []
        for entry, texts in zip(self._entries, self._words, strict=True):
            score = max(_score(words, entry_words) for entry_words in texts)
            if score >= MATCH_THRESHOLD:
                scored.append((score, any(set(words) == set(entry_words) for entry_words in texts), entry))
        if not scored:
            return _no_match(shown)
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        named_exactly = [entry for _, is_exact, entry in scored if is_exact]
        if len(named_exactly) == 1:  # "buy milk" means "Buy milk", not "Buy oat milk"
            return EntryMatch(named_exactly[0])
        best = scored[0][0]
        close = [entry for score, _, entry in scored if best - score < AMBIGUITY_MARGIN]
        if len(close) > 1:
            error = f"'{shown}' is ambiguous: it could be {_names(close)}; say which"
            cause = Cause(FailureKind.AMBIGUOUS, shown, candidates=tuple(entry.summary for entry in close))
            return EntryMatch(None, error, tuple(close), cause=cause)
        return EntryMatch(close[0])


def _found(word: str, entry_words: tuple[str, ...]) -> tuple[str, float] | None:
    """The entry's word for `word` and how sure: itself (1.0), or a near spelling (its similarity).
    Only alphabetic words may be near: "item5" is not "item50"."""
    if word in entry_words:
        return word, 1.0
    if len(word) < _FUZZY_MIN_LENGTH or not word.isalpha():
        return None
    near = process.extractOne(word, entry_words, scorer=fuzz.ratio, score_cutoff=WORD_SIMILARITY)
    return None if near is None else (near[0], near[1] / 100)


def _score(said: tuple[str, ...], entry_words: tuple[str, ...]) -> float:
    words = tuple(word for word in said if word in entry_words or word not in _KIND_WORDS)
    if not entry_words or not words:
        return 0.0
    aligned = [_found(word, entry_words) for word in words]
    overlap = sum(found[1] for found in aligned if found is not None) / len(words)
    if overlap < MIN_OVERLAP:
        return 0.0
    # Compare with slips corrected, so "dentest" weighs as "dentist" in the token-set similarity too.
    spoken = " ".join(found[0] if found else word for found, word in zip(aligned, words, strict=True))
    similarity = fuzz.token_set_ratio(spoken, " ".join(entry_words))
    return (similarity + 100 * overlap) / 2
