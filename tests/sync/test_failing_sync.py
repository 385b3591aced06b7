"""A sync that keeps failing says since when, why and what to do, in `murmur sync status` and the tray's words,
until the next sync works; the desktop app waits longer after each failure. Against a real Radicale server."""

from datetime import timedelta
from functools import partial
from pathlib import Path

import pytest

from app.domain.clock import Clock
from app.errors import Command, Setting
from app.offline import OfflineInterpreter
from app.presentation.sync import status_words
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.sync.account import task_list_of
from app.sync.backoff import FIRST_WAIT_SECONDS, Backoff
from app.sync.remote import SyncError
from tests.support.clock import BERLIN, FIXED_NOW
from tests.support.murmur_cli import Murmur
from tests.sync.conftest import settings_for
from tests.sync.radicale_server import RadicaleServer


class Ticking:
    """A clock the test moves on."""

    def __init__(self) -> None:
        self.now = FIXED_NOW

    def __call__(self) -> Clock:
        return Clock(now=self.now, tz=BERLIN)


def test_failures_in_a_row_keep_the_first_time_and_a_success_clears_them(
    store: Store, radicale: RadicaleServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Ticking()
    source = partial(task_list_of, settings_for(radicale))
    service = MurmurService(store=store, interpreter=OfflineInterpreter(), clock=clock, sync_source=source)
    monkeypatch.setenv(SYNC_PASSWORD.env, "not-the-password")
    for _ in range(3):
        with pytest.raises(SyncError, match="refused the user name or password"):
            service.sync()
        clock.now += timedelta(minutes=5)
    status = service.sync_status()
    assert status.failing_since == FIXED_NOW and status.last_error_at == FIXED_NOW + timedelta(minutes=10)
    assert isinstance(status.remedy, Command) and status.remedy.instead == Setting("sync.url")
    words = status_words(status, clock.now, BERLIN)
    assert words.startswith("failing since 18:30 — the sync server at 127.0.0.1:")
    assert "refused the user name or password · Never synced" in words

    monkeypatch.setenv(SYNC_PASSWORD.env, radicale.password)
    service.sync()
    status = service.sync_status()
    assert (status.last_error, status.failing_since, status.remedy) == (None, None, None)
    assert status_words(status, clock.now, BERLIN).startswith("Last sync ")


def test_sync_status_says_since_when_why_and_what_to_do(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    murmur.run("config", "set", "sync.url", "https://127.0.0.1:9/dav")
    assert murmur.run("sync").returncode == 2
    shown = murmur.run("sync", "status").stdout
    assert "Failing since " in shown
    assert "no password for the sync server: run `murmur sync setup`, or set MURMUR_CALDAV_PASSWORD" in shown
    state = murmur.json("sync", "status")
    assert state["failing_since"] is not None and state["last_error"] == "no password for the sync server"
    assert state["remedy"] == "run `murmur sync setup`, or set MURMUR_CALDAV_PASSWORD"


def test_each_failure_in_a_row_waits_twice_as_long_up_to_the_interval() -> None:
    backoff = Backoff(cap_seconds=300)
    assert backoff.ready(0.0)
    assert backoff.failed("no password", 100.0) is True  # news: a warning
    assert backoff.wait_seconds() == FIRST_WAIT_SECONDS and not backoff.ready(100.0 + FIRST_WAIT_SECONDS - 1)
    assert backoff.failed("no password", 200.0) is False  # the same again: no warning
    assert backoff.wait_seconds() == 2 * FIRST_WAIT_SECONDS
    for _ in range(5):
        backoff.failed("no password", 300.0)
    assert backoff.wait_seconds() == 300 and backoff.ready(600.0)
    assert backoff.failed("cannot reach the sync server", 700.0) is True
    backoff.succeeded()
    assert backoff.ready(700.0) and backoff.wait_seconds() == 0
