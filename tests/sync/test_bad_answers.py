"""Answers no server should give, made by a proxy in front of Radicale (tests/sync/misbehaving.py): each is one
line in `sync status` with its time, never an internal error, and the next good answer syncs as ever."""

from collections.abc import Iterator
from dataclasses import replace
from functools import partial

import pytest

from app.domain.clock import Clock
from app.offline import OfflineInterpreter
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.sync.account import task_list_of
from app.sync.remote import SyncError
from tests.sync.conftest import settings_for
from tests.sync.misbehaving import Fault, MisbehavingProxy, cut_short, huge, not_xml
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer
from tests.sync.test_sync import by_summary


@pytest.fixture
def proxy(radicale: RadicaleServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[MisbehavingProxy]:
    monkeypatch.setenv(SYNC_PASSWORD.env, radicale.password)
    with MisbehavingProxy(radicale.url) as running:
        yield running


@pytest.fixture
def through_proxy(store: Store, clock: Clock, radicale: RadicaleServer, proxy: MisbehavingProxy) -> MurmurService:
    settings = replace(settings_for(radicale), url=proxy.url, max_answer_mb=1)
    return MurmurService(
        store=store,
        interpreter=OfflineInterpreter(),
        clock=lambda: clock,
        sync_source=partial(task_list_of, settings),
    )


@pytest.mark.parametrize(
    ("fault", "said"),
    [(huge(3_000_000), "over 1 MB; refused"), (cut_short, "cannot be read"), (not_xml, "cannot be read")],
)
def test_a_bad_answer_is_one_line_with_its_time_and_the_next_good_one_syncs(
    through_proxy: MurmurService, proxy: MisbehavingProxy, phone: Phone, fault: Fault, said: str
) -> None:
    through_proxy.sync()
    phone.add("Water the plants")
    proxy.fault = fault
    with pytest.raises(SyncError, match=said) as raised:
        through_proxy.sync()
    assert "\n" not in str(raised.value)
    status = through_proxy.sync_status()
    assert status.last_error == str(raised.value) and status.last_error_at is not None
    proxy.fault = None
    through_proxy.sync()
    assert "Water the plants" in by_summary(through_proxy)
    assert through_proxy.sync_status().last_error is None
