"""A change to the user's memories in words: the CLI's lines, the window's title, the model's tool result and
the count a run's summary gives."""

from collections import Counter
from collections.abc import Sequence

from app.changes.memories import MemoryChange
from app.domain.enums import MemoryChangeKind, UndoKind
from app.domain.verbs import PAST_TENSE, counted_word
from app.terminal import terminal_safe

ALREADY_REMEMBERED = "Already remembered"  # remember found the same fact kept before: confirmed, not added


def _done(change: MemoryChange) -> str:
    """'Remembered', 'Forgot', 'Edited' or 'Already remembered'."""
    return ALREADY_REMEMBERED if change.confirmed else PAST_TENSE[UndoKind(change.kind)].capitalize()


def _text(change: MemoryChange) -> str:
    return terminal_safe(change.memory.text, multiline=False)


def memory_line(change: MemoryChange) -> str:
    """The CLI's line among a run's changes: 'remembered 3fa1b2  memory: My brother is Tom'."""
    return f"{PAST_TENSE[UndoKind(change.kind)]:<9} {change.short_id}  memory: {change.memory.text}"


def memory_said(change: MemoryChange) -> str:
    """The memory command's line: 'Remembered 3fa1b2: My brother is Tom'."""
    return f"{_done(change)} {change.short_id}: {_text(change)}"


def memory_title(change: MemoryChange) -> str:
    """The window's title: 'Remembered: My brother is Tom' (no ID)."""
    return f"{_done(change)}: {_text(change)}"


def memory_detail(change: MemoryChange) -> str:
    """The window's detail line: the memory as the Memory tab lists it, '3fa1b2  My brother is Tom'."""
    return f"{change.short_id}  {_text(change)}"


def tool_memory_line(change: MemoryChange) -> str:
    """What the model reads: 'Remembered [3fa1b2] My brother is Tom'."""
    return f"{_done(change)} [{change.short_id}] {change.memory.text}"


def memory_counts(changes: Sequence[MemoryChange]) -> str:
    """'1 remembered, 1 forgotten', in a fixed order; '' for none."""
    counts = Counter(change.kind for change in changes)
    return ", ".join(f"{counts[kind]} {counted_word(UndoKind(kind))}" for kind in MemoryChangeKind if counts[kind])
