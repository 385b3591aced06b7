"""Recordings test fixtures: real speech (flite) as the capture hands it on, a service on a clock the test moves,
the private PulseAudio."""

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.assembly import build_service
from app.config import Settings
from app.domain.clock import Clock
from app.recordings.retention import Retention
from app.service import MurmurService
from tests.support.clock import FIXED_CLOCK
from tests.support.speech import captured_speech


class MovingClock:
    """The service's clock, at a moment the test moves on."""

    def __init__(self) -> None:
        self.now: datetime = FIXED_CLOCK.now

    def __call__(self) -> Clock:
        return replace(FIXED_CLOCK, now=self.now)

    def advance(self, days: float) -> None:
        self.now += timedelta(days=days)


@pytest.fixture(scope="session")
def speech(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """'buy milk and bread' said by flite, 16 kHz mono int16 with silence around it, as the capture hands it on."""
    return captured_speech("buy milk and bread", tmp_path_factory.mktemp("said"))


@pytest.fixture
def moving_clock() -> MovingClock:
    return MovingClock()


@pytest.fixture
def service(db_path: Path, moving_clock: MovingClock) -> Iterator[MurmurService]:
    opened = build_service(db_path, Settings(), offline=True)
    opened.clock = moving_clock
    opened.retention = Retention()
    yield opened
    opened.close()
