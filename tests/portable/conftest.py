"""A service over a real SQLite file, filled the way a user fills it: said, edited, completed, remembered."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.domain.enums import Status
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from tests.support.clock import FIXED_CLOCK
from tests.support.isolated import isolate


def open_service(path: Path) -> MurmurService:
    return MurmurService(store=Store.open(path), interpreter=OfflineInterpreter(), clock=lambda: FIXED_CLOCK)


@pytest.fixture
def empty(tmp_path: Path) -> Iterator[MurmurService]:
    service = open_service(tmp_path / "empty.db")
    yield service
    service.close()


SAID = (
    "remind me to call the dentist Thursday at 3pm",
    "buy oat milk",
    "water the plants every Monday",
    "pay the rent on the first of every month",
    "idea: a podcast about bread",
    "note that the wifi password is on the fridge",
    "todo: file the taxes by Friday",
    "remind me to book the flights tomorrow morning",
    "return the library books",
)


@pytest.fixture(scope="session")
def filled_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the filled database, made once: each test gets a copy of it, so none sees another's changes."""
    folder = tmp_path_factory.mktemp("filled")
    with pytest.MonkeyPatch.context() as env:  # made before any test's own folders are set
        isolate(env, folder)
        service = open_service(folder / "filled.db")
        fill(service)
        service.close()
    return folder


@pytest.fixture
def filled(filled_folder: Path, tmp_path: Path) -> Iterator[MurmurService]:
    """Every field in use: priorities, times of day, whole days, repeats, snoozed, done, archived, memories."""
    shutil.copytree(filled_folder, tmp_path / "filled")
    service = open_service(tmp_path / "filled" / "filled.db")
    yield service
    service.close()


def fill(service: MurmurService) -> None:
    for words in SAID:
        service.submit(words)
    ids = {entry.summary: entry.id for entry in service.entries(list(Status))}
    service.edit([ids["Call the dentist"]], {"priority": 1, "content": 'Call the dentist; ask about "the crown", x:y'})
    service.edit([ids["Buy oat milk"]], {"priority": 4})
    service.complete([ids["Buy oat milk"]])
    service.archive([ids["Return the library books"]])
    service.snooze([ids["File the taxes"]], "tomorrow at 8am")
    service.edit([ids["A podcast about bread"]], {"priority": 3})
    service.remember("my birthday is May 5")
