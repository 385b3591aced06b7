"""The open entry a new one looks like without being it, named in the result so the user can merge the two:
"call the dentist" next to "Dentist appointment", "buy a new phone charger" next to "Phone charger", "oven timer 21"
next to "Oven timer 1".

Only the same task looks alike: the thing acted on is in the entry, and a verb opening both is the same ("order a
cake for my brother's birthday" is not the note "My brother's birthday is May 5", nor "Call the plumber" "Email the
plumber"). Words are compared in their base form ("leaking" is "leak"), and only those that name something: words
everybody says ("a", "the", "new", "needs", "said") or the verb a task opens with ("buy") never make two entries
alike, so "buy a new phone charger" is not "The plumber said the boiler needs a new pressure valve".
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.domain.enums import Status
from app.offline.entity_first.words import keys_of, word_key
from app.offline.vocabulary import TASK_VERBS
from app.store.models import Entry

RESEMBLANCE = 0.5  # the share of a new entry's naming words an open one must have to look like it
# Words, in their base form, that describe or tell rather than name: shared, they say nothing of the thing.
_PLAIN_WORDS = frozenset(
    """
    new old young big small little large huge tiny long short good bad great nice fine better best worse worst
    more less most least many much few lot other another same different next last first second own whole extra
    real right wrong proper usual main
    need want say tell think know like go come see look keep try
    """.split()
)
# Where the thing a task acts on ends: "a card" of "get a card for my brother's birthday".
_QUALIFIER = re.compile(r"\b(?:for|on|before|by|with|to|at|in|from|about|after|until|till)\b", re.IGNORECASE)
_OPEN = (Status.ACTIVE, Status.SNOOZED)


def _verb(text: str) -> str | None:
    """The base form of the task verb `text` opens with ("call" of "Call the plumber"), if any."""
    first = text.split(" ", 1)[0].lower()
    return word_key(first) if first in TASK_VERBS else None


@dataclass(frozen=True)
class _Words:
    naming: frozenset[str]  # the base forms of the words that name something, the first included
    verb: str | None  # the task verb it opens with, if any

    def beside(self, said: frozenset[str]) -> tuple[frozenset[str], str | None]:
        """Its naming words but its verb, and its verb, beside a new entry that names things by `said`: a first
        word the new entry names a thing by is a thing here too ("Phone charger" beside "buy a new phone charger")."""
        verb = None if self.verb in said else self.verb
        return self.naming - {verb}, verb


def _words(text: str) -> _Words:
    return _Words(keys_of(text) - _PLAIN_WORDS, _verb(text))


class LookAlikes:
    """The open entries' naming words, made once per utterance and searched for each new entry."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self._entries = [(entry, _words(entry.summary)) for entry in entries if entry.status in _OPEN]

    def of(self, summary: str) -> Entry | None:
        """The open entry the new one with `summary` looks most like (the shortest of equals), if any does."""
        new = _words(summary)
        said = new.naming - {new.verb}
        if not said:
            return None
        acted_on = _words(_QUALIFIER.split(summary, maxsplit=1)[0]).naming & said or said  # "for ..." first: all
        scored: list[tuple[float, int, Entry]] = []
        for entry, words in self._entries:
            named, verb = words.beside(said)
            if acted_on & named and new.verb in (None, verb or new.verb):  # a verb said on both sides is the same
                scored.append((len(said & named) / len(said), -len(named), entry))
        best = max(scored, key=lambda item: item[:2], default=None)
        return best[2] if best is not None and best[0] >= RESEMBLANCE else None
