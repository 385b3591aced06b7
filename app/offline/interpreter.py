"""The offline interpreter: an utterance becomes actions by rules alone, no network, no model.

The utterance is split into clauses; each is either about existing entries (complete, archive,
snooze: see intents.py; or read by the entry it names first: entity_first/) or makes a new one (creating.py).
Nothing is written here: the executor
applies the actions, and what cannot be acted on comes back as a ParseFailure saying why.
"""

import logging
import re
from datetime import datetime

from app.changes.interpretation import InterpretContext
from app.domain.actions import (
    Action,
    ArchiveAction,
    Cause,
    Choice,
    CompleteAction,
    CreateAction,
    ParseFailure,
    ParseResult,
    SnoozeAction,
    UpdateAction,
)
from app.domain.clock import Clock
from app.domain.dates import moved_due
from app.domain.enums import ActionKind, FailureKind
from app.domain.spans import shift_length
from app.offline.answers import answer_question
from app.offline.clauses import split_clauses
from app.offline.creating import OpenSummaries, SaidAgain, read_create
from app.offline.entity_first import (
    Back,
    EntityReading,
    joined_where_named,
    read_about_entries,
    said_back,
    unknown_edit,
)
from app.offline.entity_first.mentions import EntryWords
from app.offline.facts import personal_fact
from app.offline.intents import DEFAULT_SNOOZE, RESCHEDULE, RETRACT, Intent, Target, read_intent
from app.offline.items import Checklists, removed, with_items
from app.offline.list_phrasings import joined_list_clauses
from app.offline.matching import EntryIndex, EntryMatch
from app.offline.passed_today import passed_today
from app.store.models import Entry

log = logging.getLogger("murmur.offline")


def _reason(clause: str) -> str:
    return f'User said: "{clause}"'


def _find(target: Target, index: EntryIndex) -> EntryMatch:
    """The first wording that names one entry; else the first wording's error."""
    first: EntryMatch | None = None
    for wording in target:
        match = index.find(wording)
        if match.entry is not None:
            return match
        first = first or match
    assert first is not None
    return first


class _Utterance:
    """The state of reading one utterance: the entries to match, and the actions so far."""

    def __init__(self, context: InterpretContext) -> None:
        self.context = context
        self.index = EntryIndex(context.entries)
        self.entry_words = EntryWords(context.entries)
        self.summaries = OpenSummaries(context.entries, context.clock)
        self.checklists = Checklists(context.entries, context.last_touched)
        self.actions: list[Action] = []
        self.listed: list[Entry] = []  # said again with nothing new: already on the list
        self.failures: list[ParseFailure] = []
        self.facts: list[str] = []  # to remember
        self.choices: list[Choice] = []  # readings offered back where the words were unsure
        self.back = Back.NOT  # how the clause being read stands to the utterance before
        self._marks: list[tuple[int, int, int]] = []  # where each clause's results begin, for "scratch that"

    def read(self, clause: str, back: Back = Back.NOT) -> None:
        intent = read_intent(clause, self.context.clock)
        if intent is not None and intent.kind == RETRACT:
            self._retract(clause)
            return
        self.back = back
        mark = (len(self.actions), len(self.failures), len(self.facts))
        self._marks.append(mark)
        if (item_change := self.checklists.item_change(clause)) is not None:  # an item taken back or off a list
            self.actions.append(item_change)
            return
        if intent is not None and self._act_on_existing(intent, clause):
            if len(self.actions) == mark[0]:  # no one entry found: the entry's words in another form may tell
                self._reread_by_entry(clause, mark[1])
            return
        if not self._read_entity_first(clause):
            self._create(clause)

    def _reread_by_entry(self, clause: str, failures_from: int) -> None:
        """After a phrasing found no entry (or several): one that the entry's words name instead, or the readings
        to choose from where it found several; else the phrasing's own failure stands."""
        reading = read_about_entries(clause, self.context, self.entry_words, self.back)
        if reading is None:
            return
        unmatched = all(f.cause.kind is FailureKind.NOT_FOUND for f in self.failures[failures_from:])
        if reading.actions and unmatched:
            del self.failures[failures_from:]
            self._take(reading)
        elif reading.choices:  # the phrasing's failure says best what was unclear; the readings go with it
            self.choices.extend(reading.choices)

    def _read_entity_first(self, clause: str) -> bool:
        """Read by the entry the clause names (or the last utterance touched); False when it names none."""
        reading = read_about_entries(clause, self.context, self.entry_words, self.back) or unknown_edit(clause)
        if reading is None:
            return False
        self._take(reading)
        return True

    def _take(self, reading: EntityReading) -> None:
        self.actions.extend(reading.actions)
        if reading.unsure is not None:
            self.failures.append(reading.unsure)
        self.choices.extend(reading.choices)

    def _locate(self, intent: Intent, target: Target, clause: str) -> EntryMatch:
        """The entry a wording names; for a completion or an archive, maybe one item of a list (see items.py)."""
        match = _find(target, self.index)
        if intent.kind == ActionKind.ARCHIVE:
            return self.checklists.removal(match, target, clause)
        return self.checklists.resolve(match, target, clause) if intent.kind == ActionKind.COMPLETE else match

    def _retract(self, clause: str) -> None:
        """Take back what the previous clause of this utterance produced."""
        if self._marks:
            actions, failures, facts = self._marks.pop()
            for action in self.actions[actions:]:
                if isinstance(action, CreateAction):
                    self.summaries.forget(action)
            del self.actions[actions:], self.failures[failures:], self.facts[facts:]
        else:
            error = f"nothing said before '{clause}' to take back; use undo for earlier changes"
            self.failures.append(ParseFailure(tool=ActionKind.ARCHIVE.value, error=error, raw=clause))
            # Said of the last utterance's entries: which change to take back is not known here, so it is offered.
            touched = [e for e in self.entry_words.entries if e.id in self.context.last_touched]
            self.choices.extend(
                Choice(f"Archive '{e.summary}'?", (ArchiveAction(e.id, _reason(clause)),)) for e in touched
            )

    def _act_on_existing(self, intent: Intent, clause: str) -> bool:
        """Add the intent's actions (or failures); False when a loose phrasing matched nothing."""
        # "oat milk and the passport" names two entries, each by its part; "salt and pepper" one
        # (both parts find it). When no part names one, the whole phrase may, or says why not,
        # unless a part was ambiguous: that is the more useful thing to hear.
        matches = [self._locate(intent, part, clause) for part in intent.parts]
        if not any(m.entry is not None for m in matches):
            whole = self._locate(intent, intent.whole, clause)
            if whole.entry is not None or not any(m.candidates for m in matches):
                matches = [whole]
        # A loose phrasing that names no entry may be a new task ("cancel the gym membership"); one that names
        # several alike is about one of them, and asks which ("cancel the appointment" with two listed).
        if not intent.strict and all(m.entry is None and not m.candidates for m in matches):
            return False
        done: set[tuple[str, str | None]] = set()
        for found in matches:
            if found.entry is None:
                self.failures.append(ParseFailure(intent.kind, found.error or "", clause, found.cause))
            elif (found.entry.id, found.item) not in done:  # "salt and pepper": both words name one entry
                done.add((found.entry.id, found.item))
                self.actions.append(_action(intent, found, clause, self.context.clock))
        return True

    def _create(self, clause: str) -> None:
        if fact := personal_fact(clause, self.context.clock):
            self.facts.append(fact)
            return
        if (addition := self.checklists.addition(clause)) is not None:  # to a list already there
            self.actions.append(addition)
            return
        create = read_create(clause, self.context.clock)
        if create is None and len(re.findall(r"[^\W_]+", clause)) > 1:  # words, but none to make a thing of: said back
            error = f"could not make out what to do with '{clause[:80]}'; say it another way"
            self.failures.append(
                ParseFailure(ActionKind.CREATE.value, error, clause, Cause(FailureKind.INVALID, clause))
            )
            return
        action = self.summaries.refresh_or_create(create) if create else None
        if isinstance(action, SaidAgain):
            self.listed.append(action.entry)
        elif isinstance(action, CreateAction) and (passed := passed_today(action, self.context.clock)):
            self.failures.append(passed[0])
            self.choices.append(passed[1])
        elif isinstance(action, CreateAction):
            self.actions.append(with_items(action))
        elif action is not None:
            self.actions.append(action)


def _action(intent: Intent, found: EntryMatch, clause: str, clock: Clock) -> Action:
    entry = found.entry
    assert entry is not None
    if intent.kind == ActionKind.COMPLETE:
        return CompleteAction(entry_id=entry.id, reason=_reason(clause), item=found.item)
    if intent.kind == ActionKind.ARCHIVE:
        return removed(found, clause) if found.item else ArchiveAction(entry_id=entry.id, reason=_reason(clause))
    if intent.kind == RESCHEDULE:
        moved = _moved(intent, entry, clock)
        due = f"{moved.astimezone(clock.tz):%Y-%m-%d %H:%M}" if moved else intent.until_text or DEFAULT_SNOOZE
        return UpdateAction(entry_id=entry.id, changes={"due_date": due}, reason=_reason(clause))
    return SnoozeAction(entry_id=entry.id, until_text=intent.until_text or DEFAULT_SNOOZE, reason=_reason(clause))


def _moved(intent: Intent, entry: Entry, clock: Clock) -> datetime | None:
    """The entry's new due: its own moved by the shift said ("push the plumber back a week"; from now if it
    has none), or the day and time said, keeping what was not said of the old one."""
    if intent.shift and (length := shift_length(intent.shift)) is not None:
        start = (entry.due_at or clock.now).astimezone(clock.tz).replace(tzinfo=None)
        return (start + length).replace(tzinfo=clock.tz)
    return moved_due(entry.due_at, intent.until_text or DEFAULT_SNOOZE, clock)


class OfflineInterpreter:
    """Rules that need nothing but the text; the default when no LLM is configured."""

    name = "offline"

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        if not isinstance(text, str) or not text.strip():
            return ParseResult([], [])
        if (answer := answer_question(text, [*context.entries, *context.done_lately], context.clock)) is not None:
            return ParseResult([], [], answer=answer)
        utterance = _Utterance(context)
        back = said_back(text)
        clauses = joined_where_named(joined_list_clauses(split_clauses(text)), utterance.entry_words)
        for number, clause in enumerate(clauses):
            try:
                utterance.read(clause, back if number == 0 else Back.NOT)
            except Exception:  # the contract: never raise; one odd clause must not lose the others
                log.exception("offline rules failed on a clause")
                error = f"could not read '{clause[:80]}'; try saying it another way"
                utterance.failures.append(ParseFailure(tool=ActionKind.CREATE.value, error=error, raw=clause))
        listed = _already_listed(utterance.listed)
        return ParseResult(
            utterance.actions,
            utterance.failures,
            answer=listed,
            remember=tuple(utterance.facts),
            choices=tuple(utterance.choices),
        )


def _already_listed(entries: list[Entry]) -> str | None:
    """ "Already on your list: Buy eggs (3fa1b2)." for what was said again with nothing new."""
    if not entries:
        return None
    return "Already on your list: " + ", ".join(f"{e.summary} ({e.id[:6]})" for e in entries) + "."
