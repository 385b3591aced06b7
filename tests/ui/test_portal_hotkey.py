"""The talk key on Wayland through the desktop's GlobalShortcuts portal, the real app on a private session bus
with a stand-in portal (tests/support/portal_service.py): the key's press starts recording, its release stops it;
every way the portal says no (a cancelled bind, no portal, a session the desktop closed, the portal gone) is said
in one line at the top of the window, with the way out: bind murmur start / murmur stop in the desktop."""

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.config import Settings
from app.desktop.entries import APP_ID
from app.domain.enums import Status
from app.shortcuts.choice import Backend
from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog
from tests.support.fake_dictation import FakeMicrophone
from tests.support.portal_service import TRIGGER, PortalService, start_portal
from tests.support.session_bus import session_bus  # noqa: F401 (a fixture: a private session bus)
from tests.ui.conftest import started_murmur

WAIT_MS = 15_000
SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"


@pytest.fixture
def wayland(session_bus: str, monkeypatch: pytest.MonkeyPatch) -> str:  # noqa: F811 (the fixture imported above)
    """A Wayland session with its own session bus (no display is used: the app is offscreen)."""
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-murmur-test")
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    return session_bus


def a_portal(**how: object) -> Iterator[PortalService]:
    portal = start_portal(**how)  # type: ignore[arg-type]
    yield portal
    portal.connection.close()


@pytest.fixture
def portal(wayland: str) -> Iterator[PortalService]:
    yield from a_portal()


@pytest.fixture
def denying_portal(wayland: str) -> Iterator[PortalService]:
    """The user cancels the desktop's dialog (Response 1)."""
    yield from a_portal(bind_response=1)


@pytest.fixture
def old_portal(wayland: str) -> Iterator[PortalService]:
    """An xdg-desktop-portal without the GlobalShortcuts interface."""
    yield from a_portal(offers_shortcuts=False)


def listening_murmur(qtbot: QtBot, db_path: Path, microphone: FakeMicrophone, settings: Settings) -> Iterator[Murmur]:
    """The app; its portal session ends with the test (as at quit), before the bus does."""
    for app in started_murmur(qtbot, db_path, microphone, arm=False, settings=settings):
        yield app
        app.hotkey.stop()


@pytest.fixture
def app(qtbot: QtBot, db_path: Path, microphone: FakeMicrophone) -> Iterator[Murmur]:
    yield from listening_murmur(qtbot, db_path, microphone, Settings())


def bound(qtbot: QtBot, app: Murmur) -> None:
    with qtbot.waitSignal(app.hotkey.bound, timeout=WAIT_MS) as blocker:
        app.listen_for_hotkey()
    assert blocker.args == [TRIGGER]


def setup_note(app: Murmur) -> str:
    notes = app.window.setup_notes
    return notes.text.text() if not notes.isHidden() else ""


def assert_said_once_with_the_way_out(app: Murmur, line: str, why: str) -> None:
    assert why in line and "\n" not in line
    assert "murmur start" in line and "murmur stop" in line and "bindr" in line and "bindsym --release" in line
    assert setup_note(app) == line
    assert app.window.activity.status.text().startswith("Ready: hold the mic button")
    assert app.hotkey.backend is Backend.NONE and app.hotkey.backend_words().startswith("none: ")


def test_holding_the_portals_key_talks_and_letting_go_sends(
    qtbot: QtBot, portal: PortalService, app: Murmur, microphone: FakeMicrophone
) -> None:
    bound(qtbot, app)
    calls = [method for method, _body in portal.asked]
    assert calls == [
        "org.freedesktop.DBus.Properties.Get",  # the backend's choice: is the interface there
        "org.freedesktop.host.portal.Registry.Register",  # first on the session's connection
        f"{SHORTCUTS}.CreateSession",
        f"{SHORTCUTS}.BindShortcuts",
    ]
    assert portal.registered == [APP_ID]
    [(_token_options,), (_session, [(shortcut, wanted)], _parent, _options)] = [
        body for method, body in portal.asked if method.startswith(SHORTCUTS)
    ]
    assert _token_options["session_handle_token"] == ("s", "murmur_talk")  # stable: the desktop keeps the binding
    assert shortcut == "talk" and wanted["preferred_trigger"] == ("s", "CTRL+ALT+space")
    assert setup_note(app) == "" and app.hotkey.backend is Backend.PORTAL
    assert app.window.activity.status.text().startswith(f"Ready: hold {TRIGGER} and speak")  # the desktop's key
    with qtbot.waitSignal(app.voice.started, timeout=WAIT_MS):
        portal.press()
    assert app.voice.is_recording()
    with qtbot.waitSignal(app.entries_shown, timeout=WAIT_MS, check_params_cb=lambda: bool(app.model.rowCount())):
        portal.release()
    assert not app.voice.is_recording() and microphone.made[0].stopped
    assert [entry.summary for entry in app.service.entries([Status.ACTIVE])] == ["Buy oat milk"]


def test_tapping_the_portals_key_toggles_in_toggle_mode(
    qtbot: QtBot, portal: PortalService, db_path: Path, microphone: FakeMicrophone
) -> None:
    settings = Settings()
    settings = replace(settings, ui=replace(settings.ui, hotkey_mode="toggle"))
    for app in listening_murmur(qtbot, db_path, microphone, settings):
        bound(qtbot, app)
        with qtbot.waitSignal(app.voice.started, timeout=WAIT_MS):
            portal.press()
        portal.release()
        with qtbot.waitSignal(app.voice.stopped, timeout=WAIT_MS):
            portal.press()  # the second tap stops it: the release between did not
        portal.release()
        assert len(microphone.made) == 1 and microphone.made[0].stopped


def test_a_cancelled_bind_is_said_once_with_the_way_out(
    qtbot: QtBot, denying_portal: PortalService, app: Murmur
) -> None:
    with qtbot.waitSignal(app.hotkey.failed, timeout=WAIT_MS) as failed:
        app.listen_for_hotkey()
    assert_said_once_with_the_way_out(app, failed.args[0], "shortcut dialog was cancelled")


def test_wayland_without_a_portal_says_how_to_bind_start_and_stop(qtbot: QtBot, wayland: str, app: Murmur) -> None:
    app.listen_for_hotkey()
    assert_said_once_with_the_way_out(app, setup_note(app), "no xdg-desktop-portal on the session bus")


def test_a_portal_without_global_shortcuts_says_how_to_bind_start_and_stop(
    qtbot: QtBot, old_portal: PortalService, app: Murmur
) -> None:
    app.listen_for_hotkey()
    assert_said_once_with_the_way_out(app, setup_note(app), "no GlobalShortcuts interface")
    assert [method for method, _body in old_portal.asked] == ["org.freedesktop.DBus.Properties.Get"]


def test_a_session_the_desktop_closes_is_said_and_ends_a_held_recording(
    qtbot: QtBot, portal: PortalService, app: Murmur
) -> None:
    bound(qtbot, app)
    with qtbot.waitSignal(app.voice.started, timeout=WAIT_MS):
        portal.press()
    with (
        qtbot.waitSignal(app.voice.stopped, timeout=WAIT_MS),
        qtbot.waitSignal(app.hotkey.failed, timeout=WAIT_MS) as failed,
    ):
        portal.close_sessions()
    assert_said_once_with_the_way_out(app, failed.args[0], "the desktop closed Murmur's shortcut session")


def test_a_portal_that_leaves_the_bus_is_said(qtbot: QtBot, portal: PortalService, app: Murmur) -> None:
    bound(qtbot, app)
    with qtbot.waitSignal(app.hotkey.failed, timeout=WAIT_MS) as failed:
        portal.connection.close()
    assert_said_once_with_the_way_out(app, failed.args[0], "left the session bus")


def test_a_key_changed_in_the_desktops_settings_is_the_one_the_app_names(
    qtbot: QtBot, portal: PortalService, app: Murmur
) -> None:
    bound(qtbot, app)
    with qtbot.waitSignal(app.hotkey.bound, timeout=WAIT_MS) as changed:
        portal.change_key("Super+Space")
    assert changed.args == ["Super+Space"]
    assert app.window.activity.status.text().startswith("Ready: hold Super+Space and speak")


def test_settings_say_which_backend_hears_the_key(qtbot: QtBot, portal: PortalService, app: Murmur) -> None:
    bound(qtbot, app)
    said: list[str] = []

    def read_then_cancel() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SettingsDialog)
        said.append(dialog.general_page.hotkey_backend.text())
        dialog.reject()

    QTimer.singleShot(0, read_then_cancel)
    app.open_settings()
    assert said == ["Heard through: the desktop's shortcut portal (GlobalShortcuts)"]
