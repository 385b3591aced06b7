"""Where an entry sits in the list as people read it (Overdue, Today, Tomorrow, the next days, Later,
Someday, Done) and its due said relative to now ("in 20 min", "Tomorrow 9:00", "Thu 15:00").

Plain Python, so the rules are tested without Qt; the list model groups and labels rows with them.
"""

from dataclasses import dataclass
from datetime import date, datetime
from enum import IntEnum, StrEnum
from zoneinfo import ZoneInfo

from app.domain.enums import Status
from app.store.models import Entry

DAYS_NAMED = 6  # days after tomorrow that get a section of their own; beyond is "Later"
OPEN_STATUSES = frozenset({Status.ACTIVE, Status.SNOOZED})


class Part(IntEnum):
    """The list's sections, in the order shown."""

    OVERDUE = 0
    TODAY = 1
    TOMORROW = 2
    DAY = 3  # one per day, after tomorrow
    LATER = 4
    SOMEDAY = 5  # open, no date
    DONE_TODAY = 6
    DONE = 7  # completed before today
    ARCHIVED = 8


OPEN_PARTS = frozenset({Part.OVERDUE, Part.TODAY, Part.TOMORROW, Part.DAY, Part.LATER, Part.SOMEDAY})


@dataclass(frozen=True, order=True)
class Section:
    part: Part
    day: date | None = None  # for Part.DAY

    @property
    def title(self) -> str:
        if self.part is Part.DAY and self.day:
            return f"{self.day:%A} {self.day.day} {self.day:%b}"
        return {
            Part.OVERDUE: "Overdue",
            Part.TODAY: "Today",
            Part.TOMORROW: "Tomorrow",
            Part.LATER: "Later",
            Part.SOMEDAY: "Someday",
            Part.DONE_TODAY: "Done today",
            Part.DONE: "Done",
            Part.ARCHIVED: "Archived",
        }[self.part]


def planned_for(entry: Entry) -> datetime | None:
    """When the entry asks for attention: a snoozed one when its snooze ends, else its due."""
    if entry.status is Status.SNOOZED and entry.snooze_until:
        return entry.snooze_until
    return entry.due_at


def section_of(entry: Entry, now: datetime, tz: ZoneInfo) -> Section:
    today = now.astimezone(tz).date()
    if entry.status is Status.ARCHIVED:
        return Section(Part.ARCHIVED)
    if entry.status is Status.COMPLETED:
        done_today = entry.completed_at is not None and entry.completed_at.astimezone(tz).date() == today
        return Section(Part.DONE_TODAY if done_today else Part.DONE)
    moment = planned_for(entry)
    if moment is None:
        return Section(Part.SOMEDAY)
    if moment < now:
        return Section(Part.OVERDUE)
    days = (moment.astimezone(tz).date() - today).days
    if days <= 1:
        return Section(Part.TODAY if days == 0 else Part.TOMORROW)
    if days <= 1 + DAYS_NAMED:
        return Section(Part.DAY, moment.astimezone(tz).date())
    return Section(Part.LATER)


def _clock(moment: datetime) -> str:
    return f"{moment.hour}:{moment.minute:02d}"


def relative_due(moment: datetime, now: datetime, tz: ZoneInfo) -> str:
    """A due as people say it: minutes when close, the day's name within the week, the date beyond."""
    minutes = round((moment - now).total_seconds() / 60)
    if 0 <= minutes < 60:
        return f"in {minutes} min" if minutes else "now"
    if -60 < minutes < 0:
        return f"{-minutes} min ago"
    local = moment.astimezone(tz)
    days = (local.date() - now.astimezone(tz).date()).days
    if -1 <= days <= 1:
        return f"{('Yesterday', 'Today', 'Tomorrow')[days + 1]} {_clock(local)}"
    if -6 <= days <= DAYS_NAMED + 1:
        return f"{local:%a} {_clock(local)}"
    if local.year == now.astimezone(tz).year:
        return f"{local:%a} {local.day} {local:%b}"
    return f"{local.day} {local:%b} {local.year}"


class View(StrEnum):
    """What the sidebar's entry views show (a category view is All narrowed to one category)."""

    TODAY = "today"
    UPCOMING = "upcoming"
    ALL = "all"
    DONE = "done"


VIEW_PARTS: dict[View, frozenset[Part]] = {
    View.TODAY: frozenset({Part.OVERDUE, Part.TODAY, Part.DONE_TODAY}),
    View.UPCOMING: frozenset({Part.TODAY, Part.TOMORROW, Part.DAY, Part.LATER}),
    View.ALL: OPEN_PARTS | {Part.DONE_TODAY},
    View.DONE: frozenset({Part.DONE_TODAY, Part.DONE, Part.ARCHIVED}),
}
EVERY_PART = frozenset(Part)  # a search looks through everything
