"""The executor: mixed batches, partial failure, habits, snoozes, and the undo record it writes."""

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlmodel import select

from app.changes.executor import ExecutionResult, execute
from app.domain.actions import (
    Action,
    ArchiveAction,
    CompleteAction,
    CreateAction,
    SnoozeAction,
    UpdateAction,
    parse_action,
)
from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.presentation.summaries import summarize
from app.store import Store
from app.store.models import Entry, UndoBatch, UndoItem
from tests.support.clock import BERLIN


def run(store: Store, clock: Clock, actions: Sequence[Action]) -> ExecutionResult:
    with store.write() as session:
        return execute(session, actions, clock)


def new(content: str, **fields: object) -> CreateAction:
    action = parse_action("create", {"content": content, "category": "todo", **fields})
    assert isinstance(action, CreateAction)
    return action


def entry(store: Store, entry_id: str) -> Entry:
    with store.read() as session:
        found = session.get(Entry, entry_id)
        assert found is not None
        return found


def test_create_sets_every_field(store: Store, clock: Clock) -> None:
    result = run(
        store,
        clock,
        [
            new(
                "call the dentist",
                summary="Call the dentist",
                category="reminder",
                priority=2,
                due_date="Thursday",
                source_text="remind me to call the dentist Thursday",
            )
        ],
    )
    created = entry(store, result.applied[0].entry.id)
    assert (created.summary, created.category, created.priority, created.status) == (
        "Call the dentist",
        Category.REMINDER,
        2,
        Status.ACTIVE,
    )
    assert created.due_at == datetime(2026, 11, 26, 9, tzinfo=BERLIN)
    assert created.due_text == "Thursday"
    assert created.source_text == "remind me to call the dentist Thursday"
    assert created.created_at == created.updated_at == clock.now
    assert len(created.id) == 32 and created.revision == 1


def test_an_unreadable_due_phrase_is_kept(store: Store, clock: Clock) -> None:
    result = run(store, clock, [new("file taxes", due_date="in 3 business days")])
    created = entry(store, result.applied[0].entry.id)
    assert created.due_at is None and created.due_text == "in 3 business days"
    assert "kept the due phrase" in result.applied[0].note


def test_mixed_batch_with_partial_failure_applies_the_rest(store: Store, clock: Clock) -> None:
    first = run(store, clock, [new("buy milk"), new("call mom")])
    milk, mom = (item.entry.id for item in first.applied)
    result = run(
        store,
        clock,
        [
            new("book flights"),
            CompleteAction(entry_id=milk[:6], reason="bought"),
            CompleteAction(entry_id="ffffff", reason="nope"),
            ArchiveAction(entry_id=mom, reason="done by phone"),
            SnoozeAction(entry_id=milk, until_text="friday", reason="completed entries cannot be snoozed"),
            UpdateAction(entry_id=mom, changes={"priority": 1}, reason="after archive, still editable"),
        ],
    )
    assert [a.action.kind.value for a in result.applied] == ["create", "complete", "archive", "update"]
    assert [(f.kind, f.error) for f in result.failures] == [
        ("complete", "no entry has ID 'ffffff'"),
        ("snooze", "'Buy milk' is completed; only open entries can be snoozed"),
    ]
    summed_up = summarize(result.applied, result.failures)
    assert summed_up == "1 created, 1 updated, 1 completed, 1 archived (2 couldn't be processed)"
    assert entry(store, milk).status is Status.COMPLETED and entry(store, milk).completed_at == clock.now
    assert entry(store, mom).status is Status.ARCHIVED and entry(store, mom).priority == 1
    with store.read() as session:
        items = session.exec(select(UndoItem).where(UndoItem.batch_id == result.undo_id)).all()
    assert [i.kind for i in items] == ["create", "complete", "archive", "update"]


def test_a_batch_where_everything_fails_writes_no_undo_record(store: Store, clock: Clock) -> None:
    result = run(store, clock, [CompleteAction(entry_id="abcdef")])
    assert result.applied == [] and result.undo_id is None
    assert summarize(result.applied, result.failures) == "Nothing changed (1 failed)"
    with store.read() as session:
        assert session.exec(select(UndoBatch)).all() == []


def test_ambiguous_id_fails_that_action_only(store: Store, clock: Clock) -> None:
    with store.write() as session:
        for suffix in ("1", "2"):
            session.add(Entry(id="aaaaaa" + suffix * 26, content="x", summary="x", category="note", source_text="x"))
    result = run(store, clock, [CompleteAction(entry_id="aaaaaa"), new("still created")])
    assert [f.error for f in result.failures] == [
        "ID 'aaaaaa' is ambiguous: it matches 2 entries (aaaaaa11, aaaaaa22); give more characters"
    ]
    assert len(result.applied) == 1


def test_completing_a_habit_rolls_it_forward(store: Store, clock: Clock) -> None:
    created = run(store, clock, [new("stretch", category="habit", repeat="daily", due_date="today at 7pm")])
    habit_id = created.applied[0].entry.id
    result = run(store, clock, [CompleteAction(entry_id=habit_id)])
    habit = entry(store, habit_id)
    assert habit.status is Status.ACTIVE
    assert habit.due_at == datetime(2026, 11, 23, 19, tzinfo=BERLIN)
    assert habit.completed_at == clock.now
    assert "habit due next Mon 23 Nov 19:00" == result.applied[0].note


def test_an_every_other_monday_habit_keeps_its_fortnight(store: Store, clock: Clock) -> None:
    """Made on Sunday 22 November with no due date: first due the coming Monday at 09:00, then every
    second Monday after it, however early or late it is done."""
    created = run(store, clock, [new("team sync", category="habit", repeat="every other monday")])
    habit_id = created.applied[0].entry.id
    assert entry(store, habit_id).due_at == datetime(2026, 11, 23, 9, tzinfo=BERLIN)
    first = run(store, clock, [CompleteAction(entry_id=habit_id)])
    assert entry(store, habit_id).due_at == datetime(2026, 12, 7, 9, tzinfo=BERLIN)
    assert first.applied[0].note == "habit due next Mon 07 Dec 09:00"
    late = Clock(now=datetime(2026, 12, 9, 20, tzinfo=BERLIN), tz=clock.tz)
    run(store, late, [CompleteAction(entry_id=habit_id)])
    assert entry(store, habit_id).due_at == datetime(2026, 12, 21, 9, tzinfo=BERLIN)


def test_completing_twice_is_reported(store: Store, clock: Clock) -> None:
    entry_id = run(store, clock, [new("buy milk")]).applied[0].entry.id
    run(store, clock, [CompleteAction(entry_id=entry_id)])
    result = run(store, clock, [CompleteAction(entry_id=entry_id)])
    assert [f.error for f in result.failures] == ["'Buy milk' is already completed"]


def test_snooze_sets_the_time_and_refuses_the_past(store: Store, clock: Clock) -> None:
    entry_id = run(store, clock, [new("renew passport")]).applied[0].entry.id
    result = run(
        store,
        clock,
        [
            SnoozeAction(entry_id=entry_id, until_text="yesterday"),
            SnoozeAction(entry_id=entry_id, until_text="gibberish"),
            SnoozeAction(entry_id=entry_id, until_text="friday"),
        ],
    )
    assert [f.error for f in result.failures] == [
        "'yesterday' is in the past; snooze needs a future time",
        "can't read a time from 'gibberish'",
    ]
    snoozed = entry(store, entry_id)
    assert snoozed.status is Status.SNOOZED and snoozed.snooze_until == datetime(2026, 11, 27, 9, tzinfo=BERLIN)


def test_update_changes_fields_and_bumps_the_revision(store: Store, clock: Clock) -> None:
    entry_id = run(store, clock, [new("buy milk", due_date="tomorrow")]).applied[0].entry.id
    later = Clock(now=clock.now + timedelta(minutes=5), tz=clock.tz)
    run(
        store,
        later,
        [
            UpdateAction(
                entry_id=entry_id,
                changes={
                    "summary": "Buy oat milk",
                    "due_date": None,
                    "recurrence": "FREQ=WEEKLY",
                    "status": Status.SNOOZED,
                },
            )
        ],
    )
    updated = entry(store, entry_id)
    assert (updated.summary, updated.due_at, updated.due_text, updated.recurrence) == (
        "Buy oat milk",
        None,
        None,
        "FREQ=WEEKLY",
    )
    assert updated.status is Status.SNOOZED and updated.snooze_until == datetime(2026, 11, 23, 9, tzinfo=BERLIN)
    assert updated.revision == 2 and updated.updated_at == later.now


def test_clearing_the_snooze_wakes_the_entry(store: Store, clock: Clock) -> None:
    entry_id = run(store, clock, [new("renew passport")]).applied[0].entry.id
    run(store, clock, [SnoozeAction(entry_id=entry_id, until_text="friday")])
    run(store, clock, [UpdateAction(entry_id=entry_id, changes={"snooze_until": None})])
    woken = entry(store, entry_id)
    assert woken.status is Status.ACTIVE and woken.snooze_until is None


def move(entry_id: str, due: str | None) -> UpdateAction:
    return UpdateAction(entry_id=entry_id, changes={"due_date": due})


def test_a_move_keeps_what_it_does_not_say(store: Store, clock: Clock) -> None:
    """A day said alone keeps the entry's time; a time said alone keeps its day (as task apps move a due)."""
    dentist = run(store, clock, [new("dentist", due_date="thursday at 3pm")]).applied[0].entry.id
    run(store, clock, [move(dentist, "saturday")])
    assert entry(store, dentist).due_at == datetime(2026, 11, 28, 15, tzinfo=BERLIN)
    run(store, clock, [move(dentist, "11am")])
    assert entry(store, dentist).due_at == datetime(2026, 11, 28, 11, tzinfo=BERLIN)
    run(store, clock, [move(dentist, "monday at 4pm")])
    assert entry(store, dentist).due_at == datetime(2026, 11, 23, 16, tzinfo=BERLIN)


def test_a_habit_moved_keeps_its_rule(store: Store, clock: Clock) -> None:
    gym = run(store, clock, [new("go to the gym", repeat="FREQ=WEEKLY;BYDAY=MO,WE,FR", due_date="monday 7am")])
    gym_id = gym.applied[0].entry.id
    run(store, clock, [move(gym_id, "thursday")])
    moved = entry(store, gym_id)
    assert (moved.due_at, moved.recurrence) == (datetime(2026, 11, 26, 7, tzinfo=BERLIN), "FREQ=WEEKLY;BYDAY=MO,WE,FR")


def test_an_unreadable_move_changes_nothing(store: Store, clock: Clock) -> None:
    dentist = run(store, clock, [new("dentist", due_date="thursday at 3pm")]).applied[0].entry.id
    result = run(store, clock, [move(dentist, "when the cows come home")])
    assert [f.error for f in result.failures] == [
        "can't read a date from 'when the cows come home'; 'Dentist' keeps its due"
    ]
    assert entry(store, dentist).due_at == datetime(2026, 11, 26, 15, tzinfo=BERLIN)


def test_a_snoozed_entry_moved_wakes_to_its_new_due(store: Store, clock: Clock) -> None:
    bank = run(store, clock, [new("call the bank")]).applied[0].entry.id
    run(store, clock, [SnoozeAction(entry_id=bank, until_text="saturday")])
    run(store, clock, [move(bank, "friday 10am")])
    moved = entry(store, bank)
    assert (moved.status, moved.snooze_until, moved.due_at) == (
        Status.ACTIVE,
        None,
        datetime(2026, 11, 27, 10, tzinfo=BERLIN),
    )


def test_a_snooze_never_brings_an_entry_forward(store: Store, clock: Clock) -> None:
    """Snoozing until before the due would show the entry earlier than it is due: said so, nothing changed."""
    report = run(store, clock, [new("finish the report", due_date="saturday 5pm")]).applied[0].entry.id
    result = run(store, clock, [SnoozeAction(entry_id=report, until_text="friday")])
    assert [f.error for f in result.failures] == [
        "'Finish the report' is due Sat 28 Nov 17:00, after Fri 27 Nov 09:00: nothing to snooze (to change its due,"
        " move it)"
    ]
    unchanged = entry(store, report)
    assert (unchanged.status, unchanged.snooze_until, unchanged.revision) == (Status.ACTIVE, None, 1)
    later = run(store, clock, [SnoozeAction(entry_id=report, until_text="sunday")])
    assert later.failures == [] and entry(store, report).status is Status.SNOOZED
