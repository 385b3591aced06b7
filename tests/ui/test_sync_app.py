"""Sync in the desktop app: Settings -> Sync with its connection test, and the app syncing by itself (after a
change, debounced, and on its timer) with a real Radicale server; the `caldav` library is the user's phone."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.config import Settings, SyncSettings
from app.domain.enums import UtteranceSource
from app.secrets import SYNC_PASSWORD, get_secret
from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog
from tests.support.memory_keyring import MemoryKeyring
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer
from tests.ui.sync_app import no_thread_left, syncing_app


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
    yield from syncing_app(qtbot, db_path, radicale, use_tray=False, after_change_ms=100)  # a tenth of a second


def test_a_change_in_the_app_reaches_the_phone_and_the_phones_reaches_the_list(
    qtbot: QtBot, syncing: Murmur, phone: Phone
) -> None:
    assert syncing.sync.words().startswith("Last sync")
    with qtbot.waitSignal(syncing.sync.synced, timeout=20_000):
        syncing.conductor.submit("buy oat milk", UtteranceSource.TYPED)
    assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["Buy oat milk"]
    phone.add("Call grandma")

    def shown() -> list[str]:
        return [str(syncing.model.index(row).data()) for row in range(syncing.model.rowCount())]

    with qtbot.waitSignal(syncing.sync.brought_changes, timeout=20_000):
        syncing.sync.sync_now()
    qtbot.waitUntil(lambda: any("Call grandma" in text for text in shown()), timeout=10_000)
    assert syncing.sync.status_text().startswith("Sync: Last sync")
