"""Checklist items in what was said: one item of a list ticked ("milk is done", "I packed the charger"), taken
back ("I still need the coffee beans"), taken off ("take bananas off the shopping list"), items added to a list
("add butter to the shopping list"), and the items of a new list ("buy eggs, bread and milk").

A list is found by its name (list_names.py). An entry said by its own words wins over an item of a list ("milk is
done" with "Buy milk" listed completes "Buy milk"); a phrase that names a list as a whole ("the shopping list is
done", "delete the shopping list") is about the list; one of its things never archives the whole list.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from app.domain.actions import Cause, CreateAction, UpdateAction, by_its_name
from app.domain.checklist import ChecklistItem, derived_items, find_item, items_of, split_items
from app.domain.enums import Category, FailureKind, Status
from app.offline.cues import ADD_VERBS, LIST_ADD, TODO_LISTS
from app.offline.list_names import lists_named
from app.offline.list_phrasings import REMOVE, TAKEN_BACK, UNTICK, item_phrases, more_items
from app.offline.matching import EntryMatch, meaningful_words
from app.offline.vocabulary import TASK_VERBS
from app.store.models import Entry

_OPEN = (Status.ACTIVE, Status.SNOOZED)
_ItemFits = Callable[[ChecklistItem], bool]  # which items a phrase may name: open ones for a tick, ticked to untick
# "off the shopping list", "from my packing list", "on the hardware list": the list an item is on.
_ON_LIST = re.compile(
    r"\b(?:off|from|on|onto|to)\s+(?:the|my|our)\s+(?P<name>(?:[\w'-]+\s+){0,2}?)list\b", re.IGNORECASE
)
# "add butter to the groceries", "add flip flops to my Lisbon packing": a list named without "list".
_ADD_TO = re.compile(
    rf"\b{ADD_VERBS}\s+(?P<items>.+?)\s+(?:to|on|onto|in|into)\s+(?:the|my|our)\s+(?P<name>[\w'-]+(?:\s+[\w'-]+){{0,2}})$",
    re.IGNORECASE,
)
_A_LIST = re.compile(r"^(?:the|my|our)\s+(?P<name>(?:[\w'-]+\s+){1,2}?)list$", re.IGNORECASE)  # "the shopping list"
# When a thing was done, said after it: "bought the lego today", "got the eggs this morning".
_WHEN_DONE = re.compile(
    r"(?:\s+(?:today|yesterday|earlier|just now|this (?:morning|afternoon|evening)|last night|at last|finally))+$",
    re.IGNORECASE,
)
# A title said whole: capitalised at both ends, with only capitals and small words between ("Tomorrow and
# Tomorrow and Tomorrow", "Klara and the Sun"): one book or film, not things to split on "and".
_TITLE = re.compile(r"^[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|and|the|of|a|an|in|on|to|for|at|with))*\s+[A-Z][\w'-]*$")


def _bare_words(text: str) -> frozenset[str]:
    """The words that name a thing, verbs aside: "Buy milk" and "the milk" are both {"milk"}."""
    return frozenset(meaningful_words(text)) - TASK_VERBS


def spoken_items(phrase: str) -> tuple[str, ...]:
    """The things a spoken phrase adds: each of a spoken list ("crackers and grapes"), or one title said whole."""
    phrase = phrase.strip(" .!?,")
    return (phrase,) if "," not in phrase and _TITLE.match(phrase) else split_items(phrase)


def _reason(clause: str) -> str:
    return f'User said: "{clause}"'


def _any(item: ChecklistItem) -> bool:
    return True


def _open_only(item: ChecklistItem) -> bool:
    return not item.done


def _ticked(item: ChecklistItem) -> bool:
    return item.done


class Checklists:
    """The open entries and their items (stored, or read from their summaries), for one utterance; `touched`: the
    entries the utterance before changed, whose list a correction ("not the sugar") is about."""

    def __init__(self, entries: Sequence[Entry], touched: Sequence[str] = ()) -> None:
        self._open = [entry for entry in entries if entry.status in _OPEN]
        self._items = {entry.id: items_of(entry.summary, entry.items) for entry in self._open}
        self._lists = [entry for entry in self._open if self._items[entry.id] or entry.category is Category.LIST]
        self._touched = [entry for entry in self._lists if entry.id in touched]

    def resolve(self, match: EntryMatch, target: Sequence[str], clause: str) -> EntryMatch:
        """What a completing phrase means once items count: an item of the list it matched, an item of a list
        the entry match missed or found ambiguous, or `match` as it was (an entry said by its own words)."""
        target = _with_when_cut(target)
        if match.entry is not None and self._items[match.entry.id]:
            return self._item_match(match.entry, target) or match
        if match.entry is None and (named_list := _A_LIST.match(target[0])):  # "Buy eggs and bread", by its kind
            lists = self._named(named_list.group("name"))
            return EntryMatch(lists[0]) if lists else match
        item = self._one_item(self._lists_named(clause) or self._lists, target, _open_only)
        if item is None:
            return match
        candidates = [match.entry] if match.entry is not None else list(match.candidates)
        named = [c for c in candidates if any(_bare_words(c.summary) == _bare_words(w) for w in target)]
        if named:  # "Buy milk", said as "milk": the entry, not the milk of a list
            return EntryMatch(named[0]) if len(named) == 1 else match
        return item

    def removal(self, match: EntryMatch, target: Sequence[str], clause: str) -> EntryMatch:
        """What an archiving phrase means once items count: an item of the list named or matched ("take bananas
        off the shopping list", "scratch the eggs"), or `match` as it was (an entry, or a list said as a whole)."""
        if named := self._lists_named(clause):
            return self._one_item(named, target, _any) or _not_on(named[0], target[0])
        if match.entry is not None:
            return (self._item_match(match.entry, target) or match) if self._items[match.entry.id] else match
        return self._first_item(self._where(clause), target, _any) or match

    def _where(self, clause: str) -> list[list[Entry]]:
        """The lists to look for an item on, in turn: those the clause names; else the list just changed, then all."""
        if named := self._lists_named(clause):
            return [named]
        return [self._touched, self._lists] if self._touched else [self._lists]

    def _first_item(
        self, where: Sequence[Sequence[Entry]], target: Sequence[str], fits: _ItemFits
    ) -> EntryMatch | None:
        return next((found for lists in where if (found := self._one_item(lists, target, fits))), None)

    def _one_item(self, lists: Sequence[Entry], target: Sequence[str], fits: _ItemFits) -> EntryMatch | None:
        """The one item a wording names among `lists` (those `fits` allows)."""
        for wording in target:
            found = [m for entry in lists if (m := self._item_match(entry, (wording,), fits))]
            if len(found) == 1:
                return found[0]
        return None

    def _item_match(self, entry: Entry, target: Sequence[str], fits: _ItemFits = _any) -> EntryMatch | None:
        items = self._items[entry.id]
        for wording in target:
            index = find_item(items, wording)
            if index is not None and fits(items[index]):
                return EntryMatch(entry, item=items[index].text)
        return None

    def _lists_named(self, clause: str) -> list[Entry]:
        found = _ON_LIST.search(clause)
        return self._named(found.group("name")) if found else []

    def _named(self, name: str) -> list[Entry]:
        return lists_named(name, self._lists)

    def item_change(self, clause: str) -> UpdateAction | None:
        """An item taken back ("I still need the coffee beans") or taken off ("we don't need napkins anymore"),
        when the words name one item of an open list; None otherwise (read as before)."""
        where = self._where(clause)
        for phrase in item_phrases(clause):
            said = (phrase.said,)
            if phrase.kind == UNTICK and (found := self._first_item(where, said, _ticked)):
                return _unticked(found, clause)
            # Taken off: the thing still to get, else one done ("we don't need napkins" ticked already).
            if phrase.kind == REMOVE and (
                found := self._first_item(where, said, _open_only) or self._first_item(where, said, _any)
            ):
                return removed(found, clause)
        taken_back = TAKEN_BACK.match(clause)
        if taken_back is not None and (found := self._one_item(self._touched, (taken_back.group("x"),), _any)):
            return removed(found, clause)
        return None

    def addition(self, clause: str) -> UpdateAction | None:
        """ "add butter to the shopping list": the items for the open list it names; None when no list is
        named or none is open (a new list is made instead)."""
        found = LIST_ADD.search(clause) or _ADD_TO.search(clause)
        if found is None and len(self._touched) == 1 and (more := more_items(clause)):  # "oh and butter"
            return UpdateAction(self._touched[0].id, {"add_items": spoken_items(more)}, reason=_reason(clause))
        if found is None or found.group("name").strip().lower() in TODO_LISTS:
            return None
        lists = self._named(found.group("name"))
        texts = spoken_items(found.group("items"))
        if not lists or not texts:
            return None
        return UpdateAction(lists[0].id, {"add_items": texts}, reason=_reason(clause))


def _with_when_cut(target: Sequence[str]) -> tuple[str, ...]:
    """Each wording, then each without when it was done said after it ("Lily's lego today")."""
    cut = [without for wording in target if (without := _WHEN_DONE.sub("", wording)) != wording and without]
    return (*target, *cut)


def _not_on(entry: Entry, said: str) -> EntryMatch:
    return EntryMatch(None, f"'{said}' is not on '{entry.summary}'", cause=Cause(FailureKind.NOT_FOUND, said))


def _unticked(found: EntryMatch, clause: str) -> UpdateAction:
    assert found.entry is not None and found.item is not None
    return UpdateAction(found.entry.id, {"untick_item": found.item}, reason=_reason(clause))


def removed(found: EntryMatch, clause: str) -> UpdateAction:
    """The item `found` names taken off its list."""
    assert found.entry is not None and found.item is not None
    return UpdateAction(found.entry.id, {"remove_items": (found.item,)}, reason=_reason(clause))


def with_items(create: CreateAction) -> CreateAction:
    """A new entry with the items its summary names: "Buy eggs, bread and milk", or the list "Packing list" of
    "Packing list: passport"."""
    if (named := by_its_name(create)) is not create:
        return named
    items: Sequence[ChecklistItem] = derived_items(create.summary)
    return replace(create, items=tuple(item.text for item in items)) if items else create
