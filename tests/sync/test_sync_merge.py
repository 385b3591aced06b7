"""The three-way merge of a task changed on both sides, field by field (app/sync/merge.py): pure data in, out."""

from datetime import UTC, datetime

from app.domain.enums import Category, Status
from app.sync.merge import Fields, habit_done_elsewhere, merge
from tests.support.clock import BERLIN, FIXED_NOW

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
FRIDAY = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
BASE: Fields = {
    "summary": "Book flights",
    "content": "Book flights",
    "category": Category.TODO,
    "priority": 3,
    "due_at": MONDAY,
    "recurrence": None,
    "status": Status.ACTIVE,
    "snooze_until": None,
    "completed_at": None,
    "items": None,
}


def test_a_field_one_side_changed_takes_that_side() -> None:
    merged = merge(BASE, BASE | {"summary": "Book cheap flights"}, BASE | {"priority": 1})
    assert (merged.fields["summary"], merged.fields["priority"], merged.clashes) == ("Book cheap flights", 1, {})


def test_a_completion_anywhere_wins_and_the_later_due_and_the_more_urgent_priority() -> None:
    done = datetime(2026, 11, 22, 17, 0, tzinfo=UTC)
    local = BASE | {"status": Status.COMPLETED, "completed_at": done, "due_at": FRIDAY, "priority": 2}
    remote = BASE | {"status": Status.SNOOZED, "snooze_until": FRIDAY, "due_at": MONDAY.replace(hour=10), "priority": 4}
    merged = merge(BASE, local, remote)
    assert merged.fields["status"] is Status.COMPLETED and merged.fields["completed_at"] == done
    assert merged.fields["due_at"] == FRIDAY and merged.fields["priority"] == 2
    assert merged.fields["snooze_until"] is None  # a completed task is not snoozed
    assert merged.clashes == {}


def test_words_both_changed_keep_the_servers_and_hand_back_the_local_ones() -> None:
    merged = merge(BASE, BASE | {"summary": "Book flights and hotel"}, BASE | {"summary": "Book flights to Rome"})
    assert merged.fields["summary"] == "Book flights to Rome"
    assert merged.clashes == {"summary": "Book flights and hotel"}


def test_the_same_change_on_both_sides_is_no_clash() -> None:
    same = BASE | {"summary": "Book flights to Rome"}
    assert merge(BASE, same, same).clashes == {}


def test_a_habit_completed_elsewhere_moves_on_instead_of_ending() -> None:
    habit = BASE | {"recurrence": "FREQ=DAILY", "category": Category.HABIT, "due_at": FIXED_NOW.astimezone(UTC)}
    remote = habit | {"status": Status.COMPLETED, "completed_at": FIXED_NOW}
    assert habit_done_elsewhere(habit, remote, FIXED_NOW, BERLIN)
    assert remote["status"] is Status.ACTIVE and remote["completed_at"] is None
    assert remote["due_at"] == datetime(2026, 11, 23, 18, 30, tzinfo=BERLIN)
    one_off = BASE | {"status": Status.COMPLETED}
    assert not habit_done_elsewhere(BASE, one_off, FIXED_NOW, BERLIN) and one_off["status"] is Status.COMPLETED


def test_a_checklist_is_one_field() -> None:
    listed = BASE | {"items": '[{"text": "eggs", "done": false}, {"text": "milk", "done": false}]'}
    eggs = listed | {"items": '[{"text": "eggs", "done": true}, {"text": "milk", "done": false}]'}
    milk = listed | {"items": '[{"text": "eggs", "done": false}, {"text": "milk", "done": true}]'}
    assert merge(listed, eggs, listed | {"priority": 1}).fields["items"] == eggs["items"]
    both = merge(listed, eggs, milk)  # not joined item by item: the server's, and the local one handed back
    assert both.fields["items"] == milk["items"] and both.clashes == {"items": eggs["items"]}


def test_a_habit_done_elsewhere_starts_its_checklist_afresh() -> None:
    habit = BASE | {"recurrence": "FREQ=DAILY", "category": Category.HABIT, "due_at": FIXED_NOW.astimezone(UTC)}
    remote = habit | {"status": Status.COMPLETED, "items": '[{"text": "stretch", "done": true}]'}
    assert habit_done_elsewhere(habit, remote, FIXED_NOW, BERLIN)
    assert remote["items"] == '[{"text": "stretch", "done": false}]'
