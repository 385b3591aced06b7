"""Sync in the desktop app: Settings -> Sync with its connection test, and the app syncing by itself (after a
change, debounced, and on its timer) with a real Radicale server; the `caldav` library is the user's phone."""

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.assembly import build_service
from app.config import Settings, SyncSettings
from app.domain.enums import UtteranceSource
from app.secrets import SYNC_PASSWORD, get_secret
from app.ui.application import Murmur
from app.ui.microphone import real_dictation
from app.ui.settings.dialog import SettingsDialog
from tests.support.memory_keyring import MemoryKeyring
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer

# Threads of a sync: Murmur's own, and the HTTP library's watcher of idle connections (until the client closes).
SYNC_THREADS = ("murmur-sync", "murmur-test-sync", "idle_conn_watch")


def no_thread_left(qtbot: QtBot) -> None:
    """A thread that ends after its test may collect that test's widgets on itself, which Qt does not survive."""

    def ended() -> bool:
        return not any(name in thread.name for thread in threading.enumerate() for name in SYNC_THREADS)

    qtbot.waitUntil(ended, timeout=10_000)


def test_the_sync_page_tests_the_connection_and_keeps_the_password_in_the_keyring(
    qtbot: QtBot, radicale: RadicaleServer, phone: Phone, isolated_keyring: MemoryKeyring
) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    page = dialog.sync_page
    page.url.setText(radicale.url)
    page.username.setText(radicale.username)
    page.password.setText("wrong-password")
    with qtbot.waitSignal(page.tested, timeout=20_000) as refused:
        page.test_button.click()
    assert refused.args == [f"the sync server at 127.0.0.1:{radicale.port} refused the user name or password"]
    page.password.setText(radicale.password)
    page.calendar.setEditText("Home")
    with qtbot.waitSignal(page.tested, timeout=20_000) as found:
        page.test_button.click()
    assert found.args[0].startswith("connected: the task list 'Home' is at http://127.0.0.1")
    no_thread_left(qtbot)
    phone.list_name = "Home"
    assert phone.todos() == {}  # the list was made on the server, empty
    assert [page.calendar.itemText(i) for i in range(page.calendar.count())] == ["Home"]  # to pick from next time
    dialog._on_accepted()
    assert dialog.result_settings().sync == SyncSettings(url=radicale.url, username="alice", calendar="Home")
    assert get_secret(SYNC_PASSWORD) == radicale.password
    assert radicale.password not in str(dialog.result_settings())


@pytest.fixture
def syncing(qtbot: QtBot, db_path: Path, radicale: RadicaleServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Murmur]:
    monkeypatch.setenv(SYNC_PASSWORD.env, radicale.password)
    settings = replace(Settings(), sync=SyncSettings(url=radicale.url, username=radicale.username))
    app = Murmur(build_service(db_path, settings, offline=True), settings, real_dictation, use_tray=False)
    app.sync._after_change.setInterval(100)  # seconds in the app; a tenth here
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
    app.service.store.close()
    del app


def test_a_change_in_the_app_reaches_the_phone_and_the_phones_reaches_the_list(
    qtbot: QtBot, syncing: Murmur, phone: Phone
) -> None:
    assert syncing.sync.words().startswith("Last sync")
    with qtbot.waitSignal(syncing.sync.synced, timeout=20_000):
        syncing.submit("buy oat milk", UtteranceSource.TYPED)
    assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["Buy oat milk"]
    phone.add("Call grandma")

    def shown() -> list[str]:
        return [str(syncing.model.index(row).data()) for row in range(syncing.model.rowCount())]

    with qtbot.waitSignal(syncing.sync.brought_changes, timeout=20_000):
        syncing.sync.sync_now()
    qtbot.waitUntil(lambda: any("Call grandma" in text for text in shown()), timeout=10_000)
    assert syncing.sync.status_text().startswith("Sync: Last sync")
