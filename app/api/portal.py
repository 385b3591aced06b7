"""The hotkey through the desktop's GlobalShortcuts portal (loads the D-Bus client: import it where it is used)."""

from app.shortcuts.portal import Listener, PortalShortcut, TalkKey, portal_trigger

__all__ = ["Listener", "PortalShortcut", "TalkKey", "portal_trigger"]
