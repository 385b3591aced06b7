"""Shared by the agent tests: the price the test server charges, and what they put in and read back from the store."""

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import select

from app.agent.provider import Price
from app.domain.actions import CreateAction
from app.domain.enums import Category
from app.domain.usage import UsageSummary
from app.service import MurmurService
from app.store import Store
from app.store.models import Entry, LlmRequest, Utterance
from app.store.queries import recent_requests, usage_summary

TEST_PRICE = Price(input_per_million=1.0, output_per_million=5.0, known=True)

# The `agent_service` fixture (tests/agent/conftest.py): a service whose agent talks to a server or URL.
ServiceFactory = Callable[..., MurmurService]


def add_entries(service: MurmurService, *summaries: str, category: Category = Category.TODO) -> list[str]:
    """Entries made by hand (not through the model); returns their full IDs."""
    actions = [CreateAction(content=s, summary=s, category=category, source_text=s) for s in summaries]
    return [item.entry.id for item in service.apply(actions).applied]


def all_entries(store: Store) -> list[Entry]:
    with store.read() as session:
        return list(session.exec(select(Entry)).all())


def utterance(store: Store, utterance_id: int) -> Utterance:
    with store.read() as session:
        found = session.get(Utterance, utterance_id)
        assert found is not None
        return found


def logged_requests(store: Store) -> list[LlmRequest]:
    """The requests to the model on record, newest first."""
    with store.read() as session:
        return recent_requests(session)


def usage_of(store: Store, now: datetime, tz: ZoneInfo, monthly_budget: float = 0.0) -> UsageSummary:
    with store.read() as session:
        return usage_summary(session, now, tz, monthly_budget)


def tool_messages(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "tool"]
