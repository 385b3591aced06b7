"""The reading before Enter: `MurmurService.preview` says what the offline rules would do with typed words, read
against the list as a run would read it, and writes nothing at all."""

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import func, select

from app.agent.unusable import UnusableModel
from app.domain.actions import CompleteAction, CreateAction, UpdateAction
from app.domain.clock import Clock
from app.offline import OfflineInterpreter
from app.presentation.reading import ReadingPreview
from app.service import MurmurService
from app.store.models import Entry, UndoBatch, Utterance
from tests.support.clock import BERLIN
from tests.support.store_writes import CountingStore


@dataclass
class MovingClock:
    """The service's clock, put forward by the test."""

    now: Clock

    def __call__(self) -> Clock:
        return self.now


@pytest.fixture
def counting_store(db_path: Path) -> Iterator[CountingStore]:
    store = CountingStore.open(db_path)
    yield store
    store.close()


@pytest.fixture
def moving_clock(clock: Clock) -> MovingClock:
    return MovingClock(clock)


@pytest.fixture
def service(counting_store: CountingStore, moving_clock: MovingClock) -> MurmurService:
    return MurmurService(store=counting_store, interpreter=OfflineInterpreter(), clock=moving_clock)


def stored(store: CountingStore) -> tuple[object, ...]:
    """Every row a run writes, as counts and contents: the entries, what was said and the undo batches."""
    with store.read() as session:
        entries = [(e.id, e.summary, e.status, e.due_at, e.revision) for e in session.exec(select(Entry)).all()]
        said = session.exec(select(func.count()).select_from(Utterance)).one()
        batches = session.exec(select(func.count()).select_from(UndoBatch)).one()
    return sorted(entries), said, batches


def test_the_preview_reads_what_enter_would_do_and_writes_nothing(
    service: MurmurService, counting_store: CountingStore
) -> None:
    service.submit("haircut friday 10am")
    service.submit("pay the gas bill")
    before, writes = stored(counting_store), counting_store.writes

    moved = service.preview("move haircut to saturday 4pm")
    new = service.preview("remind me to call the dentist thursday")
    ticked = service.preview("paid the gas bill")

    [move] = moved.actions
    assert isinstance(move.action, UpdateAction) and move.name == "Haircut"
    assert move.moment == datetime(2026, 11, 28, 16, 0, tzinfo=BERLIN)
    [create] = new.actions
    assert isinstance(create.action, CreateAction) and create.name == "Call the dentist"
    assert create.moment == datetime(2026, 11, 26, 9, 0, tzinfo=BERLIN)
    [tick] = ticked.actions
    assert isinstance(tick.action, CompleteAction) and tick.name == "Pay the gas bill"
    assert (stored(counting_store), counting_store.writes) == (before, writes)


def test_the_preview_sees_what_the_last_words_touched_while_the_session_lasts(
    service: MurmurService, moving_clock: MovingClock, counting_store: CountingStore
) -> None:
    service.submit("call the plumber tomorrow at 9")
    [move] = service.preview("make it 11am").actions
    assert move.name == "Call the plumber"
    assert move.moment == datetime(2026, 11, 23, 11, 0, tzinfo=BERLIN)

    moving_clock.now = replace(moving_clock.now, now=moving_clock.now.now + service.session_gap + timedelta(minutes=1))
    assert service.preview("make it 11am").actions == ()  # a new session: "it" is nothing said before
    assert counting_store.writes == 2  # the utterance saved, then its changes: the previews wrote nothing


def test_the_preview_of_a_question_is_its_answer_and_unsure_words_their_readings(service: MurmurService) -> None:
    service.submit("pay the gas bill friday, and pay the phone bill monday")
    assert service.preview("what's due this week?").answer
    asked = service.preview("paid the bill")
    assert asked.actions == () and asked.choices == ("Tick off 'Pay the gas bill'?", "Tick off 'Pay the phone bill'?")


def test_nothing_typed_reads_as_nothing(service: MurmurService) -> None:
    assert service.preview("   ") == ReadingPreview()
    assert service.preview("a\x00b") == ReadingPreview()


def test_with_a_model_set_up_the_preview_is_the_built_in_rules_reading(
    counting_store: CountingStore, moving_clock: MovingClock
) -> None:
    model = UnusableModel("the model is off")
    with_rules = MurmurService(counting_store, model, moving_clock, rules=OfflineInterpreter())
    without = MurmurService(counting_store, model, moving_clock)
    preview = with_rules.preview("buy milk")
    assert preview.rules_only and [read.name for read in preview.actions] == ["Buy milk"]
    assert without.preview("buy milk") == ReadingPreview()
