"""A time said for today that has already passed ("tonight at 9" said at 21:55): Murmur asks whether tomorrow
was meant, rather than moving it there in silence."""

import re
from dataclasses import replace

from app.domain.actions import Cause, Choice, CreateAction, ParseFailure
from app.domain.clock import Clock
from app.domain.dates import resolve_due
from app.domain.enums import ActionKind, FailureKind
from app.offline.answers.wording import long_when

_TODAY = re.compile(r"\b(?:tonight|today|this\s+(?:morning|afternoon|evening))\b", re.IGNORECASE)


def passed_today(create: CreateAction, clock: Clock) -> tuple[ParseFailure, Choice] | None:
    """Why a new entry waits, and the reading to offer, when its time said for today lands on another day."""
    if not create.due_text or not _TODAY.search(create.due_text):
        return None
    due = resolve_due(create.due_text, clock)
    if due is None or due.astimezone(clock.tz).date() == clock.now.astimezone(clock.tz).date():
        return None
    when = long_when(due, clock)
    error = f"'{create.due_text}' has passed already; say when, or choose {when}"
    failure = ParseFailure(
        ActionKind.CREATE.value, error, create.source_text, Cause(FailureKind.AMBIGUOUS, create.due_text)
    )
    fixed = replace(create, due_text=f"{due.astimezone(clock.tz):%Y-%m-%d %H:%M}")
    return failure, Choice(f"Add '{create.summary}' for {when}?", (fixed,))
