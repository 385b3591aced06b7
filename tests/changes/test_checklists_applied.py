"""Checklist items through the executor and the service: ticked one by one, added, taken back, each undoable."""

from collections.abc import Sequence

import pytest
from sqlalchemy import text

from app.changes.executor import ExecutionResult, execute
from app.domain.actions import Action, CompleteAction, CreateAction, UpdateAction, parse_action
from app.domain.checklist import load_items
from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.errors import InvalidActionError, UsageError
from app.offline import OfflineInterpreter
from app.presentation.summaries import summarize
from app.service import MurmurService
from app.store import Store
from app.store.models import Entry


def run(store: Store, clock: Clock, actions: Sequence[Action]) -> ExecutionResult:
    with store.write() as session:
        return execute(session, actions, clock)


def make(store: Store, clock: Clock, summary: str, items: tuple[str, ...] = ()) -> str:
    create = CreateAction(content=summary, summary=summary, category=Category.TODO, source_text=summary, items=items)
    return run(store, clock, [create]).applied[0].entry.id


def stored(store: Store, entry_id: str) -> Entry:
    with store.read() as session:
        found = session.get(Entry, entry_id)
        assert found is not None
        return found


def ticks(store: Store, entry_id: str) -> list[tuple[str, bool]]:
    return [(item.text, item.done) for item in load_items(stored(store, entry_id).items)]


@pytest.fixture
def service(store: Store, clock: Clock) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)


def test_a_new_entry_keeps_its_items_unticked_and_said_once(store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Buy eggs and bread", ("eggs", "bread", "Eggs"))
    assert ticks(store, entry_id) == [("eggs", False), ("bread", False)]
    assert stored(store, make(store, clock, "Call the plumber")).items is None


def test_items_are_ticked_one_by_one_and_the_last_completes_the_entry(store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Buy eggs, bread and milk")  # no items stored: they are read from the summary
    result = run(store, clock, [CompleteAction(entry_id, item="the milk")])
    assert (summarize(result.applied, result.failures), result.applied[0].note) == ("1 ticked", "1 of 3 done")
    assert stored(store, entry_id).status is Status.ACTIVE
    assert ticks(store, entry_id) == [("eggs", False), ("bread", False), ("milk", True)]
    last = run(store, clock, [CompleteAction(entry_id, item="eggs"), CompleteAction(entry_id, item="bread")])
    assert [a.note for a in last.applied] == ["2 of 3 done", "all 3 items done"]
    assert stored(store, entry_id).status is Status.COMPLETED


@pytest.mark.parametrize(
    ("item", "error"),
    [
        ("milk", "'milk' on 'Buy eggs, bread and milk' is already ticked"),
        ("tea", "'tea' names no one item of 'Buy eggs, bread and milk' (its items: eggs, bread, milk)"),
    ],
)
def test_a_tick_that_cannot_be_made_is_one_line_and_changes_nothing(
    store: Store, clock: Clock, item: str, error: str
) -> None:
    entry_id = make(store, clock, "Buy eggs, bread and milk")
    run(store, clock, [CompleteAction(entry_id, item="milk")])
    before = stored(store, entry_id)
    result = run(store, clock, [CompleteAction(entry_id, item=item)])
    assert [f.error for f in result.failures] == [error] and not result.applied
    assert stored(store, entry_id) == before


def test_an_entry_without_items_is_completed_as_a_whole(store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Call the plumber")
    result = run(store, clock, [CompleteAction(entry_id, item="plumber")])
    assert [f.error for f in result.failures] == ["'Call the plumber' has no items; complete it as a whole"]


def test_a_completed_entry_s_items_are_not_ticked(store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Buy eggs and bread")
    run(store, clock, [CompleteAction(entry_id)])
    result = run(store, clock, [CompleteAction(entry_id, item="eggs")])
    error = "'Buy eggs and bread' is completed; only an open entry's items change"
    assert [f.error for f in result.failures] == [error]


def test_items_are_added_once_to_an_open_entry(store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Shopping list: eggs")
    added = run(store, clock, [UpdateAction(entry_id, {"add_items": ("butter", "Eggs", "jam")})]).applied[0]
    assert added.note == "added butter, jam"
    assert ticks(store, entry_id) == [("eggs", False), ("butter", False), ("jam", False)]
    # A title that repeated its items is the list's name once they change: it would no longer say what is on it.
    again = run(store, clock, [UpdateAction(entry_id, {"add_items": ("JAM",)})])
    assert [f.error for f in again.failures] == ["JAM: already on 'Shopping list'"]
    run(store, clock, [CompleteAction(entry_id)])
    closed = run(store, clock, [UpdateAction(entry_id, {"add_items": ("tea",)})])
    assert [f.error for f in closed.failures] == ["'Shopping list' is completed; only an open entry's items change"]


def test_a_habit_s_checklist_starts_afresh_at_its_next_occurrence(store: Store, clock: Clock) -> None:
    action = parse_action(
        "create", {"content": "Gym bag", "category": "habit", "repeat": "daily", "items": ["towel", "shoes"]}
    )
    entry_id = run(store, clock, [action]).applied[0].entry.id
    run(store, clock, [CompleteAction(entry_id, item="towel"), CompleteAction(entry_id, item="shoes")])
    assert ticks(store, entry_id) == [("towel", False), ("shoes", False)]
    assert stored(store, entry_id).status is Status.ACTIVE


def test_each_item_is_undone_on_its_own(service: MurmurService, store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Buy eggs and bread")
    service.tick_item(entry_id, "eggs")
    service.tick_item(entry_id, "bread")
    assert stored(store, entry_id).status is Status.COMPLETED
    service.undo()
    assert stored(store, entry_id).status is Status.ACTIVE
    assert ticks(store, entry_id) == [("eggs", True), ("bread", False)]
    service.undo()
    assert stored(store, entry_id).items is None  # back to the items its summary names


def test_untick_takes_an_item_back_and_reopens_what_its_last_item_completed(
    service: MurmurService, store: Store, clock: Clock
) -> None:
    entry_id = make(store, clock, "Buy eggs and bread")
    service.tick_item(entry_id, "eggs")
    service.tick_item(entry_id, "bread")
    result = service.untick_item(entry_id, "bread")
    assert result.applied[0].note == "1 of 2 done" and stored(store, entry_id).status is Status.ACTIVE
    assert [f.error for f in service.untick_item(entry_id, "bread").failures] == [
        "'bread' on 'Buy eggs and bread' is not ticked"
    ]


def test_the_service_adds_items_and_refuses_none(service: MurmurService, store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Packing list: passport")
    assert not service.add_items(entry_id, ["charger", "sunscreen"]).failures
    assert [text for text, _ in ticks(store, entry_id)] == ["passport", "charger", "sunscreen"]
    with pytest.raises(UsageError, match="add_items needs at least one item"):
        service.add_items(entry_id, [" "])


def test_an_item_change_queues_the_entry_for_sync(service: MurmurService, store: Store, clock: Clock) -> None:
    entry_id = make(store, clock, "Buy eggs and bread")
    with store.write() as session:
        session.execute(text("DELETE FROM sync_outbox"))
    service.tick_item(entry_id, "eggs")
    with store.read() as session:
        assert session.execute(text("SELECT entry_id FROM sync_outbox")).scalars().all() == [entry_id]


def test_items_in_loose_input_are_parsed(store: Store, clock: Clock) -> None:
    update = parse_action("update", {"id": "abc", "fields": {"add_items": "jam and butter"}})
    assert isinstance(update, UpdateAction) and update.changes == {"add_items": ("jam", "butter")}
    complete = parse_action("complete", {"id": "abc", "item": " milk "})
    assert isinstance(complete, CompleteAction) and complete.item == "milk"
    create = parse_action("create", {"content": "Buy things", "items": ["eggs", " ", 3]})
    assert isinstance(create, CreateAction) and create.items == ("eggs", "3")
    with pytest.raises(InvalidActionError, match="items must be a list of texts, got dict"):
        parse_action("create", {"content": "Buy things", "items": {"eggs": 1}})
