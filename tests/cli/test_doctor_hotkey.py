"""`murmur doctor` on Wayland says what hears the talk key: the desktop's GlobalShortcuts portal where the session
bus offers it (a stand-in portal on a private bus here), else a failing check that says how to bind murmur start /
murmur stop in the desktop."""

from pathlib import Path

import pytest

from tests.support.murmur_cli import Murmur
from tests.support.portal_service import start_portal
from tests.support.session_bus import session_bus  # noqa: F401 (a fixture: a private session bus)


@pytest.fixture
def murmur(tmp_path: Path, session_bus: str) -> Murmur:  # noqa: F811 (the fixture imported above)
    wayland = {"WAYLAND_DISPLAY": "wayland-murmur-test", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ""}
    return Murmur(tmp_path / "murmur.db", tmp_path, DBUS_SESSION_BUS_ADDRESS=session_bus, **wayland)


def hotkey_check(murmur: Murmur) -> dict[str, object]:
    [check] = [check for check in murmur.json("doctor", code=1)["checks"] if check["name"] == "hotkey"]
    return check  # type: ignore[no-any-return]


def test_the_portal_hears_the_key_where_the_desktop_offers_it(murmur: Murmur) -> None:
    portal = start_portal()
    try:
        check = hotkey_check(murmur)
    finally:
        portal.connection.close()
    assert check == {
        "name": "hotkey",
        "ok": True,
        "detail": "the desktop's shortcut portal (GlobalShortcuts)",
        "fix": "",
    }


def test_without_the_portal_the_check_fails_and_says_how_to_bind_start_and_stop(murmur: Murmur) -> None:
    check = hotkey_check(murmur)
    assert check["ok"] is False and "shortcut portal is missing" in str(check["detail"])
    assert "bind `murmur start` to a key's press and `murmur stop` to its release" in str(check["fix"])
