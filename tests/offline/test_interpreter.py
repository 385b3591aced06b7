"""The offline interpreter on varied utterances, against a fixed clock and a fixed set of entries.

The table asserts structured fields (kind, category, recurrence, priority, due_text, entry_id) and,
for card text, key words and length rather than an exact wording.
"""

from dataclasses import dataclass, field
from typing import Any

import pytest

from app.domain.actions import (
    Action,
    ArchiveAction,
    CompleteAction,
    CreateAction,
    ParseFailure,
    ParseResult,
    SnoozeAction,
    UpdateAction,
)
from app.domain.enums import Category
from app.offline.creating import SUMMARY_WORDS
from tests.support.offline_entries import DENTIST, ENTRIES, interpret

# --- expectations -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Create:
    category: Category
    words: tuple[str, ...] = ()  # each must appear in the summary (case-insensitive)
    due: str | None = None
    recurrence: str | None = None
    priority: int | None = None

    def check(self, action: Action) -> None:
        assert isinstance(action, CreateAction), action
        assert (action.category, action.recurrence, action.priority, action.due_text) == (
            self.category,
            self.recurrence,
            self.priority,
            self.due,
        ), action
        summary = action.summary.lower()
        assert all(word.lower() in summary for word in self.words), (self.words, action.summary)
        assert 0 < len(action.summary.rstrip("…").split()) <= 10, action.summary
        if self.due and not self.recurrence:  # the date stays in the content but not on the card (a habit's is
            # its first occurrence, worked out)
            assert self.due.lower() in action.content.lower(), action
            assert self.due.lower() not in summary, action.summary


@dataclass(frozen=True)
class On:
    """An action on an existing entry, named by its short id."""

    kind: type[Action]
    short_id: str
    until: str | None = None  # for a snooze
    changes: dict[str, Any] = field(default_factory=dict)  # for an update
    reason: str | None = "Mentioned again"  # an update's; None: a move, whose reason quotes what was said

    def check(self, action: Action) -> None:
        assert isinstance(action, self.kind) and not isinstance(action, CreateAction), action
        full_id = next(e.id for e in ENTRIES if e.id.startswith(self.short_id))
        assert action.entry_id == full_id, action
        if isinstance(action, SnoozeAction):
            assert action.until_text == self.until, action
        if isinstance(action, UpdateAction):
            reason = self.reason or 'User said: "'
            assert dict(action.changes) == self.changes and action.reason.startswith(reason), action


@dataclass(frozen=True)
class Fails:
    tool: str
    says: tuple[str, ...]  # fragments the error must contain


Expected = Create | On | Fails


def check(result: ParseResult, expected: list[Expected]) -> None:
    wanted_actions = [e for e in expected if not isinstance(e, Fails)]
    wanted_failures = [e for e in expected if isinstance(e, Fails)]
    assert len(result.actions) == len(wanted_actions), result
    assert len(result.failures) == len(wanted_failures), result
    for want, action in zip(wanted_actions, result.actions, strict=True):
        want.check(action)
    for want_failure, failure in zip(wanted_failures, result.failures, strict=True):
        assert isinstance(failure, ParseFailure) and failure.tool == want_failure.tool, failure
        assert all(part in failure.error for part in want_failure.says), failure.error


REMINDER, TODO, HABIT, QUESTION = Category.REMINDER, Category.TODO, Category.HABIT, Category.QUESTION
LIST, IDEA, NOTE, THOUGHT = Category.LIST, Category.IDEA, Category.NOTE, Category.THOUGHT

CASES: list[tuple[str, list[Expected]]] = [
    # category cues
    ("remind me to call the optician Thursday", [Create(REMINDER, ("call", "optician"), due="Thursday")]),
    ("don't forget to pick up the dry cleaning", [Create(REMINDER, ("pick up", "dry cleaning"))]),
    ("reminder: car insurance renews next month", [Create(REMINDER, ("car insurance",), due="next month")]),
    ("don't let me forget to call the vet", [Create(REMINDER, ("call", "vet"))]),
    ("can you remind me to water the ferns", [Create(REMINDER, ("water", "ferns"))]),
    ("idea: a podcast about urban gardening", [Create(IDEA, ("podcast", "urban gardening"))]),
    ("what if we moved the standup to the afternoon", [Create(IDEA, ("standup",))]),
    ("maybe we could paint the hallway green", [Create(IDEA, ("hallway",))]),
    (
        "water the ferns every morning",
        [Create(HABIT, ("water", "ferns"), due="2026-11-23 08:00", recurrence="FREQ=DAILY")],
    ),
    (
        "stretch every weekday",
        [Create(HABIT, ("stretch",), due="2026-11-23 09:00", recurrence="FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")],
    ),
    (
        "take out the bins every monday",
        [Create(HABIT, ("bins",), due="2026-11-23 09:00", recurrence="FREQ=WEEKLY;BYDAY=MO")],
    ),
    ("pay the cleaner monthly", [Create(HABIT, ("pay", "cleaner"), due="2026-11-23 09:00", recurrence="FREQ=MONTHLY")]),
    ("each morning feed the cat", [Create(HABIT, ("feed", "cat"), due="2026-11-23 08:00", recurrence="FREQ=DAILY")]),
    ("call grandma every week", [Create(HABIT, ("grandma",), due="2026-11-23 09:00", recurrence="FREQ=WEEKLY")]),
    (
        "remind me to take my pills every evening",
        [Create(REMINDER, ("pills",), due="2026-11-22 19:00", recurrence="FREQ=DAILY")],
    ),
    ("why is the sky blue", [Create(QUESTION, ("sky", "blue"))]),
    ("how do vaccines work?", [Create(QUESTION, ("vaccines",))]),
    ("should I buy a new laptop", [Create(QUESTION, ("laptop",))]),
    ("does the gym open early", [Create(QUESTION, ("gym",))]),
    ("can we afford a new car", [Create(QUESTION, ("afford",))]),
    ("where did I put the spare key", [Create(QUESTION, ("spare key",))]),
    ("is the pharmacy open on sunday", [Create(QUESTION, ("pharmacy", "sunday"))]),  # kept as asked
    ("add eggs to the shopping list", [Create(LIST, ("shopping list",))]),  # eggs: its item
    ("put batteries on the grocery list", [Create(LIST, ("grocery list",))]),
    ("make a list of films to watch", [Create(LIST, ("films",))]),
    ("I need to buy eggs and bread", [Create(TODO, ("buy eggs and bread",))]),
    ("we have to fix the leaking tap", [Create(TODO, ("fix", "tap"))]),
    ("gotta finish the quarterly report by friday", [Create(TODO, ("quarterly report",), due="by friday")]),
    ("must renew the car insurance", [Create(TODO, ("renew", "car insurance"))]),
    ("todo: sort the holiday photos", [Create(TODO, ("sort", "photos"))]),
    ("the gutters should be cleaned", [Create(TODO, ("gutters",))]),
    ("buy a birthday card for Anna", [Create(TODO, ("birthday card", "Anna"))]),
    ("do the laundry", [Create(TODO, ("laundry",))]),
    ("I think the meeting went well", [Create(THOUGHT, ("meeting went well",))]),
    ("I noticed the bike tyre is flat", [Create(THOUGHT, ("tyre",))]),
    ("I realised we never booked a hotel", [Create(THOUGHT, ("hotel",))]),
    ("note that the wifi password is on the fridge", [Create(NOTE, ("wifi password", "fridge"))]),
    ("note: the boiler code is 4711", [Create(NOTE, ("boiler code", "4711"))]),
    ("the neighbours have a new dog", [Create(NOTE, ("neighbours", "dog"))]),
    # priority
    ("urgent: pay the water bill by friday", [Create(TODO, ("water bill",), due="by friday", priority=1)]),
    ("call the bank asap", [Create(TODO, ("call", "bank"), priority=1)]),
    ("book the venue as soon as possible", [Create(TODO, ("venue",), priority=1)]),
    ("critical: back up the laptop", [Create(TODO, ("back up", "laptop"), priority=1)]),
    ("top priority fix the login bug", [Create(TODO, ("login bug",), priority=1)]),
    ("important: call the insurer tomorrow at 10am", [Create(TODO, ("insurer",), due="tomorrow at 10am", priority=2)]),
    ("high priority submit the expense report", [Create(TODO, ("expense report",), priority=2)]),
    ("low priority clean the garage", [Create(TODO, ("clean", "garage"), priority=5)]),
    ("someday learn to play the piano", [Create(TODO, ("piano",), priority=5)]),
    ("tidy the shed, no rush", [Create(TODO, ("tidy", "shed"), priority=5)]),
    ("P3 review the pull request", [Create(TODO, ("pull request",), priority=3)]),
    ("priority 4 email the accountant", [Create(TODO, ("accountant",), priority=4)]),
    ("call the plumber, it's not urgent", [Create(TODO, ("plumber",), priority=4)]),
    # due phrases
    ("pay rent on the 1st", [Create(TODO, ("pay rent",), due="on the 1st")]),
    ("call grandma in 2 weeks", [Create(TODO, ("grandma",), due="in 2 weeks")]),
    ("pick up the kids at 5pm", [Create(TODO, ("kids",), due="at 5pm")]),
    ("tomorrow, call the bank", [Create(TODO, ("call", "bank"), due="tomorrow")]),
    # compound utterances
    ("buy bread and call grandma tomorrow", [Create(TODO, ("bread",)), Create(TODO, ("grandma",), due="tomorrow")]),
    ("buy salt and pepper", [Create(TODO, ("salt and pepper",))]),
    ("call mom and dad", [Create(TODO, ("mom and dad",))]),
    ("book a table, then text Sam the address", [Create(TODO, ("table",)), Create(TODO, ("text", "Sam"))]),
    ("buy stamps and then pick up the parcel", [Create(TODO, ("stamps",)), Create(TODO, ("parcel",))]),
    ("Buy stamps. Also renew the gym membership!", [Create(TODO, ("stamps",)), Create(TODO, ("gym membership",))]),
    ("write the report; email it to Jo", [Create(TODO, ("report",)), Create(TODO, ("Jo",))]),
    ("buy eggs, bread, and cheese", [Create(TODO, ("eggs", "bread", "cheese"))]),
    (
        "buy cheese, call the plumber, and walk the dog",
        [Create(TODO, ("cheese",)), Create(TODO, ("plumber",)), Create(TODO, ("dog",))],
    ),
    (
        "remind me to call the plumber Thursday, and oat milk is done",
        [Create(REMINDER, ("plumber",), due="Thursday"), On(CompleteAction, "9c0d1e")],
    ),
    ("walk the dog and the passport is done", [Create(TODO, ("dog",)), On(CompleteAction, "5e6f70")]),
    ("oat milk and the passport are done", [On(CompleteAction, "9c0d1e"), On(CompleteAction, "5e6f70")]),
    # complete
    ("oat milk is done", [On(CompleteAction, "9c0d1e")]),
    ("the flights are done", [On(CompleteAction, "d4e5f6")]),
    ("passport was done", [On(CompleteAction, "5e6f70")]),
    ("done with the flights", [On(CompleteAction, "d4e5f6")]),
    ("finished the landlord email", [On(CompleteAction, "a1b2c3")]),  # a snoozed entry
    ("I finished watering the plants", [On(CompleteAction, "2b8c9a")]),
    ("I bought the oat milk", [On(CompleteAction, "9c0d1e")]),
    ("mark the dentist as done", [On(CompleteAction, "7d4e5f")]),
    ("mark water the plants complete", [On(CompleteAction, "2b8c9a")]),
    ("check off the electricity bill", [On(CompleteAction, "b0b0b0")]),
    ("tick off oat milk", [On(CompleteAction, "9c0d1e")]),
    ("cross off the flights", [On(CompleteAction, "d4e5f6")]),
    ("dentist done", [On(CompleteAction, "7d4e5f")]),
    ("the dentest is done", [On(CompleteAction, "7d4e5f")]),  # a recognition slip
    ("I called mom", [On(CompleteAction, "c0ffee")]),
    # archive
    ("archive the passport", [On(ArchiveAction, "5e6f70")]),
    ("remove the flights", [On(ArchiveAction, "d4e5f6")]),
    ("delete the landlord email", [On(ArchiveAction, "a1b2c3")]),
    ("drop the electricity bill", [On(ArchiveAction, "b0b0b0")]),
    ("scratch the dentist", [On(ArchiveAction, "7d4e5f")]),
    ("forget about the flights", [On(ArchiveAction, "d4e5f6")]),
    ("never mind the oat milk", [On(ArchiveAction, "9c0d1e")]),
    # snooze
    ("snooze the dentist until friday", [On(SnoozeAction, "7d4e5f", until="friday")]),
    ("snooze the plants till tomorrow evening", [On(SnoozeAction, "2b8c9a", until="tomorrow evening")]),
    # a move sets the due, keeping the entry's time of day (09:00 here) when only a day is said
    (
        "postpone the passport to next week",
        [On(UpdateAction, "5e6f70", changes={"due_date": "2026-11-23 09:00"}, reason=None)],
    ),
    ("push the flights to monday", [On(UpdateAction, "d4e5f6", changes={"due_date": "2026-11-23 09:00"}, reason=None)]),
    ("snooze the electricity bill for 2 days", [On(SnoozeAction, "b0b0b0", until="in 2 days")]),
    ("snooze oat milk", [On(SnoozeAction, "9c0d1e", until="tomorrow")]),
    ("remind me about the passport tomorrow", [Create(REMINDER, ("passport",), due="tomorrow")]),  # a reminder
    # said again: a new entry when it brings another day (it names the one like it), a priority, or nothing
    ("buy milk tomorrow", [Create(TODO, ("milk",), due="tomorrow")]),
    ("urgent: pay the electricity bill", [On(UpdateAction, "b0b0b0", changes={"priority": 1})]),
    ("renew passport friday", []),
    ("renew passport on friday", []),
    ("pay the electricity bill", []),
    # failures are explicit
    ("milk is done", [Fails("complete", ("'milk' is ambiguous", "'Buy milk' (3fa1b2)", "'Buy oat milk' (9c0d1e)"))]),
    ("call is done", [Fails("complete", ("ambiguous", "'Call the dentist' (7d4e5f)", "'Call mom' (c0ffee)"))]),
    ("eggs are done", [Fails("complete", ("no open entry matches 'eggs'",))]),
    ("the fence is painted", [Fails("complete", ("no open entry matches 'the fence'",))]),  # any task's participle
    ("I bought a new bike", [Fails("complete", ("no open entry matches 'a new bike'",))]),
    ("it's done", [Fails("complete", ("'it' does not say which entry",))]),
    ("archive the tax return", [Fails("archive", ("no open entry matches 'the tax return'",))]),
    ("snooze the gym until friday", [Fails("snooze", ("no open entry matches 'the gym'",))]),
    # loose phrasings that match nothing are new entries
    ("remove the stain from the carpet", [Create(TODO, ("stain", "carpet"))]),
    ("drop off the parcel at the post office", [Create(TODO, ("parcel", "post office"))]),
    ("push the car into the garage", [Create(TODO, ("car", "garage"))]),
    ("I called the garage about the tyres", [Create(NOTE, ("garage", "tyres"))]),
    # noise
    ("um, uh, buy stamps", [Create(TODO, ("buy stamps",))]),
    ("so, like, um... call the plumber...", [Create(TODO, ("call the plumber",))]),
    ("  BUY   STAMPS!!  ", [Create(TODO, ("buy stamps",))]),
    ("OAT MILK IS DONE", [On(CompleteAction, "9c0d1e")]),
    ("please call the plumber, thanks", [Create(TODO, ("call the plumber",))]),
    ("buy bread. no, scratch that", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[text[:48] for text, _ in CASES])
def test_utterances(text: str, expected: list[Expected]) -> None:
    check(interpret(text), expected)


def test_the_issue_example_reads_exactly() -> None:
    text = "remind me to call the dentist Thursday"
    [action] = interpret(text, entries=[]).actions
    assert isinstance(action, CreateAction)
    assert (action.category, action.summary, action.due_text) == (Category.REMINDER, "Call the dentist", "Thursday")
    assert action.content == "Call the dentist Thursday" and action.source_text == text


def test_a_reminder_said_again_for_another_day_is_new_and_names_the_one_like_it() -> None:
    """The listed reminder keeps its time: a new one is made, and the result names the old one to merge."""
    [action] = interpret("remind me to call the dentist Thursday").actions
    assert isinstance(action, CreateAction) and action.due_text == "Thursday" and action.similar_to == DENTIST.id


def test_only_active_entries_count_as_said_before() -> None:
    """The landlord email is snoozed: saying it again makes a new entry rather than a silent no-op."""
    [action] = interpret("email the landlord about the heating").actions
    assert isinstance(action, CreateAction)


def test_reasons_quote_the_clause() -> None:
    complete, archive, snooze = interpret("oat milk is done. archive the passport. snooze the dentist").actions
    assert isinstance(complete, CompleteAction) and complete.reason == 'User said: "oat milk is done"'
    assert isinstance(archive, ArchiveAction) and archive.reason == 'User said: "archive the passport"'
    assert isinstance(snooze, SnoozeAction) and snooze.reason == 'User said: "snooze the dentist"'


def test_source_text_is_each_clause_as_said() -> None:
    result = interpret("buy bread and call grandma tomorrow")
    assert [a.source_text for a in result.actions if isinstance(a, CreateAction)] == [
        "buy bread",
        "call grandma tomorrow",
    ]


def test_priority_words_leave_the_content_but_adjectives_stay() -> None:
    [urgent] = interpret("urgent: pay the water bill by friday").actions
    assert isinstance(urgent, CreateAction) and urgent.content == "Pay the water bill by friday"
    [meeting] = interpret("prepare the important meeting").actions
    assert isinstance(meeting, CreateAction)
    assert meeting.priority == 2 and meeting.summary == "Prepare the important meeting"


def test_lead_ins_are_cut_from_content_and_summary() -> None:
    texts = ["I need to call the garage", "please call the garage", "don't forget to call the garage"]
    for text in texts:
        [action] = interpret(text).actions
        assert isinstance(action, CreateAction)
        assert (action.content, action.summary) == ("Call the garage", "Call the garage"), text


def test_a_long_task_keeps_its_words_on_the_card_and_a_ramble_is_cut() -> None:
    text = "remind me to ask the accountant whether the home office costs from last year can still be deducted"
    [action] = interpret(text).actions
    assert isinstance(action, CreateAction) and action.due_text is None  # "from last year" is no due date
    assert action.summary == "Ask the accountant whether the home office costs from last year can still be deducted"
    ramble = "note " + " ".join(f"point {n} about the garden shed and the fence" for n in range(1, 6))
    [note] = interpret(ramble).actions
    assert isinstance(note, CreateAction) and note.summary.endswith("…")
    assert len(note.summary.rstrip("…").split()) <= SUMMARY_WORDS and note.content.endswith(
        "point 5 about the garden shed and the fence"
    )


def test_the_same_thing_twice_in_one_breath_is_one_entry() -> None:
    assert len(interpret("buy cheese and buy cheese").actions) == 1


def test_scratch_that_takes_back_only_the_previous_clause() -> None:
    result = interpret("buy cheese, call the plumber, scratch that")
    assert [a.summary for a in result.actions if isinstance(a, CreateAction)] == ["Buy cheese"]
    again = interpret("buy cheese. scratch that. buy cheese tomorrow")
    assert [(a.summary, a.due_text) for a in again.actions if isinstance(a, CreateAction)] == [
        ("Buy cheese", "tomorrow")
    ]


def test_scratch_that_with_nothing_before_says_so() -> None:
    result = interpret("scratch that")
    assert result.actions == [] and len(result.failures) == 1 and "undo" in result.failures[0].error


def test_a_failed_clause_does_not_stop_the_others() -> None:
    result = interpret("eggs are done and buy cheese. archive the passport")
    assert [type(a) for a in result.actions] == [CreateAction, ArchiveAction]
    assert [f.tool for f in result.failures] == ["complete"]
