"""Results in words, from a real store: each kind of change, failure, memory change and undo is worded for the
CLI, the window and the model, and a kind with no wording fails here."""

from dataclasses import replace
from datetime import timedelta

import pytest

from app.changes.executor import ActionFailure, AppliedAction, ExecutionResult, execute
from app.changes.memories import MemoryChange, edit_memory, forget, remember
from app.changes.undo import history, undo_batch_id, undo_latest
from app.domain.actions import (
    Action,
    ArchiveAction,
    Cause,
    CompleteAction,
    CreateAction,
    SnoozeAction,
    UpdateAction,
)
from app.domain.clock import Clock
from app.domain.enums import (
    ActionKind,
    Category,
    FailureKind,
    MemoryChangeKind,
    MemorySource,
    UndoKind,
    UtteranceSource,
)
from app.offline import OfflineInterpreter
from app.presentation.applied import applied_line, applied_title, applied_words, tool_result_line
from app.presentation.failures import failure_line, failure_words, tool_failure_line
from app.presentation.history import action_text, done_phrase
from app.presentation.memories import memory_counts, memory_said, memory_title, tool_memory_line
from app.presentation.summaries import summarize
from app.presentation.undo import taken_back, undo_text
from app.service import MurmurService
from app.store import Store
from app.vocabulary.words import replacement, term


def create(summary: str, due: str | None = None) -> CreateAction:
    return CreateAction(content=summary, summary=summary, category=Category.TODO, source_text=summary, due_text=due)


def apply(store: Store, clock: Clock, actions: list[Action]) -> ExecutionResult:
    with store.write() as session:
        return execute(session, actions, clock)


def made(store: Store, clock: Clock, summary: str) -> str:
    return apply(store, clock, [create(summary)]).applied[0].entry.id


def one_of_each(store: Store, clock: Clock) -> dict[ActionKind, AppliedAction]:
    """Every kind of action applied once, each to an entry of its own."""
    ids = [made(store, clock, name) for name in ("Call mom", "Buy milk", "Pay rent", "Water plants")]
    actions: list[Action] = [
        create("Call the dentist", "tomorrow 10am"),
        UpdateAction(ids[0], {"priority": 1}),
        CompleteAction(ids[1]),
        ArchiveAction(ids[2]),
        SnoozeAction(ids[3], "friday 9am"),
    ]
    return {item.action.kind: item for item in apply(store, clock, actions).applied}


# What each front end says first of each kind: the CLI's line, the window's detail line.
EXPECTED = {
    ActionKind.CREATE: "created",
    ActionKind.UPDATE: "updated",
    ActionKind.COMPLETE: "completed",
    ActionKind.ARCHIVE: "archived",
    ActionKind.SNOOZE: "snoozed",
}


def test_every_action_kind_is_worded_alike_for_the_cli_the_window_and_the_model(store: Store, clock: Clock) -> None:
    applied = one_of_each(store, clock)
    assert set(applied) == set(ActionKind) == set(EXPECTED)
    for kind, item in applied.items():
        word = EXPECTED[kind]
        assert applied_line(item, clock.now, clock.tz).startswith(f"{word:<9} {item.short_id}  ")
        assert applied_words(item, clock.now, clock.tz).startswith(word.capitalize() + " ")
        assert tool_result_line(item, item.entry.summary).startswith(f"{word} [{item.short_id}] todo ")
    assert applied_words(applied[ActionKind.CREATE], clock.now, clock.tz) == (
        "Created todo “Call the dentist”, due tomorrow 10:00"
    )
    assert applied_words(applied[ActionKind.UPDATE], clock.now, clock.tz) == "Updated “Call mom” (priority)"
    assert (
        applied_words(applied[ActionKind.SNOOZE], clock.now, clock.tz)
        == "Snoozed “Water plants” until Fri 27 Nov 09:00"
    )


def test_a_title_groups_the_kinds_and_counts_the_failures(store: Store, clock: Clock) -> None:
    applied = list(one_of_each(store, clock).values())
    failure = ActionFailure("complete", "no entry has ID 'ffff'", cause=Cause(FailureKind.NOT_FOUND, prefix="ffff"))
    assert applied_title(applied, [failure], clock.now, clock.tz) == (
        "Created “Call the dentist”, updated “Call mom”, completed “Buy milk”, archived “Pay rent”, "
        "snoozed “Water plants” (1 couldn't be processed)"
    )
    assert summarize(applied, [failure]) == (
        "1 created, 1 updated, 1 completed, 1 archived, 1 snoozed (1 couldn't be processed)"
    )
    assert summarize([], [failure]) == "Nothing changed (1 failed)"
    assert summarize([], []) == "Nothing changed"


def failed(store: Store, clock: Clock, action: Action) -> ActionFailure:
    [failure] = apply(store, clock, [action]).failures
    return failure


def test_each_failure_kind_is_data_the_window_words_without_reading_the_error(store: Store, clock: Clock) -> None:
    milk = made(store, clock, "Buy oat milk")
    made(store, clock, "Buy almond milk")
    offline = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    ambiguous = offline.submit("the milk is done").failures[0]
    apply(store, clock, [CompleteAction(milk)])
    said = {
        FailureKind.NOT_FOUND: failed(store, clock, CompleteAction("ffffff")),
        FailureKind.AMBIGUOUS: ambiguous,
        FailureKind.INVALID: failed(store, clock, CompleteAction(milk)),
    }
    assert set(said) == set(FailureKind), "a new kind of failure needs its words here"
    assert {kind: failure.cause.kind for kind, failure in said.items()} == {kind: kind for kind in FailureKind}
    assert said[FailureKind.NOT_FOUND].cause.prefix == "ffffff"
    assert sorted(ambiguous.cause.candidates) == ["Buy almond milk", "Buy oat milk"]
    assert ambiguous.cause.subject == "the milk" and said[FailureKind.INVALID].cause.subject == "Buy oat milk"
    words = {kind: failure_words(failure) for kind, failure in said.items()}
    assert words[FailureKind.NOT_FOUND] == "Couldn't complete: no entry has that ID"
    assert words[FailureKind.AMBIGUOUS].startswith("Couldn't complete “the milk”: it is ambiguous: it could be 'Buy ")
    assert words[FailureKind.INVALID] == "Couldn't complete “Buy oat milk”: it is already completed"
    assert failure_line(said[FailureKind.INVALID]) == "complete failed: 'Buy oat milk' is already completed"
    assert tool_failure_line(said[FailureKind.NOT_FOUND]) == (
        "Error: complete [ffffff] failed: no entry has ID 'ffffff'"
    )


def test_a_failure_of_another_tool_names_no_verb() -> None:
    refused = ActionFailure("remember", "the memory contains a NUL byte")
    assert failure_words(refused) == "Couldn't do it: the memory contains a NUL byte"


def memory_changes(store: Store, clock: Clock) -> dict[MemoryChangeKind, MemoryChange]:
    with store.write() as session:
        kept = remember(session, "My brother is Tom", MemorySource.USER, clock.now)
        edited = edit_memory(session, kept.short_id, "My brother is Tim", clock.now)
        forgot = forget(session, kept.short_id, clock.now)
    return {change.kind: change for change in (kept, edited, forgot)}


@pytest.mark.parametrize(
    ("kind", "done"),
    [(MemoryChangeKind.REMEMBER, "Remembered"), (MemoryChangeKind.EDIT, "Edited"), (MemoryChangeKind.FORGET, "Forgot")],
)
def test_each_memory_change_is_worded_alike_everywhere(
    store: Store, clock: Clock, kind: MemoryChangeKind, done: str
) -> None:
    change = memory_changes(store, clock)[kind]
    text = change.memory.text
    assert memory_said(change) == f"{done} {change.short_id}: {text}"
    assert memory_title(change) == f"{done}: {text}"
    assert tool_memory_line(change) == f"{done} [{change.short_id}] {text}"


def test_every_memory_change_kind_is_counted(store: Store, clock: Clock) -> None:
    changes = memory_changes(store, clock)
    assert set(changes) == set(MemoryChangeKind)
    assert memory_counts(list(changes.values())) == "1 remembered, 1 forgotten, 1 edited"
    with store.write() as session:
        again = remember(session, "Likes tea", MemorySource.USER, clock.now)
        again = remember(session, "likes  tea", MemorySource.USER, clock.now)
    assert again.confirmed and memory_title(again) == "Already remembered: Likes tea"
    assert summarize([], [], [again]) == "1 remembered"


def test_every_kind_the_history_keeps_is_worded(store: Store, clock: Clock) -> None:
    names = {item.entry.id: item.entry.summary for item in one_of_each(store, clock).values()}  # as listed now
    memory_changes(store, clock)
    offline = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    waiting = offline.submit("the xyzzy is done").utterance_id
    offline.dismiss(waiting)
    said = offline.submit("the plugh is done", UtteranceSource.VOICE, audio=bytes(32_000)).utterance_id  # 1 s
    offline.forget_audio(said)
    offline.keep_words([term("Siobhan")])
    offline.remove_word("Siobhan")
    with store.read() as session:
        items = [item for batch in history(session, limit=50) for item in batch.items]
    worded = {item.kind: action_text(item, names, clock.now, clock.tz) for item in items}
    assert set(worded) == set(UndoKind)
    assert worded[UndoKind.FORGET_AUDIO] == "Forgot the sound of “the plugh is done”"
    assert worded[UndoKind.ADD] == "Added “Siobhan”"
    assert worded[UndoKind.REMOVE] == "Removed “Siobhan”"
    assert worded[UndoKind.UPDATE] == "Updated “Call mom”: priority 1"
    assert worded[UndoKind.EDIT] == "Edited “My brother is Tim”"
    assert worded[UndoKind.DISMISS] == "Dismissed “the xyzzy is done”"
    assert done_phrase(UndoKind.FORGET, "My brother is Tim") == 'forgot "My brother is Tim"'


def test_an_undo_says_what_it_reverted_and_what_it_left(store: Store, clock: Clock) -> None:
    entry_id = made(store, clock, "Buy milk")
    apply(store, clock, [UpdateAction(entry_id, {"priority": 2})])
    later = Clock(now=clock.now + timedelta(minutes=1), tz=clock.tz)
    with store.write() as session:
        first = history(session, limit=5)[1].batch
    with store.write() as session:
        assert undo_text(undo_latest(session, later.now), {entry_id: "Buy milk"}) == "Undone: “Buy milk” is as it was"
    apply(store, later, [UpdateAction(entry_id, {"priority": 3})])
    with store.write() as session:
        assert first.id is not None
        text = undo_text(undo_batch_id(session, first.id, later.now), {entry_id: "Buy milk"})
    assert text == "Nothing undone: 1 left as it is (the entry was changed again since; left as it is now)"


def test_an_undo_names_what_came_back_or_went(store: Store, clock: Clock) -> None:
    applied = one_of_each(store, clock)
    names = {item.entry.id: item.entry.summary for item in applied.values()}
    del names[applied[ActionKind.CREATE].entry.id]  # gone once its making is undone: named as it was made
    with store.write() as session:
        undone = undo_latest(session, clock.now)
    assert (
        undo_text(undone, names)
        == "Undone: “Water plants” is no longer snoozed, “Pay rent” is back on your list and 3 more"
    )
    assert [taken_back(record, names) for record in undone.reverted] == [
        "“Water plants” is no longer snoozed",
        "“Pay rent” is back on your list",
        "“Buy milk” is open again",
        "“Call mom” is as it was",
        "removed “Call the dentist”",
    ]
    with store.write() as session:
        change = remember(session, "My brother is Tom", MemorySource.USER, clock.now)
    with store.write() as session:
        assert undo_text(undo_latest(session, clock.now), {}) == "Undone: forgot “My brother is Tom”"
    assert change.batch_id is not None
    words = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    words.keep_words([replacement("jay son", "JSON")])
    words.remove_word("JSON")
    assert undo_text(words.undo(), {}) == "Undone: “jay son -> JSON” is one of your words again"
    assert undo_text(words.undo(), {}) == "Undone: “jay son -> JSON” is no longer one of your words"


def test_a_list_s_items_changed_are_named_with_the_list(store: Store, clock: Clock) -> None:
    made_list = CreateAction("Picnic list", "Picnic list", Category.LIST, "picnic list", items=("rolls", "jam", "tea"))
    list_id = apply(store, clock, [made_list]).applied[0].entry.id
    removed = apply(store, clock, [UpdateAction(list_id, {"remove_items": ("jam", "tea")})]).applied
    added = apply(store, clock, [UpdateAction(list_id, {"add_items": ("cake",)})]).applied
    assert applied_title(removed, [], clock.now, clock.tz) == "Removed “jam” and “tea” from “Picnic list”"
    assert applied_words(added[0], clock.now, clock.tz) == "Added “cake” to “Picnic list”"
    assert applied_title([*removed, *added], [], clock.now, clock.tz) == (
        "Added “cake” to “Picnic list”, removed “jam” and “tea” from “Picnic list”"
    )
    with store.read() as session:
        items = [item for batch in history(session, limit=5) for item in batch.items]
    names = {list_id: "Picnic list"}
    assert [action_text(item, names, clock.now, clock.tz) for item in items][:2] == [
        "Added “cake” to “Picnic list”",
        "Removed “jam” and “tea” from “Picnic list”",
    ]


def test_a_date_in_history_is_worded_as_everywhere_else(store: Store, clock: Clock) -> None:
    """A due or a snooze's end in History reads as the app says a moment ("Sat 5 Dec 20:00"), whatever the words
    that set it: an assistant's ISO date, the rules' date, or a phrase read when it was said."""
    ids = [made(store, clock, name) for name in ("Call mom", "Pay rent", "Water plants")]
    apply(
        store,
        clock,
        [
            UpdateAction(ids[0], {"due_date": "2026-12-05T20:00"}),
            UpdateAction(ids[1], {"due_date": "tomorrow 10am", "snooze_until": "friday 9am"}),
            SnoozeAction(ids[2], "friday 9am"),
        ],
    )
    later = replace(clock, now=clock.now + timedelta(days=1))  # "tomorrow" is the day it was said of
    with store.read() as session:
        items = [item for batch in history(session, limit=1) for item in batch.items]
    names = {ids[0]: "Call mom", ids[1]: "Pay rent", ids[2]: "Water plants"}
    assert [action_text(item, names, later.now, later.tz) for item in items] == [
        "Updated “Call mom”: due Sat 5 Dec 20:00",
        "Updated “Pay rent”: due today 10:00, snoozed until Fri 27 Nov 09:00",
        "Snoozed “Water plants” until Fri 27 Nov 09:00",
    ]
