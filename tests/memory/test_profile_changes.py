"""The user's memories on a real SQLite file: remember (or confirm), forget, edit, each undone exactly; lookup
by short ID; the profile lines under a token budget."""

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from app.changes.memories import edit_memory, forget, remember
from app.changes.undo import undo_batch_id, undo_latest
from app.domain.clock import Clock
from app.domain.defaults import MAX_MEMORY_CHARS
from app.domain.enums import MemorySource, UndoSubject
from app.errors import AmbiguousIdError, MemoryNotFoundError, UsageError
from app.memory.profile import active_memories, profile_lines, short_memory_ids
from app.memory.tokens import estimate_tokens
from app.store import Store
from app.store.models import Memory, UndoBatch, UndoItem


def rows(db_path: Path) -> list[tuple[object, ...]]:
    """Every memory row as SQLite stores it, read by a separate plain connection."""
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT * FROM memories ORDER BY id").fetchall()


def at(clock: Clock, minutes: int) -> Clock:
    return Clock(now=clock.now + timedelta(minutes=minutes), tz=clock.tz)


def add(store: Store, text: str, clock: Clock) -> str:
    with store.write() as session:
        return remember(session, text, MemorySource.USER, clock.now).memory.id


def undo(store: Store, clock: Clock) -> None:
    with store.write() as session:
        result = undo_latest(session, clock.now)
    assert len(result.reverted) == 1 and result.conflicts == []


def test_remember_keeps_a_new_memory_and_undo_deletes_it(store: Store, clock: Clock, db_path: Path) -> None:
    with store.write() as session:
        change = remember(session, "  My brother is Tom \n", MemorySource.USER, clock.now)
    assert change.kind == "remember" and not change.confirmed
    assert change.memory.text == "My brother is Tom" and change.memory.revision == 1
    assert change.short_id == change.memory.id[:6]
    with store.read() as session:
        batch = session.get(UndoBatch, change.batch_id)
        item = session.get(UndoItem, change.undo_item_id)
    assert batch is not None and batch.label == 'remembered "My brother is Tom"'
    assert item is not None and item.subject is UndoSubject.MEMORY and item.kind == "remember"
    assert item.entry_id == change.memory.id and item.before_row is None
    assert rows(db_path)[0][1:3] == ("My brother is Tom", "user")
    undo(store, at(clock, 1))
    assert rows(db_path) == []


def test_the_same_fact_again_is_confirmed_not_added(store: Store, clock: Clock, db_path: Path) -> None:
    first = add(store, "My brother is Tom", clock)
    before = rows(db_path)
    with store.write() as session:
        change = remember(session, "my   BROTHER is tom", MemorySource.MODEL, at(clock, 5).now, utterance_id=None)
    assert change.confirmed and change.memory.id == first and change.memory.revision == 2
    assert change.memory.text == "My brother is Tom" and change.memory.source is MemorySource.USER
    assert change.memory.used_at == at(clock, 5).now
    assert len(rows(db_path)) == 1
    undo(store, at(clock, 6))
    assert rows(db_path) == before  # the confirmation taken back, byte for byte


def test_forget_hides_the_memory_and_undo_brings_it_back(store: Store, clock: Clock, db_path: Path) -> None:
    memory_id = add(store, "Prefers mornings", clock)
    before = rows(db_path)
    with store.write() as session:
        change = forget(session, memory_id[:6], at(clock, 1).now)
    assert change.kind == "forget" and change.memory.forgotten_at == at(clock, 1).now
    with store.read() as session:
        assert active_memories(session) == []
        with pytest.raises(MemoryNotFoundError):  # a forgotten memory is not found
            forget(session, memory_id[:6], at(clock, 2).now)
    undo(store, at(clock, 2))
    assert rows(db_path) == before
    with store.read() as session:
        assert [m.text for m in active_memories(session)] == ["Prefers mornings"]


def test_edit_and_its_undo(store: Store, clock: Clock, db_path: Path) -> None:
    memory_id = add(store, "Works at Acme", clock)
    before = rows(db_path)
    with store.write() as session:
        change = edit_memory(session, memory_id, " Works at Initech ", at(clock, 3).now)
    memory = change.memory
    assert change.kind == "edit" and memory.text == "Works at Initech" and memory.revision == 2
    assert memory.updated_at == memory.used_at == at(clock, 3).now
    assert memory.created_at == clock.now
    undo(store, at(clock, 4))
    assert rows(db_path) == before


def test_undo_leaves_a_memory_changed_since(store: Store, clock: Clock) -> None:
    memory_id = add(store, "Likes tea", clock)
    with store.write() as session:
        edited = edit_memory(session, memory_id, "Likes green tea", at(clock, 1).now)
    with store.write() as session:  # the remember, undone after the edit: the edit is kept
        result = undo_batch_id(session, edited.batch_id - 1, at(clock, 2).now)
    assert (
        result.reverted == []
        and result.conflicts[0].conflict == "the memory was changed again since; left as it is now"
    )
    with store.read() as session:
        assert [m.text for m in active_memories(session)] == ["Likes green tea"]


def test_changes_join_a_batch_they_are_given(store: Store, clock: Clock, db_path: Path) -> None:
    with store.write() as session:
        batch = UndoBatch(label="one utterance", created_at=clock.now)
        session.add(batch)
        session.flush()
        assert batch.id is not None
        one = remember(session, "Has a cat called Miso", MemorySource.MODEL, clock.now, batch_id=batch.id)
        two = remember(session, "Lives in Leipzig", MemorySource.MODEL, clock.now, batch_id=batch.id)
        forget(session, one.memory.id, clock.now, batch_id=batch.id)
    assert one.batch_id == two.batch_id == batch.id
    with store.read() as session:
        positions = list(session.exec(select(UndoItem.position).where(UndoItem.batch_id == batch.id)).all())
    assert sorted(positions) == [0, 1, 2]
    with store.write() as session:
        undo_latest(session, at(clock, 1).now)
    assert rows(db_path) == []


@pytest.mark.parametrize("text", ["", "   \n ", "x" * (MAX_MEMORY_CHARS + 1)])
def test_bad_text_is_refused_and_nothing_is_stored(store: Store, clock: Clock, db_path: Path, text: str) -> None:
    with pytest.raises(UsageError) as raised, store.write() as session:
        remember(session, text, MemorySource.USER, clock.now)
    assert "\n" not in str(raised.value)
    assert rows(db_path) == []
    memory_id = add(store, "x" * MAX_MEMORY_CHARS, clock)  # the limit itself is fine
    with pytest.raises(UsageError), store.write() as session:
        edit_memory(session, memory_id, text, clock.now)


def test_lookup_by_prefix_errors(store: Store, clock: Clock) -> None:
    ids = ["aaaa1111" + "0" * 24, "aaaa2222" + "0" * 24, "bbbb3333" + "0" * 24]
    with store.write() as session:
        for memory_id in ids:
            session.add(Memory(id=memory_id, text=f"fact {memory_id[:4]}", source=MemorySource.USER))
    cases = [
        ("zzzz", MemoryNotFoundError, "is not a memory ID"),
        ("aaa", MemoryNotFoundError, "too short"),
        ("cccc", MemoryNotFoundError, "no memory has ID 'cccc'"),
        ("aaaa", AmbiguousIdError, "matches 2 memories (aaaa11, aaaa22)"),
    ]
    for prefix, error, message in cases:
        with pytest.raises(error) as raised, store.write() as session:
            forget(session, prefix, clock.now)
        assert message in str(raised.value) and "\n" not in str(raised.value)
    with store.write() as session:
        assert forget(session, "BBBB-3333", clock.now).memory.id == ids[2]  # case and dashes do not matter


def test_short_ids_are_unique_prefixes(store: Store, clock: Clock) -> None:
    ids = ["abcdef12" + "0" * 24, "abcdef13" + "0" * 24, "123456" + "0" * 26]
    with store.write() as session:
        for memory_id in ids:
            session.add(Memory(id=memory_id, text="t", source=MemorySource.USER))
    with store.read() as session:
        assert short_memory_ids(session) == {ids[0]: "abcdef12", ids[1]: "abcdef13", ids[2]: "123456"}


def test_profile_lines_most_recent_first_within_the_budget(store: Store, clock: Clock) -> None:
    texts = ["My brother is Tom", "Prefers short answers", "Works night shifts on Fridays"]
    ids = [add(store, text, at(clock, minute)) for minute, text in enumerate(texts)]
    with store.write() as session:  # confirming the oldest makes it the most recently used
        remember(session, texts[0], MemorySource.MODEL, at(clock, 10).now)
    with store.read() as session:
        shorts = short_memory_ids(session)
        every = profile_lines(session, 10_000)
        assert every == [
            f'[{shorts[ids[0]]}] "My brother is Tom"',
            f'[{shorts[ids[2]]}] "Works night shifts on Fridays"',
            f'[{shorts[ids[1]]}] "Prefers short answers"',
        ]
        costs = [estimate_tokens(line) for line in every]
        assert profile_lines(session, costs[0] + costs[1]) == every[:2]
        assert profile_lines(session, costs[0] + costs[1] - 1) == every[:1]
        assert profile_lines(session, costs[0] - 1) == []


def test_profile_lines_are_one_line_each(store: Store, clock: Clock) -> None:
    add(store, "Allergic to\npeanuts", clock)
    with store.read() as session:
        [line] = profile_lines(session, 300)
    assert line.endswith('] "Allergic to peanuts"')
