"""A clause that makes a new entry: its card text, category, priority, repeat rule and due phrase.

The content is the clause without its lead-in and priority words, keeping the date ("Call the
dentist Thursday"); the summary also drops the date and the repeat ("Call the dentist"). An entry
said again (the same words, in order, as an open one) is not made twice: the user hears it is already
listed; said with another day it is a new entry that names the listed one, to merge if meant.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, time

from app.domain.actions import CreateAction, UpdateAction
from app.domain.clock import Clock
from app.domain.dates import DEFAULT_DUE_TIME, ENGLISH, DuePhrase, find_due_phrase, resolve_due
from app.domain.day_phrases import DEADLINE, yearly_named_day
from app.domain.enums import Category, Status
from app.domain.recurrence import SpokenRecurrence, find_recurrence, first_occurrence
from app.domain.summaries import card_summary
from app.offline.cues import (
    CategoryCue,
    capitalised,
    cut_phrase,
    is_question,
    read_category,
    read_priority,
    starts_with_verb,
    tidy,
    without_hedge,
    without_latest,
)
from app.offline.matching import meaningful_words
from app.offline.resemblance import LookAlikes
from app.store.models import Entry

MENTIONED_AGAIN = "Mentioned again"
# The card keeps what the task is, every item of a list included (filler and dates are already gone);
# only a ramble is cut short.
SUMMARY_WORDS = 24
_TIME_ALONE = re.compile(r"^(?:at|around)\s+\d", re.IGNORECASE)
_DEADLINE = re.compile(rf"^{DEADLINE}\b", re.IGNORECASE)
_DEADLINE_BEFORE = frozenset({"by", "before", "until", "till", "due", "than"})


def _is_deadline(text: str, phrase: str) -> bool:
    """ "by friday", "is due next tuesday", "no later than the 15th": a day something must be done by."""
    before = text[: text.lower().find(phrase.lower())].split()
    return bool(_DEADLINE.match(phrase)) or bool(before) and before[-1].lower() in _DEADLINE_BEFORE


def _undated(text: str, due: DuePhrase) -> str:
    for piece in due.spoken:
        text = cut_phrase(text, piece)
    return text


def read_create(clause: str, clock: Clock) -> CreateAction | None:
    """The entry `clause` describes; None when nothing meaningful is left (just "urgent", "tomorrow")."""
    priority, text = read_priority(without_hedge(clause))
    if is_question(text) or (clause.rstrip().endswith("?") and not starts_with_verb(text)):  # kept as asked
        return _create(text, text, clause, CategoryCue(Category.QUESTION, lambda said: said), priority)
    now_local = clock.now.astimezone(clock.tz).replace(tzinfo=None)
    repeat = find_recurrence(text) or _yearly(text, now_local, clock)
    undated, latest = without_latest(cut_phrase(text, repeat.phrase) if repeat else text)
    due = find_due_phrase(undated, clock)
    bare = _undated(undated, due) if due else undated
    deadline = due is not None and (latest or _is_deadline(undated, due.text))
    cue = read_category(bare, repeats=repeat is not None, dated=due is not None, deadline=deadline)
    if cue.category is Category.THOUGHT:  # "this week just flew by": a feeling, not a plan
        due, bare = None, undated
    action = _create(text, bare, clause, cue, priority)
    if action is None:
        return None
    if repeat is None:
        return replace(action, due_text=_evening_if_meant(due, bare, clock) if due else None)
    return replace(action, recurrence=repeat.rule, due_text=_first_time(repeat, due, clock))


# What happens in the evening: a bare hour said with one is pm ("dinner on saturday at half seven" is 19:30).
_EVENING_THINGS = re.compile(
    r"\b(?:dinner|supper|drinks|party|date\s+night|movie\s+night|quiz\s+night|game\s+night|concert|gig|theatre"
    r"|theater)\b",
    re.IGNORECASE,
)
_BARE_CLOCK = re.compile(r"\b(?P<clock>(?:1[01]|[1-9])(?::[0-5]\d)?)\b(?!\s*(?:am|pm|a\.m|p\.m|o'?clock\s+in))", re.I)


def _evening_if_meant(due: DuePhrase, card: str, clock: Clock) -> str:
    """The due as said, its bare morning hour made pm when what is due happens in the evening."""
    local = due.moment.astimezone(clock.tz)
    said = _BARE_CLOCK.search(due.text)
    if said is None or local.hour >= 12 or not _EVENING_THINGS.search(card) or re.search(r"morning", due.text, re.I):
        return due.text
    return f"{due.text[: said.end()]}pm{due.text[said.end() :]}"


def _yearly(text: str, now_local: datetime, clock: Clock) -> SpokenRecurrence | None:
    found = yearly_named_day(text, now_local, clock.calendar)
    return SpokenRecurrence(found[0], found[1], None) if found else None


def _create(text: str, card: str, clause: str, cue: CategoryCue, priority: int | None) -> CreateAction | None:
    card = cue.rewrite(card)
    if not meaningful_words(card):  # "remind me to", "idea:" and nothing after
        return None
    return CreateAction(
        content=capitalised(cue.rewrite(text) or text),
        summary=card_summary(capitalised(tidy(card)), max_words=SUMMARY_WORDS),
        category=cue.category,
        source_text=clause,
        priority=priority,
    )


def _within(at: time, day_part: str | None) -> time:
    """A bare hour read as the part of day said with it: "every morning at 7" is 07:00, "every evening at 7"
    19:00 (the date rules made the bare 7 an evening hour, 6:30 too)."""
    if day_part == "morning" and at.hour >= 12:
        return at.replace(hour=at.hour - 12)
    if day_part in ("afternoon", "evening", "night") and at.hour < 12:
        return at.replace(hour=at.hour + 12)
    return at


def _first_time(repeat: SpokenRecurrence, due: DuePhrase | None, clock: Clock) -> str:
    """When a habit is first due: its first occurrence, at the time said ("every day at 7am"), else at the
    user's hour for the part of day said ("every morning"), else at 09:00."""
    if due is not None:
        # A time alone is read as with a day ("every weekday at 7:45" is the morning), not as the next 7:45.
        moment = resolve_due(f"tomorrow {due.text}", clock, ENGLISH) if _TIME_ALONE.match(due.text) else None
        at = _within((moment or due.moment).astimezone(clock.tz).time(), repeat.day_part)
    elif repeat.day_part:
        at = clock.calendar.part_of_day(repeat.day_part)
    else:
        at = DEFAULT_DUE_TIME
    now_local = clock.now.astimezone(clock.tz).replace(tzinfo=None)
    return f"{first_occurrence(repeat.rule, now_local, at.replace(second=0, microsecond=0)):%Y-%m-%d %H:%M}"


def _plain(due_text: str) -> str:
    return re.sub(r"^(?:on|at|by|this)\s+", "", due_text.strip().lower())


def _same_moment(first: datetime | None, second: datetime | None) -> bool:
    if first is None or second is None or (first.tzinfo is None) != (second.tzinfo is None):
        return False
    return first == second


def _same_kind(entry: Entry, create: CreateAction) -> bool:
    """A todo or note said is whatever the entry of the same words is ("start a podcast" is the idea); a
    kind said on purpose ("remind me to call the plumber") is a new entry next to a todo of those words."""
    return create.category in (entry.category, Category.TODO, Category.NOTE)


@dataclass(frozen=True)
class SaidAgain:
    """A new entry that is an open one said again, with nothing new: the user is told it is listed."""

    entry: Entry


class OpenSummaries:
    """Active entries by their summary's words, to tell a new entry from one said again.

    Only the same words in the same order and the same kind of entry are the same entry: "remind me to
    call the plumber" is a new reminder next to the todo "Call the plumber", which it names as similar
    (`similar_to`) so the user can merge them; "oven timer 21" is not "Oven timer 1".
    """

    def __init__(self, entries: Sequence[Entry], clock: Clock) -> None:
        self._clock = clock
        self._look_alikes = LookAlikes(entries)
        self._by_words = {meaningful_words(e.summary): e for e in entries if e.status is Status.ACTIVE and e.summary}
        self._said: set[tuple[str, ...]] = set()  # creates of this utterance so far

    def refresh_or_create(self, create: CreateAction) -> CreateAction | UpdateAction | SaidAgain | None:
        """The create (naming a similar entry); a priority set on the entry said again with one; SaidAgain
        when nothing is new; None for a create said twice in one breath."""
        words = meaningful_words(create.summary)  # in order: "task 3 dash 5" is not "Task 5 dash 3"
        existing = self._by_words.get(words)
        if existing is None or not _same_kind(existing, create) or not self._same_due(existing, create.due_text):
            if words in self._said:  # "buy milk ... buy milk" in one breath: one entry
                return None
            self._said.add(words)
            similar = existing or self._look_alikes.of(create.summary)
            return replace(create, similar_to=similar.id) if similar else create
        if create.priority is not None and create.priority != existing.priority:  # "urgent: pay the bill"
            return UpdateAction(entry_id=existing.id, changes={"priority": create.priority}, reason=MENTIONED_AGAIN)
        return SaidAgain(existing)

    def forget(self, create: CreateAction) -> None:
        """A create taken back ("scratch that") may be said again."""
        self._said.discard(meaningful_words(create.summary))

    def _same_due(self, entry: Entry, due_text: str | None) -> bool:
        """No day said, or the entry's own: "renew passport friday" again is the same; "call the dentist next
        month" next to the dentist reminder is another call (the listed one keeps its time)."""
        if due_text is None or _plain(entry.due_text or "") == _plain(due_text):  # "friday" said as "on friday"
            return True
        due = find_due_phrase(due_text, self._clock)
        return due is not None and _same_moment(entry.due_at, due.moment)
