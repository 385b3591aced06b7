"""Changes another program asks for: one batch marked with its name, all or nothing, and held past the cap."""

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.changes.held import Caps
from app.changes.interpretation import RunOptions
from app.domain.clock import Clock
from app.domain.enums import Status, UtteranceOutcome, UtteranceSource
from app.errors import ConfirmationNeeded, UsageError
from app.offline import OfflineInterpreter
from app.presentation.history import batch_label
from app.service import MurmurService
from app.store import Store
from app.store.migrations import MIGRATIONS, migrate

CLIENT = "Claude Desktop"
CAPS = Caps(confirm_over=5, max_mutations=25)


@pytest.fixture
def service(store: Store, clock: Clock) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)


def _created(service: MurmurService, *summaries: str) -> list[str]:
    asked = [("create", {"content": s, "summary": s, "category": "todo", "source_text": s}) for s in summaries]
    return [item.entry.id for item in service.apply_asked(asked, CLIENT, "create", CAPS).applied]


def test_a_batch_asked_for_is_named_for_the_program_in_history(service: MurmurService) -> None:
    [made] = _created(service, "Buy milk")
    service.apply_asked([("complete", {"id": made[:6], "reason": "done"})], CLIENT, "complete", CAPS)
    [completed, created] = service.history()
    assert (completed.batch.origin, created.batch.origin) == (CLIENT, CLIENT)
    assert batch_label(completed.batch.label, completed.batch.origin).endswith(" via Claude Desktop")
    assert service.entries([Status.COMPLETED])[0].id == made


def test_one_failing_change_keeps_none_of_them(service: MurmurService) -> None:
    [made] = _created(service, "Buy milk")
    asked = [("complete", {"id": made, "reason": "done"}), ("archive", {"id": "ffffff", "reason": "gone"})]
    with pytest.raises(UsageError, match="nothing was changed"):
        service.apply_asked(asked, CLIENT, "two changes", CAPS)
    assert [e.id for e in service.entries([Status.ACTIVE])] == [made]
    assert len(service.history()) == 1  # the create alone


def test_an_item_that_does_not_read_changes_nothing(service: MurmurService) -> None:
    with pytest.raises(UsageError, match="nothing was changed"):
        service.apply_asked([("create", {"category": "todo"})], CLIENT, "create", CAPS)
    assert service.history() == []


def test_more_archives_than_the_cap_wait_in_the_inbox_until_confirmed(service: MurmurService) -> None:
    made = _created(service, *(f"Thing {n}" for n in range(4)))
    asked = [("archive", {"id": i, "reason": "clearing up"}) for i in made]
    with pytest.raises(ConfirmationNeeded, match="archive 4 entries at once") as held:
        service.apply_asked(
            asked, CLIENT, "Claude Desktop asks to archive 4 entries", Caps(confirm_over=3, max_mutations=25)
        )
    assert len(service.entries([Status.ACTIVE])) == 4
    [waiting] = service.inbox()
    assert (waiting.id, waiting.source, waiting.outcome) == (
        held.value.utterance_id, UtteranceSource.TYPED, UtteranceOutcome.FAILED
    )  # fmt: skip
    with pytest.raises(ConfirmationNeeded):
        service.retry(waiting.id)  # no yes: still held
    result = service.retry(waiting.id, options=RunOptions(confirmed=True))
    assert len(result.applied) == 4 and service.entries([Status.ACTIVE]) == []
    assert service.history()[0].batch.origin == CLIENT
    assert service.inbox() == []
    service.undo()
    assert len(service.entries([Status.ACTIVE])) == 4


def test_the_previous_release_database_gains_batch_origins_and_held_requests(db_path: Path, clock: Clock) -> None:
    """What the release before (steps 1-14) made: its batches read as Murmur's own, its utterances hold nothing."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as db:
        migrate(db, str(db_path), steps=MIGRATIONS[:14])
        db.execute("INSERT INTO undo_batches (label, created_at) VALUES ('created 1 entry', '2026-01-01T10:00:00')")
    store = Store.open(db_path)
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)
    [old] = service.history()
    assert (old.batch.label, old.batch.origin) == ("created 1 entry", None)
    _created(service, "Buy milk")
    assert service.history()[0].batch.origin == CLIENT
    store.close()


def test_more_changes_in_all_than_one_utterance_may_make_wait_too(service: MurmurService) -> None:
    asked = [("create", {"content": f"thing {n}", "category": "todo"}) for n in range(4)]
    with pytest.raises(ConfirmationNeeded, match="make 4 changes at once"):
        service.apply_asked(asked, CLIENT, "four things", Caps(confirm_over=5, max_mutations=3))
    assert service.entries([Status.ACTIVE]) == []


def test_a_held_request_is_confirmed_or_dismissed_not_reworded(service: MurmurService) -> None:
    made = _created(service, *(f"Thing {n}" for n in range(2)))
    with pytest.raises(ConfirmationNeeded) as held:
        service.apply_asked([("archive", {"id": i, "reason": "x"}) for i in made], CLIENT, "archive", Caps(1, 25))
    assert held.value.utterance_id is not None
    with pytest.raises(UsageError, match="confirm it or dismiss it"):
        service.retry(held.value.utterance_id, options=RunOptions(confirmed=True), text="archive nothing")
    assert len(service.entries([Status.ACTIVE])) == 2
