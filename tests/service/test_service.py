"""The pipeline service: the utterance is saved first, failures wait in the inbox, retry works."""

import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlmodel import select

from app.bounds.limits import MAX_UTTERANCE_CHARS
from app.changes.interpretation import InterpretContext
from app.changes.workspace import Workspace
from app.domain.actions import ParseFailure, ParseResult, parse_actions
from app.domain.clock import Clock
from app.domain.enums import Category, MemorySource, Status, UtteranceOutcome, UtteranceSource
from app.errors import UsageError
from app.memory.context import assemble_entries
from app.memory.entry_search import SearchRequest, search_page
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from app.store.models import Entry, Utterance
from tests.support.store_writes import CountingStore


@dataclass
class ScriptedInterpreter:
    """A real Interpreter whose answer each test chooses (the offline rules are tested on their own)."""

    answer: Callable[[str, InterpretContext], ParseResult]
    name: str = "scripted"
    seen: list[InterpretContext] = field(default_factory=list)

    def interpret(self, text: str, context: InterpretContext) -> ParseResult:
        self.seen.append(context)
        return self.answer(text, context)


def creates(text: str, _: InterpretContext) -> ParseResult:
    return parse_actions([("create", {"content": part}) for part in text.split(" and ")])


def service_with(store: Store, clock: Clock, answer: Callable[[str, InterpretContext], ParseResult]) -> MurmurService:
    return MurmurService(store=store, interpreter=ScriptedInterpreter(answer), clock=lambda: clock)


def utterances(store: Store) -> list[Utterance]:
    with store.read() as session:
        return list(session.exec(select(Utterance)).all())


def test_submit_saves_the_utterance_and_applies_its_actions(store: Store, clock: Clock) -> None:
    result = service_with(store, clock, creates).submit("  buy milk and call mom ", UtteranceSource.TYPED)
    assert result.summary == "2 created" and result.undo_id is not None
    [saved] = utterances(store)
    assert (saved.text, saved.source, saved.outcome, saved.attempts) == (
        "buy milk and call mom",
        UtteranceSource.TYPED,
        UtteranceOutcome.DONE,
        1,
    )
    with store.read() as session:
        assert {e.utterance_id for e in session.exec(select(Entry)).all()} == {saved.id}


def test_the_utterance_is_committed_before_interpretation(store: Store, clock: Clock) -> None:
    def peek(text: str, context: InterpretContext) -> ParseResult:
        # A separate connection must already see the pending utterance.
        [pending] = utterances(store)
        assert pending.outcome is UtteranceOutcome.PENDING and pending.text == text
        return creates(text, context)

    service_with(store, clock, peek).submit("water plants")
    assert utterances(store)[0].outcome is UtteranceOutcome.DONE


def test_an_interpreter_crash_keeps_the_utterance_in_the_inbox(store: Store, clock: Clock) -> None:
    def crash(text: str, context: InterpretContext) -> ParseResult:
        raise RuntimeError("model server exploded")

    service = service_with(store, clock, crash)
    with pytest.raises(RuntimeError):
        service.submit("remember the milk")
    [waiting] = service.inbox()
    assert waiting.outcome is UtteranceOutcome.FAILED and "model server exploded" in (waiting.error or "")
    service.interpreter = ScriptedInterpreter(creates)
    result = service.retry(waiting.id or 0)
    assert result.summary == "1 created"
    assert service.inbox() == [] and utterances(store)[0].attempts == 2


def test_nothing_applied_leaves_the_utterance_failed_with_the_reasons(store: Store, clock: Clock) -> None:
    def unmatched(text: str, context: InterpretContext) -> ParseResult:
        return ParseResult(actions=[], failures=[ParseFailure(tool="complete", error="no open entry matches 'milk'")])

    result = service_with(store, clock, unmatched).submit("milk is done")
    assert result.applied == [] and result.undo_id is None
    [failed] = utterances(store)
    assert failed.outcome is UtteranceOutcome.FAILED and failed.error == "no open entry matches 'milk'"


def test_retrying_an_applied_utterance_is_refused(store: Store, clock: Clock) -> None:
    service = service_with(store, clock, creates)
    result = service.submit("buy milk")
    with pytest.raises(UsageError, match="already applied"):
        service.retry(result.utterance_id)
    with pytest.raises(UsageError, match="no utterance 42"):
        service.retry(42)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the text is empty"),
        (" \n\t ", "the text is empty"),
        ("x" * (MAX_UTTERANCE_CHARS + 1), "too long"),
        ("a\x00b", "NUL byte"),
    ],
)
def test_bad_text_is_refused_and_nothing_is_saved(store: Store, clock: Clock, text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        service_with(store, clock, creates).submit(text)
    assert utterances(store) == []


def test_the_interpreter_sees_active_and_snoozed_entries_only(store: Store, clock: Clock) -> None:
    service = service_with(store, clock, creates)
    ids = [a.entry.id for a in service.submit("a and b and c and d").applied]
    service.apply(
        parse_actions(
            [("complete", {"id": ids[0]}), ("archive", {"id": ids[1]}), ("snooze", {"id": ids[2], "until": "friday"})]
        ).actions
    )
    service.submit("e")
    seen = service.interpreter.seen[-1]  # type: ignore[attr-defined]
    assert sorted(e.summary for e in seen.entries) == ["C", "D"]
    assert seen.clock == clock


def test_snoozed_entries_wake_when_their_time_comes(store: Store, clock: Clock) -> None:
    service = service_with(store, clock, creates)
    entry_id = service.submit("renew passport").applied[0].entry.id
    service.apply(parse_actions([("snooze", {"id": entry_id, "until": "in 2 hours"})]).actions)
    assert [e.id for e in service.entries([Status.SNOOZED])] == [entry_id]
    service.clock = lambda: Clock(now=clock.now.replace(hour=21), tz=clock.tz)
    [woken] = service.entries([Status.ACTIVE])
    assert woken.id == entry_id and woken.snooze_until is None


def snoozed_until_21h(service: MurmurService, clock: Clock) -> tuple[str, MurmurService]:
    """An entry snoozed until 21:00, and the same service at 21:30, when the snooze has ended."""
    entry_id = service.submit("renew passport").applied[0].entry.id
    service.apply(parse_actions([("snooze", {"id": entry_id, "until": "today at 21:00"})]).actions)
    later = Clock(now=clock.now.replace(hour=21, minute=30), tz=clock.tz)
    return entry_id, MurmurService(store=service.store, interpreter=service.interpreter, clock=lambda: later)


def stored_status(store: Store, entry_id: str) -> Status:
    with store.read() as session:
        entry = session.get(Entry, entry_id)
        assert entry is not None
        return entry.status


def test_listing_writes_nothing_and_shows_an_ended_snooze_as_active(store: Store, clock: Clock) -> None:
    entry_id, later = snoozed_until_21h(service_with(store, clock, creates), clock)
    with closing(sqlite3.connect(store.path)) as watcher:
        version = watcher.execute("PRAGMA data_version").fetchone()[0]
        [woken] = later.entries([Status.ACTIVE])
        assert later.entries([Status.SNOOZED]) == []
        assert (woken.id, woken.status, woken.snooze_until) == (entry_id, Status.ACTIVE, None)
        assert watcher.execute("PRAGMA data_version").fetchone()[0] == version, "a read committed a change"
    assert stored_status(store, entry_id) is Status.SNOOZED
    later.submit("water plants")  # the next write persists the wake-up
    assert stored_status(store, entry_id) is Status.ACTIVE


def test_a_read_only_database_lists_an_ended_snooze_as_active(store: Store, clock: Clock) -> None:
    entry_id, later = snoozed_until_21h(service_with(store, clock, creates), clock)
    # SQLite refuses every write from now on, as for a file it may only read (chmod 0444 does not stop root).
    store.engine.dispose()
    event.listen(store.engine, "connect", lambda connection, _record: connection.execute("PRAGMA query_only = ON"))
    [woken] = later.entries(list(Status))
    assert (woken.id, woken.status, woken.snooze_until) == (entry_id, Status.ACTIVE, None)


def test_the_interpreter_and_the_agent_read_an_ended_snooze_as_active(store: Store, clock: Clock) -> None:
    entry_id, later = snoozed_until_21h(service_with(store, clock, creates), clock)
    workspace = Workspace(store, later.clock(), utterance_id=1)
    assert [(e.id, e.status) for e in workspace.context_entries()] == [(entry_id, Status.ACTIVE)]
    now, tz = later.clock().now, later.clock().tz
    with store.read() as session:
        shown = assemble_entries(session, now, tz, "the passport", budget=1500)
        found = search_page(session, now, SearchRequest("passport", statuses=(Status.ACTIVE,)))
    assert shown.open_total == shown.open_shown == 1 and "status:" not in shown.lines[0]  # awake: active
    assert [row.id for row in found.rows] == [entry_id]
    assert stored_status(store, entry_id) is Status.SNOOZED


def test_an_offline_utterance_is_two_write_transactions(db_path: Path, clock: Clock) -> None:
    def unmatched(text: str, context: InterpretContext) -> ParseResult:
        return ParseResult(actions=[], failures=[ParseFailure(tool="complete", error="no open entry matches")])

    store = CountingStore.open(db_path)
    try:
        runs = {
            "applied": lambda: service_with(store, clock, creates).submit("buy milk and call mom"),
            "nothing applied": lambda: service_with(store, clock, unmatched).submit("eggs are done"),
            "retried": lambda: service_with(store, clock, creates).retry(2),
        }
        for name, run in runs.items():
            before = store.writes
            run()
            assert store.writes - before == 2, name
    finally:
        store.close()


def offline_service(store: Store, clock: Clock) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)


def test_a_fact_said_to_the_offline_rules_is_remembered_and_undone_with_its_utterance(
    store: Store, clock: Clock
) -> None:
    service = offline_service(store, clock)
    result = service.submit("remember that my brother's birthday is May 5")
    [change] = result.memory_changes
    assert (change.kind, change.memory.source, result.applied) == ("remember", MemorySource.USER, [])
    assert [m.text for _, m in service.memories()] == ["My brother's birthday is May 5"]
    assert result.summary.endswith("1 remembered") and utterances(store)[0].outcome is UtteranceOutcome.DONE
    service.undo()
    assert service.memories() == []


def test_a_remembered_day_gives_the_next_utterance_its_due(store: Store, clock: Clock) -> None:
    service = offline_service(store, clock)
    service.submit("remember that my brother's birthday is May 5")
    [applied] = service.submit("order a cake for my brother's birthday").applied
    [entry] = service.entries((Status.ACTIVE,))
    assert applied.entry.id == entry.id and entry.summary == "Order a cake"
    assert entry.due_at is not None and entry.due_at.astimezone(clock.tz).replace(tzinfo=None).isoformat() == (
        "2027-05-05T09:00:00"
    )


def test_a_fact_and_a_task_in_one_breath_are_one_undo(store: Store, clock: Clock) -> None:
    service = offline_service(store, clock)
    result = service.submit("remember that I'm vegetarian. Buy tofu tomorrow")
    assert [e.summary for e in service.entries((Status.ACTIVE,))] == ["Buy tofu"]
    assert len(result.memory_changes) == 1 and result.memory_changes[0].batch_id == result.undo_id
    service.undo()
    assert service.memories() == [] and service.entries((Status.ACTIVE,)) == []


def test_other_things_to_remember_stay_notes(store: Store, clock: Clock) -> None:
    service = offline_service(store, clock)
    result = service.submit("remember that the car is parked on level 3")
    assert result.memory_changes == [] and service.memories() == []
    [entry] = service.entries((Status.ACTIVE,))
    assert entry.category is Category.NOTE


def test_a_fact_too_long_to_keep_fails_alone(store: Store, clock: Clock) -> None:
    service = offline_service(store, clock)
    result = service.submit("remember that my sister " + "really " * 60 + "likes tea")
    assert result.memory_changes == [] and service.memories() == []
    assert [f.kind for f in result.failures] == ["remember"]
    assert utterances(store)[0].outcome is UtteranceOutcome.FAILED


def test_unarchiving_opens_an_archived_entry_and_one_undo_puts_it_away_again(store: Store, clock: Clock) -> None:
    service = service_with(store, clock, creates)
    service.submit("buy milk and buy bread")
    milk, bread = (e.id for e in sorted(service.entries([Status.ACTIVE]), key=lambda e: e.summary, reverse=True))
    service.archive([milk, bread])
    result = service.unarchive([milk])
    assert [item.entry.id for item in result.applied] == [milk] and result.undo_id is not None
    assert {e.summary: e.status for e in service.entries(list(Status))} == {
        "Buy milk": Status.ACTIVE,
        "Buy bread": Status.ARCHIVED,
    }
    service.undo()
    assert sorted(e.summary for e in service.entries([Status.ARCHIVED])) == ["Buy bread", "Buy milk"]
