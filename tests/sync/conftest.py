"""A real Radicale server per test, the user's phone (a second CalDAV client) connected to it, and Murmur's
service syncing with it."""

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from app.config import SyncSettings
from app.domain.clock import Clock
from app.offline import OfflineInterpreter
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.sync.account import task_list_of
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer

LIST = "Murmur"


def settings_for(server: RadicaleServer) -> SyncSettings:
    return SyncSettings(url=server.url, username=server.username, calendar=LIST)


def _running(server: RadicaleServer) -> Iterator[RadicaleServer]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def radicale(tmp_path: Path) -> Iterator[RadicaleServer]:
    yield from _running(RadicaleServer(tmp_path / "radicale"))


@pytest.fixture
def radicale_tls(tmp_path: Path) -> Iterator[RadicaleServer]:
    """Over HTTPS, its certificate signed by a private CA (`ca_file`) that no system store trusts."""
    yield from _running(RadicaleServer(tmp_path / "radicale-tls", tls=True))


@pytest.fixture
def phone(radicale: RadicaleServer) -> Iterator[Phone]:
    """Connected, no task list made yet: a test says whether the phone or Murmur creates it."""
    with Phone(radicale.url, radicale.username, radicale.password) as connected:
        yield connected


@pytest.fixture
def service(
    store: Store, clock: Clock, radicale: RadicaleServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[MurmurService]:
    monkeypatch.setenv(SYNC_PASSWORD.env, radicale.password)
    yield MurmurService(
        store=store,
        interpreter=OfflineInterpreter(),
        clock=lambda: clock,
        sync_source=partial(task_list_of, settings_for(radicale)),
    )
