"""An entry on one line of text, as `murmur list` and the CLI's results show it."""

from datetime import datetime
from zoneinfo import ZoneInfo

from app.domain.checklist import items_of, progress
from app.domain.enums import Status
from app.domain.recurrence import describe
from app.presentation.times import when
from app.store.models import Entry
from app.terminal import terminal_safe


def entry_line(entry: Entry, short_id: str, now: datetime, tz: ZoneInfo) -> str:
    priority = f"P{entry.priority}" if entry.priority else "  "
    extras = []
    if entry.due_at:
        extras.append(f"due {when(entry.due_at, now, tz)}")
    elif entry.due_text:
        extras.append(f"due '{terminal_safe(entry.due_text, multiline=False)}'")
    if entry.recurrence:
        extras.append(describe(entry.recurrence))
    if entry.snooze_until:
        extras.append(f"snoozed until {when(entry.snooze_until, now, tz)}")
    if entry.status not in (Status.ACTIVE, Status.SNOOZED):
        extras.append(entry.status.value)
    tail = f"  ({', '.join(extras)})" if extras else ""
    summary = terminal_safe(entry.summary, multiline=False)
    if items := items_of(entry.summary, entry.items):
        summary += f"  [{progress(items)}]"
    return f"{short_id}  {priority}  {entry.category.value:<8}  {summary}{tail}"


def item_lines(entry: Entry) -> list[str]:
    """The entry's checklist under its line: "          [x] eggs"."""
    return [
        f"{'':10}[{'x' if item.done else ' '}] {terminal_safe(item.text, multiline=False)}"
        for item in items_of(entry.summary, entry.items)
    ]
