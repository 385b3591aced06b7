"""Reaching a sync server to set it up (loads the CalDAV client: import it where it is used)."""

from app.sync.setup import Tried, discover, try_account

__all__ = ["Tried", "discover", "try_account"]
