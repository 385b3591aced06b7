"""Questions the rules can answer from the list itself: what is due today, tomorrow or this week, and what
is overdue. The answer changes nothing; anything else asked is left to the rules (or a model)."""

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from app.domain.clock import Clock
from app.domain.enums import Status
from app.store.models import Entry

_ASKING = re.compile(
    r"^\s*(what(?:'s| is| are| do i have| have i got)?|which|anything|is there anything|do i have(?: anything)?"
    r"|have i got(?: anything)?|show me|tell me)\b",
    re.IGNORECASE,
)
_ABOUT_DUES = re.compile(r"\b(due|overdue|to do|todo|on|planned|left|late)\b", re.IGNORECASE)
_PERIODS = (
    ("overdue", re.compile(r"\b(overdue|late|missed)\b", re.IGNORECASE)),
    ("tomorrow", re.compile(r"\btomorrow\b", re.IGNORECASE)),
    ("this week", re.compile(r"\b(this|the) week\b|\bweek\b", re.IGNORECASE)),
    ("today", re.compile(r"\b(today|tonight|now)\b", re.IGNORECASE)),
)
SHOWN = 5


def _day_start(moment: datetime, clock: Clock) -> datetime:
    return moment.astimezone(clock.tz).replace(hour=0, minute=0, second=0, microsecond=0)


def _window(period: str, clock: Clock) -> tuple[datetime | None, datetime]:
    """The due times `period` asks about: [start, end); no start for overdue (anything before now)."""
    today = _day_start(clock.now, clock)
    if period == "overdue":
        return None, clock.now
    if period == "tomorrow":
        return today + timedelta(days=1), today + timedelta(days=2)
    if period == "this week":  # to the end of Sunday
        return today, today + timedelta(days=7 - today.weekday())
    return today, today + timedelta(days=1)


def _listing(dated: Sequence[tuple[datetime, Entry]], clock: Clock) -> str:
    today = clock.now.astimezone(clock.tz).date()

    def when(due: datetime) -> str:
        local = due.astimezone(clock.tz)
        return f"{local:%H:%M}" if local.date() == today else f"{local:%a %H:%M}"

    shown = [f"{entry.summary} ({when(due)})" for due, entry in dated[:SHOWN]]
    more = f", and {len(dated) - SHOWN} more" if len(dated) > SHOWN else ""
    return ", ".join(shown) + more


def answer_question(text: str, entries: Sequence[Entry], clock: Clock) -> str | None:
    """The answer to a question about what is due, from the open `entries`; None when `text` is not one."""
    if not _ASKING.search(text) or not _ABOUT_DUES.search(text):
        return None
    period = next((name for name, pattern in _PERIODS if pattern.search(text)), "today")
    start, end = _window(period, clock)
    dated = sorted(
        ((e.due_at, e) for e in entries if e.status is Status.ACTIVE and e.due_at is not None), key=lambda d: d[0]
    )
    due = [(at, e) for at, e in dated if (start is None or at >= start) and at < end]
    if period == "overdue":
        return f"Overdue: {_listing(due, clock)}." if due else "Nothing is overdue."
    answer = f"Due {period}: {_listing(due, clock)}." if due else f"Nothing is due {period}."
    late = [(at, e) for at, e in dated if at < min(start or clock.now, clock.now)]
    return answer + (f" Also overdue: {_listing(late, clock)}." if late else "")
