"""Which backend hears the talk key, chosen at start: pynput on X11, the desktop's GlobalShortcuts portal on
Wayland, and on a Wayland desktop without that portal none (the user binds `murmur start` / `murmur stop`)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from app.shortcuts.problems import NoPortal, no_portal


class Backend(StrEnum):
    PORTAL = "portal"
    PYNPUT = "pynput"
    NONE = "none"


# What Settings and the doctor say about each.
BACKEND_WORDS = {
    Backend.PORTAL: "the desktop's shortcut portal (GlobalShortcuts)",
    Backend.PYNPUT: "pynput (X11)",
    Backend.NONE: "none: no shortcut from the desktop here; bind murmur start / murmur stop to a key",
}


@dataclass(frozen=True)
class Choice:
    backend: Backend
    problem: NoPortal | None = None  # why there is none


def is_wayland(environ: Mapping[str, str]) -> bool:
    """A Wayland session: there an X11 key grab (pynput through XWayland) hears only the keys X11 windows get."""
    return bool(environ.get("WAYLAND_DISPLAY")) or environ.get("XDG_SESSION_TYPE", "").lower() == "wayland"


def asked_portal_problem() -> str | None:
    """Why the desktop's GlobalShortcuts portal cannot be used here, or None."""
    from app.shortcuts.portal import portal_problem  # jeepney: on Linux only, loaded on Wayland only

    return portal_problem()


def choose_backend(
    environ: Mapping[str, str], portal_problem: Callable[[], str | None] = asked_portal_problem
) -> Choice:
    """The backend for this session; `portal_problem` says why the portal cannot be used, or None (asked on
    Wayland only: it talks to the session bus)."""
    if not is_wayland(environ):
        return Choice(Backend.PYNPUT)
    if (why := portal_problem()) is None:
        return Choice(Backend.PORTAL)
    return Choice(Backend.NONE, no_portal(why))
