"""What's due, as an assistant asks it: late now, due by midnight, due within seven days; open entries only."""

from datetime import timedelta

import pytest

from app.domain.clock import Clock
from app.domain.enums import Category, DueSpan, Status
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from app.store.models import Entry
from tests.support.clock import FIXED_NOW

DUES = {  # summary -> due, from a Sunday 18:30
    "Late": FIXED_NOW - timedelta(days=1),
    "Tonight": FIXED_NOW + timedelta(hours=3),
    "Wednesday": FIXED_NOW + timedelta(days=3),
    "Next month": FIXED_NOW + timedelta(days=30),
}


@pytest.fixture
def service(store: Store, clock: Clock) -> MurmurService:
    with store.write() as session:
        for summary, due in DUES.items():
            session.add(
                Entry(content=summary, summary=summary, category=Category.TODO, source_text=summary, due_at=due)
            )
        session.add(
            Entry(content="Done", summary="Done", category=Category.TODO, source_text="Done", due_at=FIXED_NOW,
                  status=Status.COMPLETED)
        )  # fmt: skip
    return MurmurService(store=store, interpreter=OfflineInterpreter(), clock=lambda: clock)


@pytest.mark.parametrize(
    ("span", "summaries"),
    [
        (DueSpan.OVERDUE, ["Late"]),
        (DueSpan.TODAY, ["Late", "Tonight"]),
        (DueSpan.WEEK, ["Late", "Tonight", "Wednesday"]),
    ],
)
def test_each_span_ends_where_it_says_soonest_first(
    service: MurmurService, span: DueSpan, summaries: list[str]
) -> None:
    assert [row.summary for row in service.due(span).rows] == summaries
