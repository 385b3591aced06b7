"""When a snooze can hide an entry: an open one, until a moment ahead and past its due. A snooze hides; it never
brings an entry forward (that is a move of its due). The executor refuses the rest; the list's menu offers only
what it would take."""

from datetime import datetime

from app.domain.enums import Status

SNOOZABLE = frozenset({Status.ACTIVE, Status.SNOOZED})


def ends_past_due(until: datetime, due: datetime | None) -> bool:
    return due is None or until > due


def snooze_hides(status: Status, due: datetime | None, until: datetime, now: datetime) -> bool:
    """Whether snoozing an entry with this `status` and `due` until `until` would be taken, at `now`."""
    return status in SNOOZABLE and until > now and ends_past_due(until, due)
