"""Where an entry sits in the list as people read it (Overdue, Today, Tomorrow, the next days, Later,
Someday, Done), its due said relative to now ("in 20 min", "Tomorrow 09:00", "Thu 15:00"), and the
entries grouped so, each worked out once into an `EntryRow`.

Plain Python: the rules are tested without Qt, and the grouping of 10,000 entries runs on the worker
thread with the read, not on the GUI thread.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from enum import IntEnum, StrEnum
from zoneinfo import ZoneInfo

from app.api.rows import Entry
from app.domain.checklist import ChecklistItem, items_of, progress
from app.domain.enums import Category, Status
from app.domain.recurrence import describe
from app.presentation.times import day_title, in_full, relative

DAYS_NAMED = 6  # days after tomorrow that get a section of their own; beyond is "Later"
OPEN_STATUSES = frozenset({Status.ACTIVE, Status.SNOOZED})
NO_PRIORITY = 9  # sorts after 1-5


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
    def key(self) -> str:
        """What names this section from one day, and one start, to the next: its date, or its part."""
        return self.day.isoformat() if self.part is Part.DAY and self.day else self.part.name.lower()

    @property
    def title(self) -> str:
        if self.part is Part.DAY and self.day:
            return day_title(self.day)
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


class View(StrEnum):
    """What the sidebar's entry views show (a category view is All narrowed to one category)."""

    TODAY = "today"
    UPCOMING = "upcoming"
    ALL = "all"
    DONE = "done"
    ARCHIVED = "archived"


VIEW_PARTS: dict[View, frozenset[Part]] = {
    View.TODAY: frozenset({Part.OVERDUE, Part.TODAY, Part.DONE_TODAY}),
    View.UPCOMING: frozenset({Part.TODAY, Part.TOMORROW, Part.DAY, Part.LATER}),
    View.ALL: OPEN_PARTS | {Part.DONE_TODAY},
    View.DONE: frozenset({Part.DONE_TODAY, Part.DONE, Part.ARCHIVED}),
    View.ARCHIVED: frozenset({Part.ARCHIVED}),
}
EVERY_PART = frozenset(Part)  # a search looks through everything
DATED = frozenset({Part.OVERDUE, Part.TODAY, Part.TOMORROW, Part.DAY, Part.LATER})


@functools.lru_cache(maxsize=1024)
def _repeats(rule: str) -> str:
    return describe(rule)  # a few rules, many entries: read each once


@functools.lru_cache(maxsize=20_000)
def _checklist(summary: str, raw: str | None) -> tuple[ChecklistItem, ...]:
    return items_of(summary, raw)  # read once, not at each refresh after each change


@dataclass(frozen=True)
class EntryRow:
    """One entry as the list shows it. What only a hover or a painted row needs is worked out then."""

    id: str
    short_id: str
    summary: str
    content: str
    category: Category
    priority: int | None
    status: Status
    section: Section
    moment: datetime | None  # the due (or, snoozed, the snooze's end) the row shows
    due_text: str  # the words no date was read from
    recurrence: str | None
    now: datetime
    tz: ZoneInfo
    order: tuple[float, int, float]
    haystack: str  # lowercase summary + content + items + short ID, for the search box
    entry: Entry  # all of it, for the details panel
    items: tuple[ChecklistItem, ...] = ()  # its checklist

    @property
    def progress(self) -> str:
        """Items done of all ("2 of 4"); "" for an entry without a checklist."""
        return progress(self.items) if self.items else ""

    @property
    def done(self) -> bool:
        return self.status in (Status.COMPLETED, Status.ARCHIVED)

    @property
    def overdue(self) -> bool:
        return self.section.part is Part.OVERDUE

    @property
    def due(self) -> str:
        """Relative: "in 20 min", "Tomorrow 09:00"; or the words no date was read from."""
        due = relative(self.moment, self.now, self.tz) if self.moment else self.due_text
        return f"Snoozed · {due}" if self.status is Status.SNOOZED and self.moment else due

    @property
    def due_exact(self) -> str:
        """For the tooltip: "Thursday 26 November 2026, 15:00"."""
        return in_full(self.moment, self.tz) if self.moment else ""

    @property
    def repeats(self) -> str:
        return _repeats(self.recurrence) if self.recurrence else ""

    @classmethod
    def of(cls, entry: Entry, short_id: str, now: datetime, tz: ZoneInfo) -> "EntryRow":
        section = section_of(entry, now, tz)
        status, summary, content = entry.status, entry.summary, entry.content
        moment = planned_for(entry) if status in OPEN_STATUSES else entry.due_at
        priority = entry.priority
        # A done entry shows only the checklist it kept: a summary's reading is offered while it is open.
        items = _checklist(summary if status in OPEN_STATUSES else "", entry.items)
        if section.part in DATED and moment:
            order = (moment.timestamp(), priority or NO_PRIORITY, -entry.created_at.timestamp())
        elif section.part is Part.SOMEDAY:
            order = (0.0, priority or NO_PRIORITY, -entry.created_at.timestamp())
        else:  # done: the latest first
            finished = entry.completed_at or entry.updated_at
            order = (-finished.timestamp(), priority or NO_PRIORITY, -entry.created_at.timestamp())
        return cls(
            id=entry.id,
            short_id=short_id,
            summary=summary,
            content=content,
            category=entry.category,
            priority=priority,
            status=status,
            section=section,
            moment=moment,
            due_text=entry.due_text or "",
            recurrence=entry.recurrence,
            now=now,
            tz=tz,
            order=order,
            haystack="\n".join([summary, content, *(item.text for item in items), short_id]).lower(),
            entry=entry,
            items=items,
        )


class Sort(StrEnum):
    """How the rows of each section are ordered; the sections stay as they are."""

    DUE = "due"  # the soonest first (the done, the latest done first)
    CREATED = "created"  # the newest first
    KIND = "kind"  # by category, in the order the categories are listed
    ALPHABETICAL = "alphabetical"


_KINDS = {category: place for place, category in enumerate(Category)}
SORT_KEYS: dict[Sort, Callable[[EntryRow], tuple[object, ...]]] = {
    Sort.DUE: lambda row: row.order,
    Sort.CREATED: lambda row: (-row.entry.created_at.timestamp(), row.order),
    Sort.KIND: lambda row: (_KINDS[row.category], row.order),
    Sort.ALPHABETICAL: lambda row: (row.summary.casefold(), row.order),
}


def grouped(
    entries: list[Entry], short_ids: dict[str, str], now: datetime, tz: ZoneInfo
) -> list[tuple[Section, list[EntryRow]]]:
    """The entries by section, sections in the list's order, each section's rows in theirs."""
    groups: dict[Section, list[EntryRow]] = {}
    for entry in entries:
        row = EntryRow.of(entry, short_ids.get(entry.id, entry.id[:6]), now, tz)
        groups.setdefault(row.section, []).append(row)
    return [(section, sorted(groups[section], key=lambda r: r.order)) for section in sorted(groups)]
