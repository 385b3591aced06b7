"""Which backend hears the talk key: pynput on X11, the desktop's GlobalShortcuts portal on Wayland where it is
offered, none on Wayland without it (then the error says how to bind murmur start / murmur stop); and the hotkey
as the portal's preferred trigger."""

import pytest

from app.cli.output import cli_text
from app.shortcuts.choice import Backend, choose_backend
from app.shortcuts.portal import portal_trigger
from app.shortcuts.problems import NoPortal


def never_asked() -> str | None:
    raise AssertionError("the portal is asked about on Wayland only")


@pytest.mark.parametrize(
    "environ",
    [{"DISPLAY": ":0"}, {"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}, {}],
    ids=["x11", "x11-session", "no-display"],
)
def test_outside_wayland_pynput_hears_the_key_and_the_portal_is_not_asked(environ: dict[str, str]) -> None:
    assert choose_backend(environ, never_asked).backend is Backend.PYNPUT


@pytest.mark.parametrize(
    "environ",
    [
        {"WAYLAND_DISPLAY": "wayland-0"},
        {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1"},
        {"XDG_SESSION_TYPE": "Wayland"},
    ],
    ids=["wayland", "wayland-with-xwayland", "wayland-session"],
)
def test_on_wayland_the_portal_hears_the_key_where_it_is_offered(environ: dict[str, str]) -> None:
    choice = choose_backend(environ, lambda: None)
    assert choice.backend is Backend.PORTAL and choice.problem is None


def test_on_wayland_without_the_portal_there_is_none_and_the_error_says_how_to_bind_start_and_stop() -> None:
    choice = choose_backend({"WAYLAND_DISPLAY": "wayland-0"}, lambda: "no xdg-desktop-portal on the session bus")
    assert choice.backend is Backend.NONE and isinstance(choice.problem, NoPortal)
    said = cli_text(str(choice.problem), choice.problem.remedy)
    assert said == (
        "no global hotkey on this Wayland desktop: its shortcut portal is missing (no xdg-desktop-portal on the "
        "session bus); bind `murmur start` to a key's press and `murmur stop` to its release in the desktop's key "
        "bindings (Hyprland: bind and bindr; sway: bindsym and bindsym --release)"
    )


@pytest.mark.parametrize(
    ("combination", "trigger"),
    [
        ("<ctrl>+<alt>+<space>", "CTRL+ALT+space"),
        ("<cmd>+<shift>+m", "LOGO+SHIFT+m"),
        ("<ctrl_l>+<f9>", "CTRL+F9"),
        ("<alt>+<enter>", "ALT+Return"),
    ],
)
def test_the_hotkey_is_offered_to_the_portal_in_the_shortcuts_specs_words(combination: str, trigger: str) -> None:
    assert portal_trigger(combination) == trigger
