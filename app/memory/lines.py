"""Entries as the model reads them: one compact line each, in the context and in search results."""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from app.domain.checklist import items_of
from app.domain.enums import Category, Status
from app.domain.recurrence import describe


class EntryFacts(Protocol):
    """What a line shows of an entry: an Entry, or an EntryRow (app/memory/entry_rows.py)."""

    @property
    def id(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def category(self) -> Category: ...
    @property
    def priority(self) -> int | None: ...
    @property
    def due_at(self) -> datetime | None: ...
    @property
    def due_text(self) -> str | None: ...
    @property
    def recurrence(self) -> str | None: ...
    @property
    def status(self) -> Status: ...
    @property
    def items(self) -> str | None: ...


def entry_line(entry: EntryFacts, short_id: str, tz: ZoneInfo) -> str:
    parts = [f"[{short_id}]", entry.category.value]
    if entry.priority is not None:
        parts.append(f"P{entry.priority}")
    if entry.due_at is not None:
        parts.append(f"due:{entry.due_at.astimezone(tz):%a %Y-%m-%d %H:%M}")
    elif entry.due_text:
        parts.append(f"due:{entry.due_text!r}")
    if entry.recurrence is not None:
        parts.append(f"repeats:{describe(entry.recurrence)!r}")
    if entry.status.value != "active":
        parts.append(f"status:{entry.status.value}")
    line = " ".join(parts) + f' "{entry.summary}"'
    if items := items_of(entry.summary, entry.items):  # each can be ticked: complete_entries' item
        line += " items: " + "; ".join(f"[{'x' if item.done else ' '}] {item.text}" for item in items)
    return line


def entry_lines(entries: Sequence[EntryFacts], short_ids: Mapping[str, str], tz: ZoneInfo) -> list[str]:
    return [entry_line(entry, short_ids.get(entry.id, entry.id[:6]), tz) for entry in entries]
