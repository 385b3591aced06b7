"""Finding the open list a spoken name means ("the shopping list", "my Lisbon packing", "the hardware shop"),
by the list's name: the title's words, or the head of an older title that repeats its items ("Shopping list:
eggs, milk" is named "Shopping list"). Words count when spelled nearly alike, as speech slips.

Both ways must mostly hold: most of the words said are in the name, and most of the name's words were said, so
"the shopping list" is the list called "Shopping list" and not a todo titled "Ad blocker to the shopping list".
"""

import re
from collections.abc import Sequence

from rapidfuzz import fuzz, process

from app.domain.checklist import list_name
from app.domain.enums import Category
from app.offline.matching import WORD_SIMILARITY, meaningful_words
from app.store.models import Entry

# The words that name a list, folded as the entries' words are ("groceries" is "grocery", "packing" "pack").
SHOPPING = frozenset(meaningful_words("shopping shop groceries food"))
# "Buy eggs and bread" is a shopping list, "Pack the passport and charger" a packing one.
ERRANDS = {"buy": SHOPPING, "pack": frozenset(meaningful_words("packing"))}
# Words that say what kind of list, not which, when another word says which: "the hardware list" is "Hardware
# shop" and "Hardware store" (matched as said: folded, "shopping" would be "shop" too).
_KIND = re.compile(r"\b(?:list|lists|shop|store)\b", re.IGNORECASE)
ENOUGH = 0.5  # the share of said words found in the name, and of the name's words said, for it to be named


def said_words(name: str) -> frozenset[str]:
    """The words of a list's name that say which list: "my Lisbon packing list" is {"lisbon", "pack"}, "the
    hardware shop" {"hardware"}, "the shop list" {"shop"}."""
    return frozenset(meaningful_words(_KIND.sub(" ", name))) or frozenset(meaningful_words(name)) - {"list"}


def _found(word: str, words: frozenset[str]) -> bool:
    if word in words:
        return True
    return (
        word.isalpha()
        and len(word) > 3
        and bool(process.extractOne(word, words, scorer=fuzz.ratio, score_cutoff=WORD_SIMILARITY))
    )


def _fit(said: frozenset[str], name: frozenset[str]) -> float:
    """How well `said` names a list called `name`: the shares found each way, summed; 0 when either is short."""
    if not said or not name:
        return 0.0
    shop = SHOPPING if said & SHOPPING and name & SHOPPING else frozenset()  # "groceries" names "Shopping list"
    said_share = sum(_found(w, name) or w in shop for w in said) / len(said)
    name_share = sum(_found(w, said) or w in shop for w in name) / len(name)
    return said_share + name_share if min(said_share, name_share) >= ENOUGH else 0.0


def _errand_fit(said: frozenset[str], entry: Entry) -> float:
    """ "the shopping list" for "Buy eggs and bread": an errand of items, named by its kind, below any name."""
    words = meaningful_words(entry.summary)
    lead = words[0] if words else ""
    return ENOUGH if lead in ERRANDS and said & ERRANDS[lead] else 0.0


def lists_named(name: str, lists: Sequence[Entry]) -> list[Entry]:
    """The lists `name` names, best first: the closest name, then a list made as one, then the newest."""
    said = said_words(name)
    scored = []
    for entry in lists:
        fit = _fit(said, said_words(list_name(entry.summary))) or _errand_fit(said, entry)
        if fit:
            scored.append((fit, entry.category is Category.LIST, entry.created_at, entry))
    scored.sort(key=lambda found: found[:3], reverse=True)
    return [found[3] for found in scored]
