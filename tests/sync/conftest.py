"""A real Radicale server per test, and the user's phone (a second CalDAV client) connected to it."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer


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
