"""Recognising a clause about an existing entry: complete, archive, reschedule, snooze, or take back the last one.

A move ("move X to friday", "push X back a week", "X is now due monday", "X on thursday instead")
changes the entry's due, as task apps mean it; a snooze ("snooze X until 6pm", "remind me about X
again in an hour") only hides it until then.

Each phrasing is a regular expression with the entry's phrase in group `x`. A *strict* phrasing
("milk is done", "the fence is painted", "archive X") fails clearly when no entry matches; a *loose* one
("I called mom", "remove the stain", "push the car to the garage") may just be news, and falls back to a create.
"""

import re
from dataclasses import dataclass

from app.domain.clock import Clock
from app.domain.dates import ENGLISH, find_due_phrase, resolve_due
from app.domain.enums import ActionKind
from app.offline.cues import cut_phrase

DEFAULT_SNOOZE = "tomorrow"
RETRACT = "retract"  # "scratch that": drop the previous action of this utterance
RESCHEDULE = "reschedule"  # a new due: an update of due_date

_DONE = r"(?:done|finished|complete|completed|sorted|taken care of|handled)"
_SUBJECT = r"(?:(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|already\s+|finally\s+)?)"
# The past tense said, and the verb an entry would use ("I called mom" may mean "Call mom").
_PAST_TO_VERB = {
    "called": "call", "paid": "pay", "sent": "send", "booked": "book", "emailed": "email", "texted": "text",
    "did": "do", "got": "get", "picked up": "pick up", "fixed": "fix", "cleaned": "clean", "returned": "return",
    "renewed": "renew", "submitted": "submit", "watered": "water", "fed": "feed", "walked": "walk",
    "ordered": "order", "wrote": "write", "scheduled": "schedule", "posted": "post", "mailed": "mail",
    "printed": "print", "signed": "sign", "washed": "wash", "took out": "take out", "bought": "buy",
    "finished": "finish", "completed": "complete", "took": "take", "filed": "file", "made": "make",
    "brought": "bring", "sold": "sell", "wrapped": "wrap", "repaired": "repair", "replaced": "replace",
    "packed": "pack",
}  # fmt: skip
_STRICT_PAST = ("bought", "finished", "completed")
_LOOSE_PAST = "|".join(re.escape(p) for p in _PAST_TO_VERB if p not in _STRICT_PAST)
# The participle of a task's verb, in "the fence is painted": news that the task is finished, whatever the verb.
_PARTICIPLE_TO_VERB = {
    past: verb for past, verb in _PAST_TO_VERB.items() if past not in ("did", "wrote", "took", "took out")
} | {
    "written": "write", "taken": "take", "taken out": "take out", "painted": "paint", "ironed": "iron",
    "mowed": "mow", "mown": "mow", "vacuumed": "vacuum", "hoovered": "hoover", "swept": "sweep", "mopped": "mop",
    "tidied": "tidy", "dusted": "dust", "cooked": "cook", "baked": "bake", "unpacked": "unpack", "installed": "install",
    "assembled": "assemble", "emptied": "empty", "collected": "collect", "delivered": "deliver", "shipped": "ship",
    "confirmed": "confirm", "reserved": "reserve", "trimmed": "trim", "weeded": "weed", "planted": "plant",
    "serviced": "service", "varnished": "varnish", "polished": "polish", "defrosted": "defrost", "folded": "fold",
    "charged": "charge", "cleared": "clear", "hung": "hang", "hung up": "hang up", "tidied up": "tidy up",
    "cleaned up": "clean up", "backed up": "back up", "topped up": "top up", "restocked": "restock",
    "recycled": "recycle", "registered": "register", "uploaded": "upload", "downloaded": "download",
    "answered": "answer", "replied to": "reply to", "handed in": "hand in", "dropped off": "drop off",
}  # fmt: skip
_PARTICIPLES = "|".join(re.escape(p) for p in sorted(_PARTICIPLE_TO_VERB, key=len, reverse=True))
_BASE_VERB = _PAST_TO_VERB | _PARTICIPLE_TO_VERB
# A tail like "... is done" that belongs to a sentence of its own, not to an entry's name.
_NOT_A_TARGET = re.compile(
    r"^(?:what|why|how|when|where|who|which|is|are|was|were|can|could|would|will|do|does|did|has|have"
    r"|i|we|you|get|let's|make sure)\b"
    r"|\b(?:need|needs|must|should|want|wants|remind|forget|hope|wonder|think|going to|gonna|to be)\b",
    re.IGNORECASE,
)
_LIST_SUFFIX = re.compile(r"\s+(?:from|off|on)\s+(?:the|my|our)\s+(?:[\w-]+\s+)?list$", re.IGNORECASE)
_TRAILING_WORDS = re.compile(r"(?:\s+(?:too|as well|already|now|for good|please|again|instead))+$", re.IGNORECASE)
_TARGETS_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*", re.IGNORECASE)
_UNTIL = re.compile(r"\s+(?P<sep>until|till|til|'til|to|for|by|into)\s+", re.IGNORECASE)
_HOW_LONG = (
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of)"
    r"\s+(?:minute|hour|day|week|month)s?"
)
_DURATION = re.compile(rf"^(?:by\s+)?{_HOW_LONG}\b", re.IGNORECASE)
# "push the report back a week", "delay signing the lease by a day": moved from its own due.
_SHIFT = re.compile(rf"\s+(?:back\s+|forward\s+|out\s+)?(?:by\s+)?(?P<shift>{_HOW_LONG})$", re.IGNORECASE)


@dataclass(frozen=True)
class Phrasing:
    kind: str  # an ActionKind value, or RETRACT
    pattern: re.Pattern[str]
    strict: bool
    tail: bool = False  # "X is done": guarded by _NOT_A_TARGET


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_COMPLETE, _ARCHIVE, _SNOOZE = ActionKind.COMPLETE.value, ActionKind.ARCHIVE.value, ActionKind.SNOOZE.value
_ASKING = r"(?:(?:can|could|would)\s+(?:you|we)\s+|shall\s+we\s+|please\s+|let's\s+|i\s+(?:need|want)\s+to\s+)?"
_MOVED = r"(?:moved|rescheduled|pushed(?:\s+back)?|postponed|changed|bumped|shifted|delayed|put\s+off)"
_TO_WHEN = r"(?P<rest>\s+(?:to|until|till|for|by|into|on|at)\s+.+)"
_CHANGE_ENDS = r"(?:\s+(?:instead|now))+"
_DONE_WITH = r"^(?:(?:i|we)(?:'m|'re|\s+am|\s+are)\s+)?(?:all\s+)?(?:done|finished)\s+with\s+(?P<x>.+)$"
_TOO = r"(?:\s+(?:too|as well))?"  # "the coffee's done too": one more of a list
_IS_DONE = (
    rf"^(?P<x>.+?)(?:\s+(?:is|are|was|were|has been|have been)|'s|'re)\s+(?:all\s+|now\s+|already\s+)?{_DONE}{_TOO}$"
)
_OOPS = r"(?:(?:no|oh|wait|sorry|actually|oops)\b[\s,]*)*"
_OFF_LIST = r"\s+(?:from|off)\s+(?:the|my|our)\s+(?:[\w-]+\s+)?list$"
PHRASINGS = [
    Phrasing(RETRACT, _p(rf"^{_OOPS}(?:scratch|strike|ignore|undo|cancel|forget)\s+(?:that|it)$"), True),
    Phrasing(RETRACT, _p(rf"^{_OOPS}never\s?mind(?:\s+that)?$"), True),
    Phrasing(_COMPLETE, _p(r"^(?:mark|set)\s+(?P<x>.+?)\s+(?:as\s+)?(?:done|complete|completed|finished)$"), True),
    Phrasing(_COMPLETE, _p(r"^(?:check|tick|cross)\s+off\s+(?P<x>.+)$"), True),
    Phrasing(_COMPLETE, _p(r"^(?:check|tick|cross)\s+(?P<x>.+?)\s+off$"), True),
    Phrasing(_COMPLETE, _p(rf"^(?:check|tick|cross)\s+(?P<x>.+?){_OFF_LIST}"), True),
    Phrasing(_COMPLETE, _p(_DONE_WITH), True),
    Phrasing(_COMPLETE, _p(rf"^{_SUBJECT}?(?P<verb>{'|'.join(_STRICT_PAST)})\s+(?P<x>.+)$"), True),
    Phrasing(_COMPLETE, _p(_IS_DONE), True, tail=True),
    Phrasing(_COMPLETE, _p(rf"^(?P<x>.+?)\s+(?:done|finished|completed){_TOO}$"), True, tail=True),
    # "the taxes are filed", "the fence is painted": news that a task is finished, as strict as "is done", so
    # one that names no open entry waits in the inbox to be said again, whichever verb it was.
    Phrasing(
        _COMPLETE,
        _p(
            rf"^(?P<x>.+?)(?:\s+(?:is|are|was|were|has been|have been|got)|'s(?:\s+been)?|'re|'ve\s+been)\s+"
            rf"(?:all\s+|now\s+|already\s+)?(?P<verb>{_PARTICIPLES}){_TOO}$"
        ),
        True,
        tail=True,
    ),
    Phrasing(_COMPLETE, _p(rf"^{_SUBJECT}?(?P<verb>{_LOOSE_PAST})\s+(?!to\b)(?P<x>.+)$"), False),
    # "I've read Dune", "we watched the film": a book or film on a list, said by someone (read alone is a task).
    Phrasing(_COMPLETE, _p(rf"^{_SUBJECT}(?:read|watched|seen|listened to)\s+(?P<x>.+)$"), False),
    Phrasing(_ARCHIVE, _p(r"^(?:archive|delete|scratch|cross out|get rid of|forget about)\s+(?P<x>.+)$"), True),
    Phrasing(_ARCHIVE, _p(r"^never\s?mind(?:\s+about)?\s+(?P<x>.+)$"), True),
    Phrasing(_ARCHIVE, _p(rf"^(?:remove|drop|take)\s+(?P<x>.+?){_OFF_LIST}"), True),
    Phrasing(_ARCHIVE, _p(r"^(?:remove|drop)\s+(?!(?:off|by|in|out)\b)(?P<x>.+)$"), False),
    # "cancel the dentist" may also be a task ("cancel the gym membership"): an entry must match.
    Phrasing(_ARCHIVE, _p(r"^(?:cancel|call off|skip|scrap|ditch|don't bother with|no need to)\s+(?P<x>.+)$"), False),
    Phrasing(RESCHEDULE, _p(rf"^{_ASKING}push\s+(?P<x>.+?)\s+(?:back|off|out)(?P<rest>\s+.+)?$"), True),
    Phrasing(RESCHEDULE, _p(rf"^{_ASKING}put\s+(?P<x>.+?)\s+off(?P<rest>\s+.+)?$"), True),
    Phrasing(
        RESCHEDULE, _p(rf"^{_ASKING}(?:reschedule|postpone|defer|delay|push back|put off|rebook)\s+(?P<x>.+)$"), True
    ),
    Phrasing(_SNOOZE, _p(rf"^{_ASKING}(?:snooze|hide)\s+(?P<x>.+)$"), True),
    # "remind me about the package again in 2 hours": the entry shows up again then.
    Phrasing(_SNOOZE, _p(r"^remind\s+me\s+(?:again\s+)?(?:about|of)\s+(?P<x>.+?\bagain\b.*)$"), False),
    Phrasing(_SNOOZE, _p(r"^remind\s+me\s+again\s+(?:about|of)\s+(?P<x>.+)$"), False),
    Phrasing(RESCHEDULE, _p(rf"^{_ASKING}push\s+(?P<x>.+)$"), False),
    Phrasing(RESCHEDULE, _p(rf"^{_ASKING}(?:move|shift|bump|change|switch)\s+(?P<x>.+?){_TO_WHEN}$"), False),
    # "the report is now due on monday", "the dentist got moved to friday", "the vet is on wednesday instead"
    Phrasing(
        RESCHEDULE,
        _p(r"^(?P<x>.+?)\s+(?:is|are|'s)\s+(?:now\s+)?due\s+(?:now\s+)?(?P<rest>.+?)(?:\s+now)?$"),
        False,
        True,
    ),
    Phrasing(
        RESCHEDULE,
        _p(rf"^(?P<x>.+?)\s+(?:got|was|were|has\s+been|have\s+been|is|are)\s+(?:now\s+)?{_MOVED}{_TO_WHEN}$"),
        False,
        True,
    ),
    Phrasing(
        RESCHEDULE,
        _p(rf"^(?P<x>.+?)\s+(?:is|are|'s)\s+(?:now\s+)?(?P<rest>(?:on|at)\s+.+?){_CHANGE_ENDS}$"),
        False,
        True,
    ),
    Phrasing(RESCHEDULE, _p(r"^(?P<x>.+?)\s+(?:is|are|'s)\s+now\s+(?P<rest>(?:on|at|for)\s+.+)$"), False, True),
    Phrasing(RESCHEDULE, _p(rf"^make\s+(?P<x>.+?){_CHANGE_ENDS}$"), False),
    Phrasing(RESCHEDULE, _p(r"^(?P<x>.+?)\s+instead$"), False, True),
]


# One entry as said, in wordings to try in turn: the object ("mom"), then with the verb
# ("call mom") in case the object alone is ambiguous.
Target = tuple[str, ...]


@dataclass(frozen=True)
class Intent:
    """What to do to which entry: `whole` as said, or failing that each of `parts`
    ("oat milk and the passport are done")."""

    kind: str
    whole: Target
    parts: list[Target]
    strict: bool
    until_text: str | None = None  # the new due (a move), or until when (a snooze)
    shift: str | None = None  # "push X back a week": how far to move the entry's own due


def _clean_target(phrase: str) -> str:
    phrase = _LIST_SUFFIX.sub("", phrase.strip(" ,.!?;:"))
    return _TRAILING_WORDS.sub("", phrase).strip(" ,")


def _intent(
    kind: str, phrase: str, verb: str | None, strict: bool, until: str | None = None, shift: str | None = None
) -> Intent:
    base = _BASE_VERB.get(verb.lower()) if verb else None

    def target(text: str) -> Target:
        return (text, f"{base} {text}") if base else (text,)

    whole = _clean_target(phrase)
    parts = [p for p in (_clean_target(p) for p in _TARGETS_SPLIT.split(whole)) if p]
    return Intent(kind, target(whole), [target(p) for p in parts] if len(parts) > 1 else [], strict, until, shift)


def _snooze_time(separator: str, when: str) -> str:
    """The snooze time as the executor can read it: "for 2 days" means "in 2 days"."""
    when = when.strip(" ,.!?")
    if separator.lower() in ("for", "by", "into") and _DURATION.match(when):
        return f"in {when}"
    return when


def split_snooze_time(rest: str, clock: Clock) -> tuple[str, str]:
    """("the dentist", "friday") from "the dentist until friday"; no time said means tomorrow.

    The last "to"/"for"/"until" whose remainder reads as a time wins, so "flights to lisbon until
    friday" keeps "flights to lisbon" whole.
    """
    separators = list(_UNTIL.finditer(rest))
    for found in reversed(separators):
        when = _snooze_time(found.group("sep"), rest[found.end() :])
        if resolve_due(when, clock, ENGLISH) is not None:
            return rest[: found.start()], when
    explicit = next((f for f in separators if f.group("sep").lower() in ("until", "till", "til", "'til")), None)
    if explicit is not None:  # unreadable, but clearly a time: the executor will say so
        return rest[: explicit.start()], rest[explicit.end() :].strip(" ,.!?")
    if due := find_due_phrase(rest, clock):
        return cut_phrase(rest, due.text), due.text
    return rest, DEFAULT_SNOOZE


def read_intent(clause: str, clock: Clock) -> Intent | None:
    """The action on existing entries that `clause` asks for, or None for a create."""
    text = clause.rstrip(" ?")
    for phrasing in PHRASINGS:
        found = phrasing.pattern.match(text)
        if not found:
            continue
        groups = found.groupdict()
        if phrasing.kind == RETRACT:
            return Intent(RETRACT, (), [], strict=True)
        phrase = groups.get("x") or ""
        if phrasing.tail and _NOT_A_TARGET.search(phrase):
            continue
        until = shift = None
        if phrasing.kind in (RESCHEDULE, _SNOOZE):
            phrase = f"{phrase} {groups.get('rest') or ''}".strip()
            shifted = _SHIFT.search(phrase) if phrasing.kind == RESCHEDULE else None
            if shifted:
                phrase, shift = phrase[: shifted.start()], shifted.group("shift")
            else:
                phrase, until = split_snooze_time(phrase, clock)
                if until == DEFAULT_SNOOZE and not phrasing.strict:
                    continue  # "the vet is fine now": no new day or time, so no move
        return _intent(phrasing.kind, phrase, groups.get("verb"), phrasing.strict, until, shift)
    return None
