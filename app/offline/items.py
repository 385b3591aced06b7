"""Checklist items in what was said: one item of a list ticked ("milk is done", "I packed the charger"), items
added to a list ("add butter to the shopping list"), and the items of a new list ("buy eggs, bread and milk").

An entry said by its own words wins over an item of a list ("milk is done" with "Buy milk" listed completes
"Buy milk"); a phrase that names a list as a whole ("the shopping list is done") completes the list.
"""

import re
from collections.abc import Sequence
from dataclasses import replace

from app.domain.actions import CreateAction, UpdateAction, by_its_name
from app.domain.checklist import ChecklistItem, derived_items, find_item, items_of, split_items
from app.domain.enums import Category, Status
from app.offline.cues import LIST_ADD, TODO_LISTS
from app.offline.matching import EntryMatch, meaningful_words
from app.offline.vocabulary import TASK_VERBS
from app.store.models import Entry

_OPEN = (Status.ACTIVE, Status.SNOOZED)
# The words that name a list, folded as the entries' words are ("groceries" is "grocery", "packing" "pack").
_SHOPPING = frozenset(meaningful_words("shopping shop groceries food"))
_ERRANDS = {"buy": _SHOPPING, "pack": frozenset(meaningful_words("packing"))}  # "Buy eggs and bread" is a shopping list
# "off the shopping list", "from my packing list": the list a ticked item is on.
_ON_LIST = re.compile(r"\b(?:off|from|on)\s+(?:the|my|our)\s+(?P<name>(?:[\w'-]+\s+){0,2}?)list\b", re.IGNORECASE)
# "add butter to the groceries", "add wrapping paper to the party supplies": a list named without "list".
_ADD_TO = re.compile(
    r"\b(?:add|put)\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+(?:the|my|our)\s+(?P<name>[\w'-]+(?:\s+[\w'-]+){0,2})$",
    re.IGNORECASE,
)
_A_LIST = re.compile(r"^(?:the|my|our)\s+(?P<name>(?:[\w'-]+\s+){1,2}?)list$", re.IGNORECASE)  # "the shopping list"


def _bare_words(text: str) -> frozenset[str]:
    """The words that name a thing, verbs aside: "Buy milk" and "the milk" are both {"milk"}."""
    return frozenset(meaningful_words(text)) - TASK_VERBS


class Checklists:
    """The open entries and their items (stored, or read from their summaries), for one utterance."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self._open = [entry for entry in entries if entry.status in _OPEN]
        self._items = {entry.id: items_of(entry.summary, entry.items) for entry in self._open}

    def resolve(self, match: EntryMatch, target: Sequence[str], clause: str) -> EntryMatch:
        """What a completing phrase means once items count: an item of the list it matched, an item of a list
        the entry match missed or found ambiguous, or `match` as it was (an entry said by its own words)."""
        if match.entry is not None and self._items[match.entry.id]:
            return self._item_match(match.entry, target) or match
        if match.entry is None and (named_list := _A_LIST.match(target[0])):  # "Buy eggs and bread", by its kind
            lists = self._named(named_list.group("name"))
            return EntryMatch(lists[0]) if lists else match
        item = self._open_item(target, clause)
        if item is None:
            return match
        candidates = [match.entry] if match.entry is not None else list(match.candidates)
        named = [c for c in candidates if any(_bare_words(c.summary) == _bare_words(w) for w in target)]
        if named:  # "Buy milk", said as "milk": the entry, not the milk of a list
            return EntryMatch(named[0]) if len(named) == 1 else match
        return item

    def _open_item(self, target: Sequence[str], clause: str) -> EntryMatch | None:
        """The one unticked item a wording names among the lists the clause names (or all lists)."""
        lists = self._lists_named(clause) or [e for e in self._open if self._items[e.id]]
        for wording in target:
            found = [m for entry in lists if (m := self._item_match(entry, (wording,), open_only=True))]
            if len(found) == 1:
                return found[0]
        return None

    def _item_match(self, entry: Entry, target: Sequence[str], open_only: bool = False) -> EntryMatch | None:
        items = self._items[entry.id]
        for wording in target:
            index = find_item(items, wording)
            if index is not None and not (open_only and items[index].done):
                return EntryMatch(entry, item=items[index].text)
        return None

    def _lists_named(self, clause: str) -> list[Entry]:
        found = _ON_LIST.search(clause)
        return self._named(found.group("name")) if found else []

    def _named(self, name: str) -> list[Entry]:
        """The open lists `name` ("shopping", "packing", "reading") names, the one named "... list" first, then
        the newest: a list entry whose summary has those words, or an errand of items ("Buy eggs and bread")."""
        said = frozenset(meaningful_words(name)) - {"list"}
        if not said:
            return []
        found = [e for e in self._open if self._is_list(e) and self._names(e, said)]
        return sorted(found, key=lambda e: ("list" in meaningful_words(e.summary), e.created_at), reverse=True)

    def _is_list(self, entry: Entry) -> bool:
        return entry.category is Category.LIST or bool(self._items[entry.id])

    def _names(self, entry: Entry, said: frozenset[str]) -> bool:
        words = meaningful_words(entry.summary)
        if said <= set(words) or (said & _SHOPPING and set(words) & _SHOPPING and "list" in words):
            return True
        lead = words[0] if words else ""
        return bool(self._items[entry.id]) and lead in _ERRANDS and bool(said & _ERRANDS[lead])

    def addition(self, clause: str) -> UpdateAction | None:
        """ "add butter to the shopping list": the items for the open list it names; None when no list is
        named or none is open (a new list is made instead)."""
        found = LIST_ADD.search(clause) or _ADD_TO.search(clause)
        if found is None or found.group("name").strip().lower() in TODO_LISTS:
            return None
        lists = self._named(found.group("name"))
        texts = split_items(found.group("items"))
        if not lists or not texts:
            return None
        return UpdateAction(lists[0].id, {"add_items": texts}, reason=f'User said: "{clause}"')


def with_items(create: CreateAction) -> CreateAction:
    """A new entry with the items its summary names: "Buy eggs, bread and milk", or the list "Packing list" of
    "Packing list: passport"."""
    if (named := by_its_name(create)) is not create:
        return named
    items: Sequence[ChecklistItem] = derived_items(create.summary)
    return replace(create, items=tuple(item.text for item in items)) if items else create
