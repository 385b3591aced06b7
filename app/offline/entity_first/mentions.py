"""Which open entry a clause names, and where: its words found among the clause's in any form and order ("I
finished reading for twenty minutes" names "Read for 20 minutes"), weighed by how well each word tells that entry
from the others (a word on many entries says little, a verb less than a thing). A name shared by several entries
alike is said as such, so the reader can ask which one was meant."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from lemminflect import getAllLemmas
from rapidfuzz import fuzz

from app.domain.enums import Status
from app.offline.entity_first.words import Word, keys_of, words_of
from app.offline.vocabulary import TASK_VERBS
from app.store.models import Entry

_OPEN = (Status.ACTIVE, Status.SNOOZED)
# The task verbs are written in their base form already: their keys without asking lemminflect at every start.
_VERBS = frozenset(TASK_VERBS) | {"go", "see", "have", "do", "get", "make", "take"}
# A verb's particle says how, never which ("out" of "Sort out the loft" is not "the bins out"): weighed as verbs.
_PARTICLES = frozenset("out up in off back away down over through".split())
# Words that say what kind of thing an entry is, not which: "the appointment" fits every appointment.
_KINDS = frozenset(
    "appointment appt booking reminder task todo list errand meeting session call thing item entry job".split()
)
VERB_WEIGHT = 0.35
KIND_WEIGHT = 0.3
NAMED = 0.5  # the share of an entry's weighted words that names it
NAMED_BY_ONE = 0.3  # or less, when a word said belongs to that entry alone
CLOSE = 0.12  # two entries named this nearly alike: the clause could mean either
SLIP = 86.0  # fuzz.ratio for a recognizer's slip of one long word ("dentest")
_SLIP_LENGTH = 5


@dataclass(frozen=True)
class Mention:
    entry: Entry
    share: float  # of the entry's weighted words, said
    said: tuple[Word, ...]  # the clause's words that name it, in order

    @property
    def start(self) -> int:
        return self.said[0].start

    @property
    def end(self) -> int:
        return self.said[-1].end


@dataclass(frozen=True)
class Mentions:
    named: tuple[Mention, ...]  # the entries the clause names, best first (several: it could mean any)
    loose: tuple[Mention, ...]  # entries it only touches on (a shared word), to offer when asking

    @property
    def one(self) -> Mention | None:
        return self.named[0] if len(self.named) == 1 else None


class EntryWords:
    """The open entries' keys and how much each tells them apart, made once per utterance."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries = [entry for entry in entries if entry.status in _OPEN]
        self._keys = {entry.id: keys_of(entry.summary) for entry in self.entries}
        # What each entry acts on: its words but the verb it opens with ("run" of "Go for a run" is a thing).
        self._things = {
            entry.id: self._keys[entry.id] - {verb_of(entry)} - _PARTICLES - _KINDS for entry in self.entries
        }
        self._spread = Counter(key for keys in self._keys.values() for key in keys)
        self._all_keys = frozenset(self._spread)

    def weight(self, entry: Entry, key: str) -> float:
        """How much `key` tells `entry` apart: a thing it acts on more than its verb, a rare word more than one
        many entries share."""
        kind = 1.0 if key in self._things[entry.id] else KIND_WEIGHT if key in _KINDS else VERB_WEIGHT
        return kind / max(1, self._spread[key])

    def shares_a_word(self, words: Sequence[Word]) -> bool:
        """Whether any word said is any open entry's (in any form; a slip of one long word counts too)."""
        return any(word.meaningful and _in(word.key, self._all_keys) for word in words)

    def find(self, words: Sequence[Word]) -> Mentions:
        said = [word for word in words if word.meaningful]
        found = [
            mention
            for entry in self.entries
            if (mention := self._mention(entry, said)) is not None and not self._another_thing(mention, words)
        ]
        found.sort(key=lambda mention: mention.share, reverse=True)
        named = [m for m in found if self._names(m)]
        best = named[0].share if named else 0.0
        close = tuple(m for m in named if best - m.share < CLOSE)
        return Mentions(_widest_first(close), tuple(m for m in found if m not in close))

    def _mention(self, entry: Entry, said: Sequence[Word]) -> Mention | None:
        keys = self._keys[entry.id]
        matched = [word for word in said if _in(word.key, keys)]
        if not {_match(word.key, keys) for word in matched} & self._things[entry.id]:
            return None
        total = sum(self.weight(entry, key) for key in keys)
        got = sum(self.weight(entry, key) for key in {_match(word.key, keys) for word in matched})
        return Mention(entry, got / total if total else 0.0, tuple(matched))

    def _another_thing(self, mention: Mention, words: Sequence[Word]) -> bool:
        """Another thing of the entry's kind: a word said right before one of the entry's that is not its own
        ("the lab report" is not "Finish the quarterly report", "oat milk" not "Buy milk"), or a thing said that
        the entry lacks while it has one not said ("lunch with the investors" is not "Lunch with Anna")."""
        keys, things = self._keys[mention.entry.id], self._things[mention.entry.id]
        unsaid = things - {_match(word.key, keys) for word in mention.said} - _VERBS
        extra = [
            w for w in words if w.meaningful and w not in mention.said and _only_a_thing(w) and not _in(w.key, keys)
        ]
        if unsaid and extra:
            return True
        return any(
            word in mention.said
            and _match(word.key, keys) in things
            and before not in mention.said
            and before.end + 1 == word.start
            and _modifies(before)
            and not _in(before.key, keys)
            for before, word in zip(words, words[1:], strict=False)
        )

    def _names(self, mention: Mention) -> bool:
        keys = self._keys[mention.entry.id]
        things = self._things[mention.entry.id]
        alone = any(self._spread[key] == 1 for word in mention.said if (key := _match(word.key, keys)) in things)
        return mention.share >= NAMED or (alone and mention.share >= NAMED_BY_ONE)


# Nouns that say who or how, never which entry ("the boiler guy", "same time", "high priority").
_NOT_THINGS = frozenset(
    "guy man woman lady people person someone they time day week month year priority name title list way rush "
    "bit lot loads idea sorry thanks".split()
)


def _only_a_thing(word: Word) -> bool:
    """A word that can only name a thing (a noun, not a verb or a word of how) and names one that matters."""
    kinds = set(getAllLemmas(word.said.lower()))
    return bool(kinds & {"NOUN", "PROPN"}) and not kinds & {"VERB", "ADJ", "ADV"} and word.key not in _NOT_THINGS


def verb_of(entry: Entry) -> str | None:
    """The task verb an entry's title opens with ("call" of "Call mum"), if any."""
    first = next(iter(words_of(entry.summary)), None)
    return first.key if first is not None and first.key in _VERBS else None


def _modifies(word: Word) -> bool:
    """A word that can say which thing of a kind ("lab" report, "oat" milk, "quarterly" report)."""
    if not word.meaningful or word.key in _VERBS | _PARTICLES | _KINDS or word.key.isdigit():
        return False
    kinds = set(getAllLemmas(word.said.lower()))
    return not kinds or bool(kinds & {"NOUN", "PROPN", "ADJ"})


def _widest_first(mentions: tuple[Mention, ...]) -> tuple[Mention, ...]:
    """Of entries named alike, the one more of whose words were said first ("oat milk" over "milk")."""
    return tuple(sorted(mentions, key=lambda m: (len(m.said), m.share), reverse=True))


def _match(key: str, keys: frozenset[str]) -> str:
    if key in keys:
        return key
    near = [k for k in keys if len(k) >= _SLIP_LENGTH and fuzz.ratio(key, k) >= SLIP]
    return near[0] if near else key


def _in(key: str, keys: frozenset[str]) -> bool:
    return key in keys or (len(key) >= _SLIP_LENGTH and key.isalpha() and _match(key, keys) != key)
