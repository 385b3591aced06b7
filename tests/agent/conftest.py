"""The agent against a real local chat-completions server, through the real openai client, on a real SQLite file."""

from collections.abc import Iterator
from typing import Any

import pytest

from app.agent.loop import LlmAgent
from app.config import PrivacySettings
from app.domain.clock import Clock
from app.domain.events import PipelineEvent
from app.service import MurmurService
from app.store import Store
from tests.support.agent_service import TEST_PRICE, ServiceFactory
from tests.support.llm_server import FakeLlmServer, provider_for


@pytest.fixture
def agent_service(store: Store, clock: Clock) -> Iterator[ServiceFactory]:
    """A MurmurService whose interpreter is the LLM agent talking to `server` (or a URL); its connections
    are closed after the test (left to the garbage collector, they would warn in whichever test runs then)."""
    agents: list[LlmAgent] = []

    def build(server: FakeLlmServer | str, privacy: PrivacySettings | None = None, **overrides: Any) -> MurmurService:
        base_url = server if isinstance(server, str) else server.base_url
        agents.append(LlmAgent(provider_for(base_url, TEST_PRICE, **overrides), privacy or PrivacySettings()))
        return MurmurService(store=store, interpreter=agents[-1], clock=lambda: clock)

    yield build
    for agent in agents:
        agent.close()


@pytest.fixture
def events() -> list[PipelineEvent]:
    return []
