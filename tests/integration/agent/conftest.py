"""The agent against a real local chat-completions server, through the real openai client, on a real SQLite file."""

from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import select

from app.agent.loop import LlmAgent
from app.agent.provider import Price
from app.config import PrivacySettings
from app.domain.actions import CreateAction
from app.domain.clock import Clock
from app.domain.enums import Category
from app.domain.events import PipelineEvent
from app.service import MurmurService
from app.store import Store
from app.store.models import Entry, Utterance
from tests.support.llm_server import FakeLlmServer, provider_for

TEST_PRICE = Price(input_per_million=1.0, output_per_million=5.0, known=True)


ServiceFactory = Callable[..., MurmurService]


@pytest.fixture
def agent_service(store: Store, clock: Clock) -> ServiceFactory:
    """A MurmurService whose interpreter is the LLM agent talking to `server` (or a URL)."""

    def build(server: FakeLlmServer | str, privacy: PrivacySettings | None = None, **overrides: Any) -> MurmurService:
        base_url = server if isinstance(server, str) else server.base_url
        agent = LlmAgent(provider_for(base_url, TEST_PRICE, **overrides), privacy or PrivacySettings())
        return MurmurService(store=store, interpreter=agent, clock=lambda: clock)

    return build


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


def tool_messages(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "tool"]


@pytest.fixture
def events() -> list[PipelineEvent]:
    return []
