"""The user's memories: facts kept for the model, by hand or by it."""

from app.changes.memories import MemoryChange, edit_memory, forget, remember
from app.domain.enums import MemorySource
from app.memory.profile import active_memories, short_memory_ids
from app.service.core import ServiceCore
from app.store.models import Memory


class MemoryArea(ServiceCore):
    """Memories listed, kept, forgotten and edited, each change undoable."""

    def memories(self) -> list[tuple[str, Memory]]:
        """The user's memories not forgotten, with their short IDs, most recently used first."""
        with self.store.read() as session:
            shorts = short_memory_ids(session)
            return [(shorts[m.id], m) for m in active_memories(session)]

    def remember(self, text: str) -> MemoryChange:
        """Keep a fact the user gives by hand (the same one already kept is confirmed); undoable."""
        with self.store.write() as session:
            return remember(session, text, MemorySource.USER, self.clock().now)

    def forget_memory(self, id_prefix: str) -> MemoryChange:
        with self.store.write() as session:
            return forget(session, id_prefix, self.clock().now)

    def edit_memory(self, id_prefix: str, text: str) -> MemoryChange:
        with self.store.write() as session:
            return edit_memory(session, id_prefix, text, self.clock().now)
