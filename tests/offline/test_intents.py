"""Reading a clause about existing entries: which action, which entry phrase, and until when."""

import pytest

from app.offline.intents import RETRACT, read_intent, split_snooze_time
from tests.support.offline_entries import CLOCK


@pytest.mark.parametrize(
    ("clause", "kind", "phrase", "strict"),
    [
        ("milk is done", "complete", "milk", True),
        ("the flights are finished", "complete", "the flights", True),
        ("milk's done", "complete", "milk", True),
        ("mark the milk as complete", "complete", "the milk", True),
        ("check the milk off", "complete", "the milk", True),
        ("cross off milk from my shopping list", "complete", "milk", True),
        ("I've just finished the report", "complete", "the report", True),
        ("I paid the bill", "complete", "the bill", False),
        ("archive the report", "archive", "the report", True),
        ("remove milk from the list", "archive", "milk", True),
        ("remove the stain", "archive", "the stain", False),
        ("snooze the report", "snooze", "the report", True),
        ("hide the report until monday", "snooze", "the report", True),
        ("remind me about the package again in 2 hours", "snooze", "the package", False),
        ("push the report back a week", "reschedule", "the report", True),
        ("postpone the dentist", "reschedule", "the dentist", True),
        ("move the dentist to friday", "reschedule", "the dentist", False),
        ("the report is now due on monday", "reschedule", "the report", False),
        ("the dentist got moved to 3pm", "reschedule", "the dentist", False),
        ("the vet is on wednesday instead", "reschedule", "the vet", False),
        ("make the dentist 4pm instead", "reschedule", "the dentist", False),
    ],
)
def test_phrasings(clause: str, kind: str, phrase: str, strict: bool) -> None:
    intent = read_intent(clause, CLOCK)
    assert intent is not None and (intent.kind, intent.whole[0], intent.strict) == (kind, phrase, strict)


@pytest.mark.parametrize(
    "clause",
    [
        "get the taxes done",  # a todo
        "I need to get this done",
        "is the laundry done",  # a question
        "when is the report done",
        "drop off the parcel",
        "remind me about the dentist tomorrow",  # a reminder, not a snooze
        "buy milk",
        "push the car to the garage",  # a task: no new day or time in it
        "the vet is fine now",
        "use oat milk instead",
    ],
)
def test_creates_are_not_read_as_intents(clause: str) -> None:
    assert read_intent(clause, CLOCK) is None


def test_past_tense_is_also_tried_as_the_verb_an_entry_would_use() -> None:
    intent = read_intent("I called mom", CLOCK)
    assert intent is not None and intent.whole == ("mom", "call mom")


def test_several_entries_in_one_phrase_are_parts() -> None:
    intent = read_intent("oat milk, the passport and the flights are done", CLOCK)
    assert intent is not None and [p[0] for p in intent.parts] == ["oat milk", "the passport", "the flights"]


@pytest.mark.parametrize("clause", ["scratch that", "no, scratch that", "never mind", "forget it", "cancel that"])
def test_retractions(clause: str) -> None:
    intent = read_intent(clause, CLOCK)
    assert intent is not None and intent.kind == RETRACT


@pytest.mark.parametrize(
    ("rest", "phrase", "until"),
    [
        ("the dentist until friday", "the dentist", "friday"),
        ("the dentist till tomorrow morning", "the dentist", "tomorrow morning"),
        ("the dentist to next week", "the dentist", "next week"),
        ("the dentist for 2 days", "the dentist", "in 2 days"),
        ("the dentist for an hour", "the dentist", "in an hour"),
        ("flights to lisbon until monday", "flights to lisbon", "monday"),  # the last time-like "to"
        ("flights to lisbon", "flights to lisbon", "tomorrow"),
        ("the dentist next week", "the dentist", "next week"),
        ("the dentist until the cows come home", "the dentist", "the cows come home"),  # the executor says no
    ],
)
def test_snooze_time(rest: str, phrase: str, until: str) -> None:
    assert split_snooze_time(rest, CLOCK) == (phrase, until)
