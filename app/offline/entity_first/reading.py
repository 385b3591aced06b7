"""A clause read entity first: the open entry it names (or, for "that", "it", "actually ...", the one the last
utterance touched), then what the rest asks of it. Sure of both, it acts; sure of what is asked but not of
which entry, it asks back with the likely readings; naming no entry, it leaves the clause to the other rules."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from app.changes.interpretation import InterpretContext
from app.domain.actions import Action, ArchiveAction, Cause, Choice, CompleteAction, ParseFailure, UpdateAction
from app.domain.checklist import find_item, items_of, split_items
from app.domain.clock import Clock
from app.domain.dates import find_due_phrase, moved_due
from app.domain.enums import ActionKind, Category, FailureKind
from app.domain.spans import shift_length
from app.offline.answers.wording import long_when
from app.offline.cues import capitalised
from app.offline.entity_first.mentions import EntryWords, Mention, Mentions, verb_of
from app.offline.entity_first.openers import without_openers
from app.offline.entity_first.requests import RENAMING, Asks, Request, past_tense, read_request
from app.offline.entity_first.words import Word, keys_of, words_of
from app.offline.vocabulary import TASK_VERBS
from app.store.models import Entry

# A clause that plainly asks for something new: about no entry already there, whatever words it shares.
_NEW = re.compile(
    r"^(?:remind\s+me\b(?!\s+(?:again|about|of)\b)|(?:i|we)\s+(?:need|have|want|should|must)\s+to\b"
    r"|don'?t\s+(?:let\s+me\s+)?forget|(?:make\s+a\s+)?note\b|new\s+|idea\b|add\s+(?:a|an)\s+|every\b"
    r"|what\s+if\b|how\s+about\b|maybe\s+(?:we|i)\b|(?:i|we)\s+(?:was|were)\s+thinking\b|i\s+feel\b"
    r"|(?:urgent(?:ly)?|important|asap|(?:high|low)[- ]priority)\b[\s:,-]+)",
    re.IGNORECASE,
)
# Verbs that change an entry rather than name a task of their own.
EDITING_VERBS = frozenset(
    "move push reschedule postpone bump shift change make mark delete cancel rename retitle remove scrap archive "
    "snooze switch do".split()
)
TASK_VERB_KEYS = frozenset(TASK_VERBS)  # written in their base form: their own keys
# Words that say a due replaces the one there ("call mum on saturday instead").
_REPLACING = re.compile(r"\b(?:instead|now|rather|actually|not)\b", re.IGNORECASE)
# Where the thing a task acts on ends: "mum" of "call mum on saturday instead".
_OBJECT_ENDS = re.compile(
    r"\b(?:on|at|to|till|until|by|for|from|in|instead|tomorrow|today|tonight|next|this|after|before|about|with)\b"
    r"|[,.;!?]",
    re.IGNORECASE,
)
# "make it", "that", "move it": the entry the last utterance touched, when no other is named.
_POINTS_BACK = re.compile(r"\b(?:it|that|this\s+one|that\s+one|the\s+same)\b", re.IGNORECASE)
_SHOWN = 60


@dataclass(frozen=True)
class EntityReading:
    actions: tuple[Action, ...] = ()
    unsure: ParseFailure | None = None  # nothing done: the words wait, with `choices` to pick from
    choices: tuple[Choice, ...] = ()


class Back(Enum):
    """How an utterance's first clause stands to the utterance before it."""

    NOT = "not"
    CONTINUES = "continues"  # "and butter", "oh and vanilla": more of what was just said
    CORRECTS = "corrects"  # "actually make that 8pm", "sorry, saturday", "make it urgent": a change to it


_MAKE_IT = re.compile(r"^(?:make|change|move|set|put|switch|push|turn)\s+(?:it|that|this)\b", re.IGNORECASE)
_GOING_ON = re.compile(r"^(?:(?:oh|ah|um|uh)[\s,]+)?(?:and|also|plus)\b", re.IGNORECASE)


# A clause that goes on about the thing the clause before named: "the boiler guy can't do wednesday, make it
# thursday"; "tax return... let's aim for the 30th instead".
_GOES_ON = re.compile(
    r"^(?:(?:let's|lets|can\s+we|could\s+we)\s+)?(?:make|do|move|change|push|set|put|switch)\s+(?:it|that)\b"
    r"|^(?:let's|lets)\s+(?:aim|go|say|do)\b",
    re.IGNORECASE,
)


def joined_where_named(clauses: Sequence[str], entry_words: EntryWords) -> list[str]:
    """The clauses, each one that goes on about the entry the one before named joined to it, so the two read as
    one sentence about that entry."""
    joined: list[str] = []
    for clause in clauses:
        before = joined[-1] if joined else None
        goes_on = _GOES_ON.match(clause.strip()) or _GOES_ON.match(without_openers(clause).text)
        if before is not None and goes_on and _names_one(before, entry_words):
            joined[-1] = f"{before}, {clause}"
        else:
            joined.append(clause)
    return joined


def _names_one(clause: str, entry_words: EntryWords) -> bool:
    return entry_words.find(words_of(without_openers(clause).text)).one is not None


def said_back(utterance: str) -> Back:
    """Whether an utterance opens by referring to the one before: read before its clauses are split, since the
    split takes a correction's words off what they correct."""
    opened = without_openers(utterance)
    if opened.correcting or _MAKE_IT.match(opened.text):
        return Back.CORRECTS
    return Back.CONTINUES if _GOING_ON.match(utterance.strip()) else Back.NOT


def read_about_entries(
    clause: str, context: InterpretContext, entry_words: EntryWords, back: Back = Back.NOT
) -> EntityReading | None:
    """The clause's reading about an open entry, or None when it names none (a new entry, most likely)."""
    opened = without_openers(clause)
    text = opened.text
    if _NEW.match(text):
        return None
    mentions = _about_whom(_named_part(text), entry_words, context.clock)
    if mentions.one is not None:
        if _another_task(text, mentions.one.entry, entry_words):
            return None
        return _about(mentions.one.entry, _rest(text, mentions.one), text, clause, context.clock)
    if mentions.named:
        return _which(mentions.named, text, clause, context.clock)
    touched = [entry for entry in entry_words.entries if entry.id in context.last_touched]
    if touched and len(touched) == 1 and (listed := _list_correction(touched[0], text, back)) is not None:
        return listed
    corrects = back is Back.CORRECTS or opened.correcting or _POINTS_BACK.search(text)
    if touched and corrects:
        if len(touched) == 1:
            return _about(touched[0], text, text, clause, context.clock, pointed=True)
        return _which_touched(touched, text, clause, context.clock)
    return _loosely(mentions, text, clause, context.clock)


_NOT_ITEM = re.compile(r"^(?:not|no|scratch|drop|remove|skip|without|forget)\s+(?:the\s+|any\s+)?(?P<item>.+?)$", re.I)
_ITEM_TAIL = re.compile(r"[\s,]+(?:actually|too|as\s+well|sorry|i\s+forgot|forgot\s+that|we've\s+got\s+\w+).*$", re.I)


def _list_correction(entry: Entry, text: str, back: Back) -> EntityReading | None:
    """Right after a list was added to: "and butter" adds one more, "not the sugar" / "scratch the eggs" takes
    one of its items off again."""
    items = items_of(entry.summary, entry.items)
    if entry.category is not Category.LIST and not items:
        return None
    said = _ITEM_TAIL.sub("", text).strip(" ,.")
    reason = f'User said: "{text}"'
    if (taken := _NOT_ITEM.match(said)) and (index := find_item(items, taken["item"])) is not None:
        return EntityReading((UpdateAction(entry.id, {"remove_items": [items[index].text]}, reason),))
    if back is Back.NOT or not said or len(said.split()) > _ITEM_WORDS or find_item(items, said) is not None:
        return None
    if words_of(said)[0].key in TASK_VERB_KEYS:
        return None  # "and call mum": a task of its own
    return EntityReading((UpdateAction(entry.id, {"add_items": split_items(said)}, reason),))


_ITEM_WORDS = 4


def _about_whom(text: str, entry_words: EntryWords, clock: Clock) -> Mentions:
    """The entries the clause names, its words of time aside ("tomorrow morning" names no "Morning walk") unless
    they are all of an entry's ("reading for twenty minutes" is "Read for 20 minutes")."""
    said = words_of(text)
    whole = entry_words.find(said)
    if not entry_words.shares_a_word(said) or (whole.one is not None and whole.one.share >= _ALL_SAID):
        return whole  # no entry's words said at all, or all of one's
    due = find_due_phrase(text, clock)
    spoken = due.spoken if due else ()
    return entry_words.find([w for w in words_of(text) if not any(_within(w, text, part) for part in spoken)])


_ALL_SAID = 0.99


def _named_part(text: str) -> str:
    """Where the entry is named: all of it, but the old title of a rename ("rename the bike one to ...")."""
    renaming = RENAMING.match(text)
    return renaming["old"] or renaming["old2"] if renaming else text


def _within(word: Word, text: str, part: str) -> bool:
    at = text.lower().find(part.lower())
    return at >= 0 and at <= word.start and word.end <= at + len(part)


def _another_task(text: str, entry: Entry, entry_words: EntryWords) -> bool:
    """A clause opening with a task's verb asks for a new task unless it is the entry's own verb and the thing
    it acts on is the entry's: "call mum on saturday instead" is about "Call mum", while "water the christmas
    tree" beside "Buy a Christmas tree" and "pay the electricity bill" beside "Pay the water bill" are new."""
    said = words_of(text)
    if not said or said[0].key not in TASK_VERB_KEYS or said[0].key in EDITING_VERBS or past_tense(said[0].said):
        return False
    if said[0].key != verb_of(entry):
        return True
    thing = _OBJECT_ENDS.split(text[said[0].end :], maxsplit=1)[0]
    # The task said again whole: with a day it is a deadline the other rules weigh, unless said to replace one.
    return not keys_of(thing) <= keys_of(entry.summary) or not _REPLACING.search(text)


def _about(
    entry: Entry, rest: str, text: str, clause: str, clock: Clock, pointed: bool = False
) -> EntityReading | None:
    request = read_request(text, rest, entry.summary, clock, verb_of(entry))
    if request is None:
        return _unclear(entry, clause) if pointed else None
    action = _action(request, entry, clause, clock)
    return EntityReading((action,)) if action is not None else _unclear(entry, clause)


def _which(named: Sequence[Mention], text: str, clause: str, clock: Clock) -> EntityReading | None:
    """Several entries named alike: what is asked, offered for each of them."""
    choices = _choices(named, text, clause, clock)
    return _asking(choices, [m.entry for m in named], clause) if choices else None


def _which_touched(touched: Sequence[Entry], text: str, clause: str, clock: Clock) -> EntityReading | None:
    choices = tuple(
        Choice(_label(action, entry, clock), (action,))
        for entry in touched
        if (request := read_request(text, text, entry.summary, clock, verb_of(entry))) is not None
        and (action := _action(request, entry, clause, clock)) is not None
    )
    return _asking(choices, touched, clause) if choices else None


def _loosely(mentions: Mentions, text: str, clause: str, clock: Clock) -> EntityReading | None:
    """Entries only touched on ("called Tom" beside "Call Tom about the van" and "Tom's birthday"): asked about
    when the words plainly ask something of an entry (done, moved, cancelled), else left to the other rules."""
    loose = [m for m in mentions.loose if m.said]
    if not loose:
        return None
    choices = _choices(loose, text, clause, clock)
    if not choices or any(choice.actions[0].kind is ActionKind.UPDATE for choice in choices):
        return None  # a due or a title beside a shared word is more likely a new entry's
    return _asking(choices, [m.entry for m in loose], clause)


def _choices(mentions: Sequence[Mention], text: str, clause: str, clock: Clock) -> tuple[Choice, ...]:
    """What is asked, as a choice for each entry the words may mean (none when nothing is asked of them)."""
    found = []
    for mention in mentions:
        request = read_request(text, _rest(text, mention), mention.entry.summary, clock, verb_of(mention.entry))
        action = _action(request, mention.entry, clause, clock) if request else None
        if action is not None:
            found.append(Choice(_label(action, mention.entry, clock), (action,)))
    return tuple(found)


def _asking(choices: tuple[Choice, ...], entries: Sequence[Entry], clause: str) -> EntityReading:
    names = tuple(entry.summary for entry in entries)
    shown = _shown(clause)
    error = f"'{shown}' could mean {' or '.join(repr(n) for n in names[:4])}; say which"
    cause = Cause(FailureKind.AMBIGUOUS, shown, candidates=names)
    return EntityReading(unsure=ParseFailure(choices[0].actions[0].kind.value, error, clause, cause), choices=choices)


def _unclear(entry: Entry, clause: str) -> EntityReading:
    """About `entry`, but what to do with it is not clear: nothing is done, the words wait."""
    shown = _shown(clause)
    error = f"'{shown}' is about '{entry.summary}', but what to change is not clear; say it another way"
    cause = Cause(FailureKind.AMBIGUOUS, shown, candidates=(entry.summary,))
    return EntityReading(unsure=ParseFailure(ActionKind.UPDATE.value, error, clause, cause))


def _rest(text: str, mention: Mention) -> str:
    """The clause without the words that named the entry."""
    kept, start = [], 0
    for word in mention.said:
        kept.append(text[start : word.start])
        start = word.end
    kept.append(text[start:])
    return re.sub(r"\s+", " ", " ".join(kept)).strip()


def _action(request: Request, entry: Entry, clause: str, clock: Clock) -> Action | None:
    reason = f'User said: "{clause}"'
    if request.asks is Asks.COMPLETE:
        return CompleteAction(entry_id=entry.id, reason=reason)
    if request.asks is Asks.ARCHIVE:
        return ArchiveAction(entry_id=entry.id, reason=reason)
    if request.asks is Asks.PRIORITY:
        return UpdateAction(entry_id=entry.id, changes={"priority": request.priority}, reason=reason)
    if request.asks is Asks.RENAME:
        title = _renamed(entry.summary, request)
        return UpdateAction(entry_id=entry.id, changes={"summary": title}, reason=reason) if title else None
    moved = _moved(entry, request, clock)
    if moved is None:
        return None
    return UpdateAction(
        entry_id=entry.id, changes={"due_date": f"{moved.astimezone(clock.tz):%Y-%m-%d %H:%M}"}, reason=reason
    )


def _renamed(title: str, request: Request) -> str | None:
    if request.title:
        return capitalised(request.title)
    assert request.replace is not None
    wrong, right = request.replace
    renamed = re.sub(re.escape(wrong), right, title, count=1, flags=re.IGNORECASE)
    return renamed if renamed != title else None


def _moved(entry: Entry, request: Request, clock: Clock) -> datetime | None:
    if request.shift:
        earlier = request.shift.startswith("-")
        length = shift_length(request.shift.lstrip("-"))
        if length is None:
            return None
        start = (entry.due_at or clock.now).astimezone(clock.tz).replace(tzinfo=None)
        return (start - length if earlier else start + length).replace(tzinfo=clock.tz)
    if not request.when:
        return None
    moved = moved_due(entry.due_at, request.when, clock)
    return _same_half_of_day(moved, entry.due_at, request.when, clock) if moved else None


_NO_HALF_SAID = re.compile(r"^at\s+\d{1,2}(?::\d\d)?$")


def _same_half_of_day(moved: datetime, old: datetime | None, when: str, clock: Clock) -> datetime:
    """An hour said alone to correct a time means the one nearer the time it corrects: "make it ten" of 21:00 is
    22:00, "I meant half nine" of 09:00 is 09:30."""
    if old is None or not _NO_HALF_SAID.match(when):
        return moved
    other = moved + timedelta(hours=12 if moved.astimezone(clock.tz).hour < 12 else -12)
    nearer = min((moved, other), key=lambda moment: abs(moment - old))
    return nearer if nearer > clock.now else moved


def _label(action: Action, entry: Entry, clock: Clock) -> str:
    """A choice as the user reads it: "Move 'Haircut' to Fri 16:00?"."""
    if isinstance(action, UpdateAction) and "due_date" in action.changes:
        moment = datetime.strptime(action.changes["due_date"], "%Y-%m-%d %H:%M").replace(tzinfo=clock.tz)
        return f"Move '{entry.summary}' to {long_when(moment, clock)}?"
    if isinstance(action, UpdateAction) and "priority" in action.changes:
        return f"Set '{entry.summary}' to priority {action.changes['priority']}?"
    if isinstance(action, UpdateAction) and "summary" in action.changes:
        return f"Rename '{entry.summary}' to '{action.changes['summary']}'?"
    verb = {ActionKind.COMPLETE: "Tick off", ActionKind.ARCHIVE: "Archive"}.get(action.kind, "Change")
    return f"{verb} '{entry.summary}'?"


def _shown(clause: str) -> str:
    clause = clause.strip(" ,.!?")
    return clause if len(clause) <= _SHOWN else clause[: _SHOWN - 1] + "…"


# A command to change an entry ("move my piano lesson to thursday", "move it to friday"): never a new entry's title.
_EDITING = re.compile(
    r"^(?:(?:move|reschedule|postpone|push|bump|shift|rename|retitle|change|switch)\s+(?:it|that|this)\b"
    r"|(?:move|reschedule|postpone|bump|shift)\s+.+?\s+(?:to|till|until|back|forward|on)\b"
    r"|(?:rename|retitle|reschedule|postpone)\s+\S|change\s+.+?\s+to\b|make\s+(?:it|that)\b"
    r"|mark\s+.+?\s+as\b|delete\s+\S)",
    re.IGNORECASE,
)


def unknown_edit(clause: str) -> EntityReading | None:
    """A command to change an entry that names none open: nothing is done, and the words wait, saying so."""
    text = without_openers(clause).text
    if not _EDITING.match(text):
        return None
    shown = _shown(clause)
    error = f"'{shown}' asks to change an entry, but no open entry matches; say which, or add it as a new one"
    cause = Cause(FailureKind.NOT_FOUND, shown)
    return EntityReading(unsure=ParseFailure(ActionKind.UPDATE.value, error, clause, cause))
