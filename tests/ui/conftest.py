"""The desktop app's tests: a real Qt app offscreen (unless a display is asked for), a real SQLite
file, the real service with the offline interpreter, and an in-memory keyring."""

import gc
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.assembly import build_service
from app.config import Settings
from app.ui.application import Murmur
from app.ui.microphone import DictationFactory, real_dictation
from tests.support.fake_dictation import FakeMicrophone
from tests.support.memory_keyring import MemoryKeyring
from tests.support.model_server import server  # noqa: F401 (a fixture: a local server of Vosk model zips)
from tests.support.speech import whisper_model  # noqa: F401 (a fixture: a real Whisper base model)
from tests.support.xserver import display  # noqa: F401 (a fixture: a private X server with a tray)
from tests.sync.conftest import phone, radicale  # noqa: F401 (fixtures: a real CalDAV server, a second client)


@pytest.fixture(autouse=True, scope="package")
def collection_on_the_gui_thread_only() -> Iterator[None]:
    """As the app does (app/ui/collector.py): no automatic collection, which could run on any thread; each test
    ends with one on the GUI thread (below)."""
    gc.disable()
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def isolated_keyring(memory_keyring: MemoryKeyring) -> MemoryKeyring:
    """Every UI test gets an in-memory keyring."""
    return memory_keyring


@pytest.fixture(autouse=True, scope="module")
def collections_look_at_what_a_module_makes() -> None:
    """What is alive as a module starts (the imports, the session's fixtures) is collected once and frozen: each
    test's collection below then looks only at the objects made since, not at the whole heap again (a full pass
    over it cost the UI tests most of a second each). What an earlier module dropped is collected here first."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def collect_on_the_gui_thread() -> Iterator[None]:
    """Widgets a test left in reference cycles go here, on the GUI thread: collected later on some
    other thread (a server's, a download's), a QObject warns that its timers cannot be stopped."""
    yield
    gc.collect()


def started_murmur(
    qtbot: QtBot,
    db_path: Path,
    make_dictation: DictationFactory,
    arm: bool,
    settings: Settings | None = None,
    use_tray: bool = False,
) -> Iterator[Murmur]:
    # No start and stop cues: a cue is PortAudio playing on a thread of its own, into whichever PulseAudio the
    # process last found, which is not what these tests are about; a test of a sound turns them on.
    settings = settings or Settings(ui=replace(Settings().ui, audio_cues=False))
    app = Murmur(build_service(db_path, settings, offline=True), settings, make_dictation, use_tray=use_tray)
    qtbot.addWidget(app.window)
    qtbot.addWidget(app.toast)
    with qtbot.waitSignal(app.entries_shown):
        app.start(
            listen_for_hotkey=False, arm_microphone=arm, preload_speech=False, offer_models=False, check_setup=False
        )
    yield app
    app.notifications.close()
    assert app.worker.close(timeout=10)
    app.service.store.close()
    del app


@pytest.fixture
def murmur(qtbot: QtBot, db_path: Path) -> Iterator[Murmur]:
    """The whole app, without tray, global hotkey, armed microphone, speech preloading (nothing here has a display)
    or the offer of speech models (tests/ui/test_model_offer_dialog.py opens it)."""
    yield from started_murmur(qtbot, db_path, real_dictation, arm=False)


@pytest.fixture
def murmur_in_the_tray(qtbot: QtBot, db_path: Path) -> Iterator[Murmur]:
    """The app with its tray icon (whose icon and tooltip say the state), though no tray shows it here."""
    yield from started_murmur(qtbot, db_path, real_dictation, arm=False, use_tray=True)


@pytest.fixture
def microphone() -> FakeMicrophone:
    return FakeMicrophone()


@pytest.fixture
def murmur_with_microphone(qtbot: QtBot, db_path: Path, microphone: FakeMicrophone) -> Iterator[Murmur]:
    """The app as started for real (the microphone armed between recordings), recording from `microphone`."""
    yield from started_murmur(qtbot, db_path, microphone, arm=True)
