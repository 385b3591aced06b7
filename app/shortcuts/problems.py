"""Why no global talk key works here, one error each (the desktop's portal answers, Wayland without it), with the
same way out for all: the desktop's own key bindings run `murmur start` on a key's press, `murmur stop` on its
release; meanwhile the window's mic button talks."""

from app.errors import Command, MurmurError, Words

_BINDINGS = "Hyprland: bind and bindr; sway: bindsym and bindsym --release"
BIND_START_AND_STOP = Command(
    (("start",), ("stop",)),
    Words(
        "hold the mic button, or bind `murmur start` to a key's press and `murmur stop` to its release in the "
        f"desktop's key bindings ({_BINDINGS})"
    ),
    phrase=f"bind {{}} to a key's press and {{}} to its release in the desktop's key bindings ({_BINDINGS})",
)


class ShortcutError(MurmurError):
    """No global talk key: the window's mic button, or a binding in the desktop, talks instead."""

    def __init__(self, message: str) -> None:
        super().__init__(message, BIND_START_AND_STOP)


class NoPortal(ShortcutError):
    """A Wayland desktop without the GlobalShortcuts portal (no xdg-desktop-portal, or one too old)."""


class BindDenied(ShortcutError):
    """The user cancelled the desktop's dialog that binds the talk key (the portal's response 1)."""


class BindFailed(ShortcutError):
    """The portal could not bind the talk key or make its session (response 2, or an error reply)."""


class SessionClosed(ShortcutError):
    """The desktop closed the shortcut session, or the portal went away: the talk key is gone."""


def no_portal(why: str) -> NoPortal:
    return NoPortal(f"no global hotkey on this Wayland desktop: its shortcut portal is missing ({why})")
