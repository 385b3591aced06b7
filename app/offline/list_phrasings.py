"""How a list's items are spoken of: taken back ("I still need the coffee beans", "I haven't packed the charger
yet", "put the cheddar back on"), taken off ("we don't need napkins anymore", "take the rice off the list"), and
clauses that name their list or their things apart ("for the hardware shop, add wall plugs", "we're out of bin
bags, stick them on the shopping list").

Each phrasing gives the item's words in group `x`; items.py finds the item on a list, so a phrasing that names no
item of an open list is read as before (a new entry, or a change to an entry).
"""

import re
from dataclasses import dataclass

from app.offline.cues import ADD_VERBS
from app.offline.vocabulary import TASK_VERBS

UNTICK = "untick"
REMOVE = "remove"


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_WE = r"(?:i|we)"
_AFTER_ALL = r"(?:\s+(?:anymore|any\s+more|after\s+all|actually|now|either|yet|again|then))*"
# "... off the list", "... from my packing list", "... on the shopping list": the list, if named (items.py reads it).
_OF_LIST = r"(?:\s+(?:on|onto|to|off|from)(?:\s+(?:the|my|our)\s+[\w' -]+?)?)?"
_NOT_DONE = r"(?:haven't|have\s+not|havent|didn't|did\s+not|never)\s+(?:actually\s+|really\s+|even\s+)?"
_UNDONE = r"(?:isn't|is\s+not|wasn't|aren't|are\s+not|weren't)\s+(?:actually\s+)?(?:done|packed|bought|got|ticked)"
_NO_NEED = r"(?:don't|do\s+not|no\s+longer|won't)\s+(?:need|want)\s+(?:to\s+(?:get|buy|pack|bring|order|take)\s+)?"
_PHRASINGS = (
    (UNTICK, _p(rf"^{_WE}\s+(?:still|do|actually|really)\s+(?:still\s+)?need\s+(?P<x>.+?){_AFTER_ALL}$")),
    (UNTICK, _p(rf"^{_WE}\s+need\s+(?P<x>.+?)\s+again{_AFTER_ALL}$")),
    (UNTICK, _p(rf"^{_WE}\s+{_NOT_DONE}\w+(?:\s+up)?\s+(?P<x>.+?){_AFTER_ALL}$")),
    (UNTICK, _p(rf"^(?:put|add|stick)\s+(?P<x>.+?)\s+back{_OF_LIST}{_AFTER_ALL}$")),
    (UNTICK, _p(rf"^(?:untick|un-tick|uncheck|un-check)\s+(?P<x>.+?){_OF_LIST}$")),
    (UNTICK, _p(rf"^(?P<x>.+?)\s+{_UNDONE}{_AFTER_ALL}$")),
    (REMOVE, _p(rf"^{_WE}\s+{_NO_NEED}(?P<x>.+?){_AFTER_ALL}$")),
    (REMOVE, _p(rf"^take\s+(?P<x>.+?)\s+(?:off|out){_OF_LIST}{_AFTER_ALL}$")),
)
# "not the sugar actually": one thing just added taken back (only on the list the last utterance changed).
TAKEN_BACK = _p(r"^(?:no\s+)?not\s+(?:the\s+)?(?P<x>.+?)(?:\s+actually)?$")


@dataclass(frozen=True)
class ItemPhrase:
    kind: str  # UNTICK or REMOVE
    said: str  # the item's words


def item_phrases(clause: str) -> list[ItemPhrase]:
    """The changes to an item `clause` may ask for, by its phrasing alone: of the whole clause, then of its words
    before a reason given after a comma ("I don't need to get Dad a book anymore, he bought it himself")."""
    said = clause.rstrip(" .!")
    wordings = [said, said.split(",", 1)[0]] if "," in said else [said]
    return [
        ItemPhrase(kind, found.group("x"))
        for wording in wordings
        for kind, pattern in _PHRASINGS
        if (found := pattern.match(wording))
    ]


# One more thing said alone after a list was changed ("oh and butter"): a thing of a few words, no verb.
_MORE = _p(r"^(?:(?:and|also|plus)\s+)?(?:some\s+|a\s+|an\s+)?(?P<items>[\w'-]+(?:\s+[\w'-]+){0,2})$")
_REACTIONS = frozenset(
    "great good cool nice perfect thanks cheers lovely brilliant awesome done ok okay yes no".split()
)
_POINTING = frozenset("it that this them those these me you".split())  # "missed that" names no thing


def more_items(clause: str) -> str | None:
    """The things of a clause that only names one or two more things ("butter", "and vanilla"); None otherwise."""
    found = _MORE.match(clause.strip(" .!"))
    if found is None or not (words := found.group("items").lower().split()):
        return None
    if words[0] in TASK_VERBS or words[0] in _REACTIONS or words[-1] in _REACTIONS or _POINTING & set(words):
        return None
    return found.group("items")


# A lead naming the list, then what to add ("for the hardware shop, add wall plugs").
_FOR_LIST = _p(r"^(?:and\s+)?(?:for|on)\s+(?P<name>(?:the|my|our)\s+[\w' -]+)$")
_ADDING = _p(rf"^{ADD_VERBS}\s+(?P<items>.+)$")
# Things named, then a clause that acts on them by a pronoun ("they were out of cheddar, put it back on").
_THINGS = _p(
    r"^(?:(?:oh|so|well|ok|okay)\s+)*(?:(?:we're|we\s+are|we\s+were|i'm|i\s+am|they\s+were|they're|they\s+are"
    r"|(?:we|i)(?:'ve|\s+have)?\s+(?:run|ran))\s+out\s+of"
    rf"|{_WE}\s+(?:don't|do\s+not|no\s+longer|won't)\s+need)\s+(?P<x>.+?){_AFTER_ALL}$"
)
_ACTING_ON = _p(rf"^(?:{ADD_VERBS}|take|cross|tick)\s+(?P<it>them|it|those|these|that)\b")


def _joined(before: str, clause: str) -> str | None:
    """The two clauses as one when the second finishes the first; None when each stands alone."""
    if (lead := _FOR_LIST.match(before)) and (adding := _ADDING.match(clause)):
        return f"add {adding.group('items')} to {lead.group('name')}"
    if (things := _THINGS.match(before)) and (acting := _ACTING_ON.match(clause)):
        return f"{clause[: acting.start('it')]}{things.group('x')}{clause[acting.end('it') :]}"
    return None


def joined_list_clauses(clauses: list[str]) -> list[str]:
    """The clauses with each that only names a list or things joined to the next that acts on them."""
    result: list[str] = []
    for clause in clauses:
        if result and (joined := _joined(result[-1], clause)) is not None:
            result[-1] = joined
        else:
            result.append(clause)
    return result
