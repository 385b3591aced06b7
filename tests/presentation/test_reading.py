"""The reading before Enter in words: a short line per change, dates as the list says them, two lines at most."""

from datetime import datetime

from app.domain.actions import ArchiveAction, CompleteAction, CreateAction, SnoozeAction, UpdateAction
from app.domain.enums import Category
from app.presentation.reading import ANSWER, NOT_UNDERSTOOD, ReadAction, ReadingPreview, reading_lines
from tests.support.clock import BERLIN, FIXED_NOW

THURSDAY_9 = datetime(2026, 11, 26, 9, 0, tzinfo=BERLIN)
TOMORROW_9 = datetime(2026, 11, 23, 9, 0, tzinfo=BERLIN)


def words(preview: ReadingPreview) -> list[str]:
    return reading_lines(preview, FIXED_NOW, BERLIN)


def lines(*actions: ReadAction) -> list[str]:
    return words(ReadingPreview(actions=actions))


def created(summary: str, category: Category = Category.TODO, due: str | None = None) -> CreateAction:
    return CreateAction(summary, summary, category, summary, due_text=due)


def test_each_kind_of_change_is_one_short_line() -> None:
    new = ReadAction(created("Call the dentist", Category.REMINDER, "thursday"), "Call the dentist", THURSDAY_9)
    assert lines(new) == ["New reminder “Call the dentist” · Thu 26 Nov 09:00"]
    moved = UpdateAction("h1", {"due_date": "2026-11-26 09:00"})
    assert lines(ReadAction(moved, "Haircut", THURSDAY_9)) == ["Move “Haircut” to Thu 26 Nov 09:00"]
    assert lines(ReadAction(CompleteAction("g1"), "Pay the gas bill")) == ["Tick off “Pay the gas bill”"]
    assert lines(ReadAction(CompleteAction("s1", item="milk"), "Shopping")) == ["Tick off “milk” on “Shopping”"]
    added = UpdateAction("s1", {"add_items": ("butter",)})
    assert lines(ReadAction(added, "Shopping list")) == ["Add “butter” to “Shopping list”"]
    snoozed = ReadAction(SnoozeAction("h1", "tomorrow"), "Haircut", TOMORROW_9)
    assert lines(snoozed) == ["Snooze “Haircut” until tomorrow 09:00"]
    assert lines(ReadAction(ArchiveAction("h1"), "Haircut")) == ["Archive “Haircut”"]
    assert lines(ReadAction(UpdateAction("h1", {"summary": "Barber"}), "Haircut")) == ["Rename “Haircut” to “Barber”"]
    assert lines(ReadAction(UpdateAction("h1", {"priority": 1}), "Haircut")) == ["Set “Haircut” to urgent priority"]
    both = UpdateAction("h1", {"priority": 2, "recurrence": None})
    assert lines(ReadAction(both, "Haircut")) == ["Change “Haircut” (priority, repeat)"]


def test_a_due_that_reads_as_no_date_is_quoted() -> None:
    new = ReadAction(created("Tidy up", due="someday soon"), "Tidy up")
    assert lines(new) == ["New todo “Tidy up” · “someday soon” (no date read from it)"]


def test_answers_readings_and_words_not_understood() -> None:
    assert words(ReadingPreview(answer="Nothing is due this week.")) == [ANSWER]
    unsure = ReadingPreview(choices=("Tick off 'A'?", "Tick off 'B'?"), unread=1)
    assert words(unsure) == ["Not sure — 2 readings"]  # the words it is unsure of are those not understood
    assert words(ReadingPreview(unread=1)) == [NOT_UNDERSTOOD]
    assert words(ReadingPreview()) == []


def test_more_than_two_lines_are_counted_and_a_model_s_setup_says_whose_reading_it_is() -> None:
    three = [ReadAction(created(name), name) for name in ("Buy milk", "Call mom", "Water plants")]
    assert lines(*three) == ["New todo “Buy milk”", "and 2 more"]
    by_rules = ReadingPreview(actions=tuple(three[:2]), rules_only=True)
    assert words(by_rules) == ["Rules read: New todo “Buy milk”", "New todo “Call mom”"]
