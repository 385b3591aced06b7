"""The store's last guard: no row is written past Murmur's bounds, whichever way in it came (the agent's tools,
MCP, import, sync, the CLI, the window). Checked at each flush, so a write that breaks one fails alone, with the
field named, inside the caller's savepoint."""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import inspect
from sqlmodel import Session

from app.bounds.checks import moment, one_line, same_form, sized
from app.bounds.limits import KEPT_LAST_YEAR
from app.store.models import Entry, Memory, Utterance
from app.terminal import unbroken

_TEXTS: dict[type, tuple[str, ...]] = {
    Entry: ("summary", "content", "source_text", "due_text", "recurrence", "items"),
    Memory: ("text",),
    Utterance: ("text", "heard_text", "reply"),
}
_MOMENTS = ("due_at", "snooze_until", "completed_at", "created_at", "updated_at")


def _changed(row: Any, names: Iterable[str], new: bool) -> Iterable[str]:
    """The fields of `row` this flush writes: all of a new row's, a changed row's changed ones (a row kept from an
    older release may hold a value out of bounds; it is not refused until that value is written again)."""
    if new:
        return names
    state = inspect(row)
    return [name for name in names if state.attrs[name].history.has_changes()]


def _hold(row: Any, new: bool) -> None:
    texts = _TEXTS.get(type(row))
    if texts is None:
        return
    for name in _changed(row, texts, new):
        value = getattr(row, name)
        if isinstance(value, str):
            kept = same_form(unbroken(sized(value, name)))
            kept = one_line(kept) if name == "summary" else kept
            if kept is not value:
                setattr(row, name, kept)
    for name in _changed(row, [n for n in _MOMENTS if hasattr(row, n)], new):
        value = getattr(row, name)
        if isinstance(value, datetime):
            moment(value, name, KEPT_LAST_YEAR)


def hold_bounds(session: Session, _context: object, _instances: object) -> None:
    """Before each flush: every new or changed entry, memory and utterance within bounds, or OutOfBounds."""
    for row in session.new:
        _hold(row, new=True)
    for row in session.dirty:
        _hold(row, new=False)
