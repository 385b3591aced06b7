"""A clause that makes a new entry: its card text, category, priority, cadence and due phrase.

The content is the clause without its lead-in and priority words, keeping the date ("Call the
dentist Thursday"); the summary also drops the date and cadence ("Call the dentist"). An entry
said again (same words as an open one) is refreshed with what is new instead of duplicated.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from app.domain.actions import CreateAction, UpdateAction
from app.domain.clock import Clock
from app.domain.dates import find_due_phrase
from app.domain.enums import Status
from app.domain.summaries import card_summary
from app.offline.cues import capitalised, cut_phrase, read_cadence, read_category, read_priority, tidy
from app.offline.matching import meaningful_words
from app.store.models import Entry

MENTIONED_AGAIN = "Mentioned again"
# dateparser reads "a 2" in "buy a 2 liter bottle" as a date; a bare number is not a due date.
_BARE_NUMBER = re.compile(r"^(?:a|an|the)?\s*\d+$", re.IGNORECASE)
_TIME_ONLY = re.compile(r"^(?:at|around)\s", re.IGNORECASE)


@dataclass(frozen=True)
class _Due:
    phrase: str
    moment: datetime | None


def _find_due(text: str, clock: Clock) -> _Due | None:
    found = find_due_phrase(text, clock.now, clock.tz)
    if found is None or _BARE_NUMBER.match(found[0].strip()):
        return None
    return _Due(found[0].strip(), found[1])


def read_create(clause: str, clock: Clock) -> CreateAction | None:
    """The entry `clause` describes; None when nothing meaningful is left (just "urgent", "tomorrow")."""
    priority, text = read_priority(clause)
    cadence = read_cadence(text)
    undated = cut_phrase(text, cadence.phrase) if cadence else text
    due = _find_due(undated, clock)
    bare = cut_phrase(undated, due.phrase) if due else undated
    cue = read_category(bare, has_cadence=cadence is not None, asked=clause.rstrip().endswith("?"))
    card = cue.rewrite(bare)
    if not meaningful_words(card):  # "remind me to", "idea:" and nothing after
        return None
    due_text = due.phrase if due else None
    if cadence and cadence.first_day and (due is None or _TIME_ONLY.match(due.phrase)):
        due_text = f"{cadence.first_day} {due_text}" if due_text else cadence.first_day  # "every monday at 9"
    return CreateAction(
        content=capitalised(cue.rewrite(text) or text),
        summary=card_summary(capitalised(tidy(card))),
        category=cue.category,
        source_text=clause,
        priority=priority,
        due_text=due_text,
        cadence=cadence.cadence if cadence else None,
    )


def _key(create: CreateAction) -> frozenset[str]:
    return frozenset(meaningful_words(create.summary))


def _plain(due_text: str) -> str:
    return re.sub(r"^(?:on|at|by|this)\s+", "", due_text.strip().lower())


def _same_moment(first: datetime | None, second: datetime | None) -> bool:
    if first is None or second is None or (first.tzinfo is None) != (second.tzinfo is None):
        return False
    return first == second


class OpenSummaries:
    """Active entries by their summary's words, to tell a new entry from one said again."""

    def __init__(self, entries: Sequence[Entry], clock: Clock) -> None:
        self._clock = clock
        self._by_words = {
            frozenset(meaningful_words(e.summary)): e for e in entries if e.status is Status.ACTIVE and e.summary
        }
        self._said: set[frozenset[str]] = set()  # creates of this utterance so far

    def refresh_or_create(self, create: CreateAction) -> CreateAction | UpdateAction | None:
        """The create itself; an update of the entry said again; or None when nothing is new."""
        words = _key(create)
        existing = self._by_words.get(words)
        if existing is None:
            if words in self._said:  # "buy milk ... buy milk" in one breath: one entry
                return None
            self._said.add(words)
            return create
        changes: dict[str, object] = {}
        if create.due_text and not self._same_due(existing, create.due_text):
            changes["due_date"] = create.due_text
        if create.priority is not None and create.priority != existing.priority:
            changes["priority"] = create.priority
        return UpdateAction(entry_id=existing.id, changes=changes, reason=MENTIONED_AGAIN) if changes else None

    def forget(self, create: CreateAction) -> None:
        """A create taken back ("scratch that") may be said again."""
        self._said.discard(_key(create))

    def _same_due(self, entry: Entry, due_text: str) -> bool:
        if _plain(entry.due_text or "") == _plain(due_text):  # "friday" was said before as "on friday"
            return True
        due = _find_due(due_text, self._clock)
        return due is not None and _same_moment(entry.due_at, due.moment)
