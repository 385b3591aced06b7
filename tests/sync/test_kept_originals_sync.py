"""privacy.keep_unredacted never reaches the sync server: the secrets put back locally go as placeholders."""

from functools import partial

import pytest

from app.agent.loop import LlmAgent
from app.config import PrivacySettings
from app.domain.clock import Clock
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.sync.account import task_list_of
from tests.support.agent_service import TEST_PRICE, all_entries
from tests.support.llm_server import FakeLlmServer, provider_for
from tests.support.planted_secrets import HOSTILE, SAID
from tests.sync.conftest import settings_for
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer


def test_the_sync_server_gets_the_placeholders(
    store: Store, clock: Clock, radicale: RadicaleServer, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SYNC_PASSWORD.env, radicale.password)
    with FakeLlmServer(HOSTILE) as server:
        agent = LlmAgent(provider_for(server.base_url, TEST_PRICE), PrivacySettings(keep_unredacted=True))
        service = MurmurService(
            store=store,
            interpreter=agent,
            clock=lambda: clock,
            sync_source=partial(task_list_of, settings_for(radicale)),
        )
        try:
            service.submit(SAID)
            service.sync()
        finally:
            agent.close()
    [entry] = all_entries(store)
    assert "4242" in entry.summary and "hunter2" in entry.summary  # kept on this machine
    [todo] = phone.todos().values()
    sent = todo.to_ical().decode()
    assert "4242" not in sent and "hunter2" not in sent
    assert str(todo["SUMMARY"]) == "Pay with [card number] wifi [password]"
