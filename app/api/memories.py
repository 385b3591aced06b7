"""What a change to the user's memories did."""

from app.changes.memories import MemoryChange

__all__ = ["MemoryChange"]
