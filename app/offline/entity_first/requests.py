"""What the words around an entry's name ask of it: a move (a day, a time, a span), done (said as done, or in
the past tense), cancelled, a priority, or a new title. Read by kind, not by phrasing: "the slides can wait till
friday", "can we do the dentist on friday instead" and "the vet moved Biscuit's appointment to monday at 4" are
each a due said beside the entry; "rang the bank", "the milk's been bought" and "went for a run" each a verb in
the past tense."""

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from lemminflect import getAllInflections, getAllLemmas

from app.domain.clock import Clock
from app.domain.dates import DuePhrase, find_due_phrase, spoken_to_digits
from app.domain.spoken_numbers import CARDINALS


class Asks(Enum):
    MOVE = "move"
    COMPLETE = "complete"
    ARCHIVE = "archive"
    PRIORITY = "priority"
    RENAME = "rename"


@dataclass(frozen=True)
class Request:
    asks: Asks
    when: str | None = None  # a move: the day or time said
    shift: str | None = None  # a move: how far ("a week", "-2 hours")
    priority: int | None = None
    title: str | None = None  # a rename: the new title
    replace: tuple[str, str] | None = None  # a rename: (the words said wrong, the right ones)


_NOT = r"(?:not|never|n't|no longer)"
_CANCEL = re.compile(
    r"\b(?:cancel(?:l?ed|l?ing)?|call(?:ed)?\s+off|delete|remove|scrap(?:ped)?|drop\s+(?:it|that)|forget\s+(?:about\s+)?"
    r"|get\s+rid\s+of|(?:don't|do\s+not|no\s+longer)\s+need|no\s+need|(?:isn't|is\s+not|not)\s+happening"
    r"|don't\s+bother|off\s+the\s+list|never\s?mind)\b",
    re.IGNORECASE,
)
_PRIORITIES = (
    (3, re.compile(r"\b(?:normal|medium|regular|usual)\s+priority\b", re.I)),
    (
        5,
        re.compile(
            r"\b(?:low(?:est)?\s+priority|no\s+rush|not\s+urgent|not\s+(?:that\s+)?important|low\s+prio)\b", re.I
        ),
    ),
    (1, re.compile(r"\b(?:urgent|top\s+priority|high(?:est)?\s+priority|important|asap|critical|high\s+prio)\b", re.I)),
)
_DONE = re.compile(
    r"\b(?:done|finished|completed?|sorted|handled|taken\s+care\s+of|ticked?\s+(?:that\s+|it\s+)?off"
    r"|(?:tick|check|cross)\s+(?:that|it)\s+off|out\s+of\s+the\s+way)\b",
    re.IGNORECASE,
)
# "the bins are out", "the washing's in": the particle of the task said as its state.
_STATE = re.compile(
    r"(?:\b(?:is|are|was|were)|'s|'re)\s+(?:all\s+|now\s+)?(?P<particle>out|in|up|off|back|away)\b", re.I
)
# Verbs that move a due: in the past tense they say it was moved, not that the task is done.
_MOVING = frozenset(
    "move push reschedule postpone delay shift bump change put defer rebook switch bring want come aim wait".split()
)
_NOT_YET = re.compile(rf"\b(?:{_NOT}|haven't|hasn't|didn't|yet)\b", re.IGNORECASE)
_AHEAD = re.compile(
    r"\b(?:i'll|we'll|i\s+will|we\s+will|going\s+to|gonna|need\s+to|have\s+to|has\s+to|should|must|let's|can\s+we"
    r"|could\s+we|want\s+to|will)\b",
    re.IGNORECASE,
)
_AMOUNT = r"\d+|a|an|one|a\s+couple\s+of|a\s+couple|a\s+few|" + "|".join(CARDINALS)
_SHIFT = re.compile(
    rf"\b(?:(?P<back>back|forward|out)\s+)?(?:by\s+)?(?P<amount>{_AMOUNT})\s+(?P<unit>minute|hour|day|week|month)s?"
    r"(?:\s+(?P<way>later|earlier|back|forward))?\b",
    re.IGNORECASE,
)
# "A, not B" / "not B, A" / "it's A, not B": the right words and the wrong ones.
_NOT_THIS = re.compile(
    r"^(?P<right>[^,]+?),?\s+not\s+(?P<wrong>[^,]+)$|^not\s+(?P<wrong2>[^,]+),\s*(?P<right2>[^,]+)$", re.I
)
RENAMING = re.compile(
    r"^(?:rename|retitle|re-?name)\s+(?P<old>.+?)\s+(?:to|as)\s+(?P<new>.+)$"
    r"|^(?:change|correct|fix)\s+(?P<old2>.+?)\s+to\s+(?P<new2>.+)$",
    re.IGNORECASE,
)


def read_request(clause: str, rest: str, title: str, clock: Clock, verb: str | None = None) -> Request | None:
    """What `clause` asks of the entry called `title` (opening with `verb`); `rest`: the clause without the entry's
    words."""
    if (renamed := _renamed(clause, title, clock)) is not None:
        return renamed
    if _cancels(rest):
        return Request(Asks.ARCHIVE)
    for level, pattern in _PRIORITIES:
        if pattern.search(clause):
            return Request(Asks.PRIORITY, priority=level)
    if (shift := _shift(rest)) is not None:
        return Request(Asks.MOVE, shift=shift)
    if hour := _BARE_HOUR.match(clause.strip(" ,.!")):  # "make it ten", "8pm not 7pm": a time for the same day
        return Request(Asks.MOVE, when=spoken_to_digits(f"at {hour['time']}"))
    if part := _PART_OF_DAY.search(rest):  # "change it to the afternoon": that part of the same day
        return Request(Asks.MOVE, when=f"{getattr(clock.calendar, part['part'].lower()):%H:%M}")
    due = _said_due(rest, clock)
    past = _done_by_the_user(clause)
    if _DONE.search(rest) and not _negated(rest, _DONE):
        return Request(Asks.COMPLETE)
    if _does_the_task(past, verb) and not _NOT_YET.search(clause) and not _AHEAD.search(clause):
        return Request(Asks.COMPLETE)
    if (state := _STATE.search(clause)) and state["particle"].lower() in title.lower().split():
        return Request(Asks.COMPLETE)
    if due is not None and due.moment > clock.now:
        return Request(Asks.MOVE, when=due.text)
    return None


_BARE_HOUR = re.compile(
    r"^(?:(?:make|change|move|set)\s+(?:it|that)\s+(?:to\s+)?)?(?:i\s+meant?\s+)?(?:at\s+)?"
    rf"(?P<time>\d{{1,2}}(?::\d\d)?\s*(?:am|pm)?|{'|'.join(CARDINALS)}|noon|midnight|half\s+\w+|quarter\s+(?:past|to)\s+\w+)"
    r"(?:\s+(?:o'?clock|instead|then|please))*(?:[\s,]+not\s+\S+)?$",
    re.IGNORECASE,
)
_PART_OF_DAY = re.compile(
    r"^(?:(?:change|move|make|switch)\s+(?:it|that)\s+)?(?:to\s+)?(?:the\s+)?(?P<part>morning|afternoon|evening)$", re.I
)
_DENIED = re.compile(r"(?:\b(?:not|no\s+longer|instead\s+of)|n't\s+(?:do|make))\s+$", re.IGNORECASE)


def _said_due(text: str, clock: Clock) -> DuePhrase | None:
    """The due said last that is not denied: "can't do wednesday anymore, make it thursday" is thursday."""
    found: DuePhrase | None = None
    while (due := find_due_phrase(text, clock)) is not None:
        at = text.lower().find(due.text.lower())
        if at < 0:
            break
        if not _DENIED.search(text[:at]):
            found = due
        text = f"{text[:at]} {' ' * len(due.text)} {text[at + len(due.text) :]}"
    return found


def _negated(text: str, pattern: re.Pattern[str]) -> bool:
    found = pattern.search(text)
    return found is not None and bool(re.search(rf"{_NOT}\s+(?:\w+\s+)?$", text[: found.start()], re.I))


def _cancels(rest: str) -> bool:
    """A cancelling word not itself denied ("I'm not cancelling the gym, delete that" still deletes)."""
    return any(
        not re.search(rf"{_NOT}\s+(?:\w+\s+)?$", rest[: found.start()], re.I) for found in _CANCEL.finditer(rest)
    )


def _shift(rest: str) -> str | None:
    """How far a span said moves the due, as `shift_length` reads it ("a couple of hours later": "a couple of
    hour"; "a day earlier": "-a day")."""
    found = _SHIFT.search(rest)
    if found is None or not (found["back"] or found["way"] or re.search(r"\b(?:push|put|move|bump)", rest, re.I)):
        return None
    earlier = (found["way"] or "").lower() in ("earlier", "forward") or (found["back"] or "").lower() == "forward"
    amount = " ".join(found["amount"].lower().split())
    return f"{'-' if earlier else ''}{amount} {found['unit'].lower()}"


# Who did it: the user ("rang the bank", "I've finally booked it") or the task itself ("the milk's been bought").
_BY_THE_USER = re.compile(
    r"(?:^|\b(?:i|we)(?:'ve|'d|\s+have|\s+had)?\s+|\b(?:is|are|was|were|been|got|gets|'s|'re)\s+|\band\s+)"
    r"(?:(?:just|finally|already|also|actually|now|all|eventually)\s+)*$",
    re.IGNORECASE,
)
# Verbs that do one another's task: "rang the bank" does "Call the bank".
_SAME_TASK = (
    frozenset("call ring phone".split()),
    frozenset("buy get pick grab purchase collect fetch".split()),
    frozenset("return drop bring take send post".split()),
    frozenset("email mail message text write reply".split()),
    frozenset("clean tidy hoover vacuum wash".split()),
    frozenset("book reserve schedule arrange".split()),
    frozenset("fix repair mend".split()),
    frozenset("go visit attend".split()),
    frozenset("pay settle".split()),
)
# Verbs that finish any task ("sorted the insurance", "did my reading").
_ANY_TASK = frozenset("do finish complete sort handle manage get".split())


def _does_the_task(past: frozenset[str], verb: str | None) -> bool:
    """A verb the user said in the past tense does the task opening with `verb` (any, when it has none)."""
    past = past - _MOVING
    if not past:
        return False
    if verb is None or past & (_ANY_TASK | {verb}):
        return True
    return any(past & group and verb in group for group in _SAME_TASK)


def _done_by_the_user(text: str) -> frozenset[str]:
    """The base forms of the verbs said in the past tense of what the user did or of the task itself ("rang" ->
    "ring", "the milk's been bought" -> "buy"); not of anyone else's doing ("the dentist rang")."""
    return frozenset(
        base
        for found in re.finditer(r"[a-z]+", text.lower())
        if (base := _past_of(found.group(0))) and _BY_THE_USER.search(text[: found.start()].lower())
    )


def past_tense(word: str) -> bool:
    return _past_of(word.lower()) is not None


@lru_cache(maxsize=8192)
def _past_of(word: str) -> str | None:
    if len(word) < 3 or word in ("been", "was", "were", "had", "used"):
        return None
    bases = getAllLemmas(word).get("VERB", ())
    if word in bases:  # "feed", "read": a base form first, whatever else it may be
        return None
    for base in bases:
        forms = getAllInflections(base, upos="VERB")
        if base != word and word in forms.get("VBD", ()) + forms.get("VBN", ()):
            return str(base)
    return None


def _renamed(clause: str, title: str, clock: Clock) -> Request | None:
    if found := RENAMING.match(clause.strip(" .!?")):
        new = (found["new"] or found["new2"]).strip(" ,.")
        said_when = find_due_phrase(new, clock) or _PART_OF_DAY.search(new)
        if not said_when and not any(p.search(new) for _, p in _PRIORITIES):
            return Request(Asks.RENAME, title=new)
    if found := _NOT_THIS.match(clause.strip(" .!?")):
        wrong = _bare(found["wrong"] or found["wrong2"])
        right = _parallel(found["right"] or found["right2"], wrong)
        if right and wrong and wrong.lower() in title.lower() and find_due_phrase(wrong, clock) is None:
            return Request(Asks.RENAME, replace=(wrong, right))
    return None


_SHORT_RIGHT = 3  # words: "the dry cleaner's" is said whole; a longer phrase ends with what it puts right


_WHAT_IT_IS = re.compile(
    r"^(?:it's|it\s+is|that's|it\s+was)\s+(?:the\s+|my\s+|a\s+)?(?P<thing>.+?)(?:\s+(?:i|we|that|which|who|you)\b.*)?$",
    re.I,
)
_AFTER_LAST_LINK = re.compile(r".*\b(?:for|to|with|at|from|on|in|of)\s+(?P<tail>.+)$", re.IGNORECASE)


def _parallel(said: str, wrong: str) -> str:
    """The words that stand for `wrong`: "the birthday card is for Mila" puts "Mila" for "Maya", "it's the fiddle
    leaf fig I need to repot" puts "fiddle leaf fig" for "the monstera"."""
    right = _bare(said)
    if len(right.split()) <= _SHORT_RIGHT:
        return right
    if found := _WHAT_IT_IS.match(_TAIL.sub("", said.strip(" ,."))):
        return found["thing"]
    if (found := _AFTER_LAST_LINK.match(right)) and len(found["tail"].split()) <= _SHORT_RIGHT:
        return found["tail"]
    return " ".join(right.split()[-max(1, len(wrong.split())) :])


_LEAD = re.compile(r"^(?:(?:it's|it\s+is|it\s+was|that's|the\s+one\s+for|for|actually|i\s+mean)\s+)+", re.I)
_TAIL = re.compile(r"(?:\s+(?:actually|instead|then|i\s+mean|now))+$", re.I)


def _bare(words: str) -> str:
    """The words said for the title without their lead-in ("it's the dry cleaner's" -> "the dry cleaner's")."""
    words = _TAIL.sub("", _LEAD.sub("", words.strip(" ,.")))
    return re.sub(r"^(?:the|a|an|my)\s+", "", words.strip(" ,."), flags=re.I)
