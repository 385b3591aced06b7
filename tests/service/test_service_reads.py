"""What the front ends read through the service rather than from the store: a due read as an edit would save it,
and the model's bill and log."""

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from app.domain.actions import CreateAction
from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.domain.local_calendar import LocalCalendar
from app.errors import AmbiguousIdError, UsageError
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from app.store.kept_runs import Ending, KeptRun
from app.store.models import LlmRequest

NEW_YORK = ZoneInfo("America/New_York")
# A Sunday evening in New York, for someone whose evening starts at 20:30 and who keeps the US holidays.
SUNDAY = Clock(
    now=datetime(2026, 11, 22, 18, 30, tzinfo=NEW_YORK),
    tz=NEW_YORK,
    calendar=LocalCalendar(country="US", evening=time(20, 30)),
)


def american_service(store: Store) -> MurmurService:
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: SUNDAY)


def test_a_due_is_read_with_the_services_clock_as_the_edit_saves_it(store: Store) -> None:
    service = american_service(store)
    said = "call the dentist tuesday 3pm"
    create = CreateAction("Call the dentist", "Call the dentist", Category.REMINDER, said, due_text="tuesday 3pm")
    [created] = service.apply([create]).applied
    entry_id, due = created.entry.id, created.entry.due_at
    assert service.read_due("this evening") == datetime(2026, 11, 22, 20, 30, tzinfo=NEW_YORK)
    for words in ("this evening", "on Thanksgiving", "friday", "5pm"):
        read = service.read_due(words, due)
        service.edit([entry_id], {"due_date": words})
        [entry] = service.entries([Status.ACTIVE])
        assert read == entry.due_at, words
        due = entry.due_at
    # A day alone keeps the time the due had: Thanksgiving at the evening's 20:30, then Friday at it too.
    assert service.read_due("on Thanksgiving", datetime(2026, 11, 22, 20, 30, tzinfo=NEW_YORK)) == datetime(
        2026, 11, 26, 20, 30, tzinfo=NEW_YORK
    )
    assert service.read_due("when pigs fly") is None


def test_the_models_bill_and_log_are_read_through_the_service(store: Store) -> None:
    with store.write() as session:
        for cost, created_at in ((0.25, datetime(2026, 11, 2, 12, tzinfo=NEW_YORK)), (0.5, SUNDAY.now)):
            request = LlmRequest(base_url="http://localhost", model="m", turn=1, request="[]", created_at=created_at)
            request.prompt_tokens, request.completion_tokens, request.cost_usd = 100, 10, cost
            session.add(request)
    service = american_service(store)
    usage = service.usage(monthly_budget=1.0)
    assert [(row.period, row.requests, row.cost_usd) for row in usage.by_month] == [("2026-11", 2, 0.75)]
    assert [row.period for row in usage.by_day] == ["2026-11-22", "2026-11-02"]
    assert usage.budget_left == 0.25
    assert [r.cost_usd for r in service.requests(limit=1)] == [0.5]


def test_the_kept_runs_read_newest_first_and_one_found_by_the_start_of_its_id(store: Store) -> None:
    service = american_service(store)
    for run_id in ("abc111", "abc222", "def333"):
        service.keep_run(KeptRun(run_id, SUNDAY.now, "typed", Ending.NOTHING))
    assert [run.id for run in service.recent_runs()] == ["def333", "abc222", "abc111"]
    assert [run.id for run in service.recent_runs(limit=1)] == ["def333"]
    assert service.kept_run(" DEF").id == "def333"
    with pytest.raises(AmbiguousIdError, match="matches 2 kept runs"):
        service.kept_run("abc")
    with pytest.raises(UsageError, match="no kept run has ID '9'"):
        service.kept_run("9")
