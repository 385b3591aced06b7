"""Which kind of question about the list a question is, by its wording, and the words naming what it asks
about: a list's items, whether something is done, every entry of a sort, or what a note says."""

import re
from dataclasses import dataclass
from enum import Enum

from app.offline.answers.asking import Question
from app.offline.answers.words import participle


class Kind(Enum):
    CONTENTS = "contents"  # "what's on my packing list": the list's open items
    PROGRESS = "progress"  # "did I book the flights", "is the rent paid": done, not yet, or not listed
    SEARCH = "search"  # "which emails do I still have to send": every open entry its words name
    RECALL = "recall"  # "what's the wifi password again": what the note says


@dataclass(frozen=True)
class Reading:
    kind: Kind
    subject: str  # the words that name what is asked about
    about_list: bool  # asked of the user's own list: "nothing on your list" is an answer


# "on my shopping list"; "on my to-do list" is the whole list, asked about as "what's on my list" is.
_NAMED_LIST = re.compile(
    r"\b(?:on|in)\s+(?:my|the|our)\s+(?!(?:to-?do|task)\s+list)(?P<name>(?:[\w'-]+\s+){1,3})list\b"
)
_NEEDED_FROM = re.compile(r"\bneed\s+(?:to\s+(?:get|buy|pick\s+up)\s+)?(?:from|at)\s+(?:the\s+)?(?P<name>.+)$")
_ASKS_CONTENTS = re.compile(r"^(?:what|anything|any|show me|tell me|give me)\b")
# "is the rent paid": the state asked about, cut so the rest names the entry.
_DONE_STATE = re.compile(
    r"\s+(?:all\s+)?(?:done|finished|complete|completed|sorted(?:\s+out)?|handled|taken\s+care\s+of|dealt\s+with"
    r"|(?:ticked|crossed|checked)\s+off|paid|booked|sent|ordered|bought|renewed|submitted|cancell?ed|fixed)"
    r"(?:\s+(?:yet|already|now|then))?$"
)
# "did I write down", "did I say": asking what was kept, not whether something was done.
_DID_RECALL = re.compile(r"^(?:what\s+)?did\s+(?:i|we)\s+(?:write|note|jot|put|save|say|add|decide|call\s+it)\b")
_RECALL = re.compile(r"^what(?:'s|\s+is|\s+was|\s+were|\s+are|'re)\b")
_RECALL_WORDS = frozenset(
    "write wrote written down note noted jot jotted save saved say said idea thought had about".split()
)
# "anyone", "which": asking for every entry of a sort, not one.
_INDEFINITE_WORDS = frozenset(
    "anyone anybody anything anywhere someone somebody something any which else other".split()
)
_INDEFINITE = re.compile(r"\b(?:" + "|".join(sorted(_INDEFINITE_WORDS - {"else", "other"})) + r")\b")
_SORT_ASKED = re.compile(r"^(?:which|what)\s+[\w'-]+\s+(?:do|did|have|should|must|can)\s+(?:i|we)\b")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|me|my|mine|we|we're|we've|our|us)\b")
_HOW_SOON = frozenset("already ever actually yet now then".split())
# Words saying a thing is done, not which thing: "have I finished the packing list" asks about the packing list.
_STATE_WORDS = frozenset(
    "done finished complete completed sorted handled dealt taken care ticked crossed off out all".split()
)
_GOT = frozenset({"got", "gotten", "been"})  # "have I got the dentist tomorrow" asks whether it is on the list


def _asks_done(question: Question) -> bool:
    """ "did I book the flights", "have I renewed the insurance", "is the rent paid", "are the tiles fixed"."""
    if question.opener.startswith("did"):
        return not _DID_RECALL.match(question.text)
    words = question.text.split()
    if question.opener.startswith("have"):
        rest = [word for word in words[2:] if word not in _HOW_SOON]
        return bool(rest) and rest[0] not in _GOT and participle(rest[0])
    last = [word for word in words if word not in _HOW_SOON][-1]
    return question.opener in ("is", "are") and (bool(_DONE_STATE.search(question.text)) or participle(last))


def _named_list(question: Question) -> str | None:
    if not _ASKS_CONTENTS.match(question.text):
        return None
    found = _NAMED_LIST.search(question.text) or _NEEDED_FROM.search(question.text)
    return found["name"].strip() if found else None


def _without(subject: str, dropped: frozenset[str]) -> str:
    return " ".join(word for word in subject.split() if word not in dropped)


def read_kind(question: Question, said: str) -> Reading | None:
    """The kind of `question` (the period it names was `said`), or None for one asking when ("when's my
    haircut") or about the world."""
    mine = bool(_FIRST_PERSON.search(question.text))
    subject = question.words_left(said, naming_entry=True)
    if (name := _named_list(question)) is not None:
        return Reading(Kind.CONTENTS, name, mine)
    if _asks_done(question):
        # "is the museum closed" is about the world unless the list has a museum
        about_list = mine or bool(_DONE_STATE.search(question.text))
        return Reading(Kind.PROGRESS, _without(subject, _STATE_WORDS), about_list)
    asks_when = question.opener.endswith(("time", "day", "date"))  # "which day do I see Anna"
    if mine and not asks_when and (_INDEFINITE.search(question.text) or _SORT_ASKED.match(question.text)):
        return Reading(Kind.SEARCH, _without(subject, _INDEFINITE_WORDS), mine)
    if _RECALL.match(question.text) or _DID_RECALL.match(question.text):
        return Reading(Kind.RECALL, _without(subject, _RECALL_WORDS), mine)
    return None
