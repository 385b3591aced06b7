"""The real app syncing with a real Radicale server, for the UI tests of sync: started until its first sync is done,
and ended with no sync thread left behind."""

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.assembly import build_service
from app.config import Settings, SyncSettings
from app.ui.application import Murmur
from app.ui.microphone import real_dictation
from tests.sync.radicale_server import RadicaleServer

# Threads of a sync: Murmur's own, and the HTTP library's watcher of idle connections (until the client closes).
SYNC_THREADS = ("murmur-sync", "murmur-test-sync", "idle_conn_watch")


def no_thread_left(qtbot: QtBot) -> None:
    """A thread that ends after its test may collect that test's widgets on itself, which Qt does not survive."""

    def ended() -> bool:
        return not any(name in thread.name for thread in threading.enumerate() for name in SYNC_THREADS)

    qtbot.waitUntil(ended, timeout=10_000)


def syncing_app(
    qtbot: QtBot, db_path: Path, radicale: RadicaleServer, *, use_tray: bool, after_change_ms: int | None = None
) -> Iterator[Murmur]:
    """The app set to sync with `radicale` (its password as the environment gives it), once its first sync ended;
    `after_change_ms`: how soon a change is sent (seconds in the app)."""
    settings = replace(Settings(), sync=SyncSettings(url=radicale.url, username=radicale.username))
    app = Murmur(build_service(db_path, settings, offline=True), settings, real_dictation, use_tray=use_tray)
    if after_change_ms is not None:
        app.sync._after_change.setInterval(after_change_ms)
    qtbot.addWidget(app.window)
    qtbot.addWidget(app.toast)
    with qtbot.waitSignal(app.sync.synced, timeout=20_000):
        app.start(
            listen_for_hotkey=False, arm_microphone=False, preload_speech=False, offer_models=False, check_setup=False
        )
    yield app
    assert app.sync.stop(timeout=20)
    no_thread_left(qtbot)
    assert app.worker.close(timeout=10)
    app.notifications.close()
    if app.tray is not None:
        app.tray.hide()
    app.service.store.close()
