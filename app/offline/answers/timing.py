"""When an open entry falls: its due, or for a habit the turn that lands in the stretch asked about."""

from collections.abc import Sequence
from datetime import datetime, timedelta

from app.domain.clock import Clock
from app.domain.enums import Status
from app.domain.recurrence import next_occurrence
from app.errors import InvalidActionError
from app.store.models import Entry

Dated = tuple[datetime, Entry]


def time_from(entry: Entry, moment: datetime, clock: Clock) -> datetime | None:
    """The entry's first time at or after `moment`: its due, or a habit's next turn once the due has
    passed; None when it has no due, or is a one-off whose due is already behind."""
    due = entry.due_at
    if due is None or due >= moment:
        return due
    if not entry.recurrence:
        return None
    try:
        return next_occurrence(entry.recurrence, due, moment - timedelta(seconds=1), clock.tz)
    except InvalidActionError:  # a rule that never comes round again has no next turn
        return None


def _dated(entries: Sequence[Entry]) -> list[Entry]:
    """The active entries with a due (a habit without one has no time to be listed at)."""
    return [e for e in entries if e.status is Status.ACTIVE and e.due_at is not None]


def falling_in(entries: Sequence[Entry], start: datetime, end: datetime | None, clock: Clock) -> list[Dated]:
    """The entries due in [start, end) (no end: from `start` on), a habit once, at its first turn
    there; soonest first."""
    found = [(at, e) for e in _dated(entries) if (at := time_from(e, start, clock)) is not None]
    return sorted([(at, e) for at, e in found if end is None or at < end], key=lambda dated: dated[0])


def overdue(entries: Sequence[Entry], before: datetime) -> list[Dated]:
    """The entries whose due passed before `before`; soonest first."""
    found = [(e.due_at, e) for e in _dated(entries) if e.due_at is not None and e.due_at < before]
    return sorted(found, key=lambda dated: dated[0])
