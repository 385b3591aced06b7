"""Shared fixtures: a real SQLite file per test, a fixed clock, no writes outside tmp, and the Qt application."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.domain.clock import Clock
from app.speech_in import speech_models
from app.speech_in.speech_models import GIB, Machine
from app.store import Store
from tests.support.clock import FIXED_CLOCK
from tests.support.isolated import isolate

# One private PulseAudio per worker for every package: a fixture imported into several conftests is several
# fixtures, each a daemon of its own, and the variables in os.environ would name whichever started last.
from tests.support.pulse import pulse_audio  # noqa: F401 (a fixture)

# Fixtures every test may use: `memory_keyring` (no test touches the user's real keyring).
pytest_plugins = ["tests.support.memory_keyring"]


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Data, logs, settings and the default database live in the test's temp dir."""
    isolate(monkeypatch, tmp_path)


@pytest.fixture(autouse=True)
def usual_machine(monkeypatch: pytest.MonkeyPatch) -> Machine:
    """This process sees a usual laptop (4 cores, 8 GiB), so the Whisper model recommended (base) is the same on
    every machine the tests run on; a process the tests start sees the real one."""
    machine = Machine(cores=4, memory=8 * GIB)
    monkeypatch.setattr(speech_models, "this_machine", lambda: machine)
    return machine


@pytest.fixture(scope="session")
def qapp(qapp_args: list[str], qapp_cls: type[QApplication]) -> QApplication:
    """pytest-qt's application, offscreen unless a platform was asked for. The variable is set only
    while the application is made (Qt reads it then), so it never leaks into other tests' processes. Defined here
    for every package: a test outside tests/ui whose command draws with Qt in this process makes it first."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    asked = os.environ.get("QT_QPA_PLATFORM")
    os.environ["QT_QPA_PLATFORM"] = asked or "offscreen"
    try:
        return qapp_cls(qapp_args)
    finally:
        if asked is None:
            del os.environ["QT_QPA_PLATFORM"]


@pytest.fixture
def clock() -> Clock:
    return FIXED_CLOCK


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "murmur.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    opened = Store.open(db_path)
    yield opened
    opened.close()
