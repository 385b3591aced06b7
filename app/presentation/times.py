"""Moments in words, relative to now: 'tomorrow 09:00' (a due), 'Yesterday 9:10' (when something was said)."""

from datetime import datetime
from zoneinfo import ZoneInfo


def when(moment: datetime | None, now: datetime, tz: ZoneInfo) -> str:
    """'today 17:00', 'tomorrow 09:00', 'Thu 26 Nov 09:00', with 'overdue' when past."""
    if moment is None:
        return ""
    local, today = moment.astimezone(tz), now.astimezone(tz).date()
    days = (local.date() - today).days
    day = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(days, f"{local:%a %d %b}")
    text = f"{day} {local:%H:%M}"
    return f"overdue {text}" if moment < now else text


def said_when(moment: datetime, now: datetime, tz: ZoneInfo) -> str:
    """'Today 14:02', 'Yesterday 9:10', 'Mon 23 Nov 14:02'."""
    local = moment.astimezone(tz)
    days = (now.astimezone(tz).date() - local.date()).days
    day = {0: "Today", 1: "Yesterday"}.get(days, f"{local:%a} {local.day} {local:%b}")
    return f"{day} {local.hour}:{local.minute:02d}"
