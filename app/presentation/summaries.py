"""A run or an edit summed up in one line: '2 created, 1 completed (1 couldn't be processed); 1 remembered'."""

from collections.abc import Sequence

from app.changes.executor import ActionFailure, AppliedAction
from app.changes.memories import MemoryChange
from app.domain.verbs import counted
from app.presentation.memories import memory_counts

NOTHING_CHANGED = "Nothing changed"


def summarize(
    applied: Sequence[AppliedAction], failures: Sequence[ActionFailure], memory_changes: Sequence[MemoryChange] = ()
) -> str:
    """The entries' changes counted in a fixed order, how many failed, then the memories' changes."""
    entries = counted(item.action for item in applied) or NOTHING_CHANGED
    if failures:
        how = "failed" if entries == NOTHING_CHANGED else "couldn't be processed"
        entries += f" ({len(failures)} {how})"
    memory = memory_counts(memory_changes)
    if not memory:
        return entries
    return memory if entries == NOTHING_CHANGED else f"{entries}; {memory}"
