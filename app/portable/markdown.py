"""Markdown to paste into a notes app: a heading per category, then Overdue, Today, Upcoming, Someday and Done,
each entry a checkbox line with its due and priority in words, its checklist's items nested under it."""

import re
from collections.abc import Iterable
from datetime import datetime
from zoneinfo import ZoneInfo

from app.domain.checklist import load_items
from app.domain.enums import Category, Status
from app.domain.recurrence import describe
from app.portable.common import is_default_time, one_line
from app.store.models import Entry
from app.terminal import terminal_safe

GROUPS = ("Overdue", "Today", "Upcoming", "Someday", "Done")
_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")  # what would turn words into markup
_PLURAL = {Category.TODO: "Todos", Category.LIST: "Lists", Category.THOUGHT: "Thoughts"}


def _group(entry: Entry, now: datetime, tz: ZoneInfo) -> str:
    if entry.status in (Status.COMPLETED, Status.ARCHIVED):
        return "Done"
    if entry.due_at is None:
        return "Someday"
    if entry.due_at < now:
        return "Overdue"
    return "Today" if entry.due_at.astimezone(tz).date() == now.astimezone(tz).date() else "Upcoming"


def _when(moment: datetime, tz: ZoneInfo) -> str:
    local = moment.astimezone(tz)
    day = f"{local:%a} {local.day} {local:%b %Y}"
    return day if is_default_time(moment, tz) else f"{day}, {local:%H:%M}"


def _escaped(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", terminal_safe(one_line(text), multiline=False))


def _lines(entry: Entry, tz: ZoneInfo) -> list[str]:
    """The entry's checkbox line, then its items' checkboxes indented under it."""
    nested = [f"  - [{'x' if item.done else ' '}] {_escaped(item.text)}" for item in load_items(entry.items)]
    return [_line(entry, tz), *nested]


def _line(entry: Entry, tz: ZoneInfo) -> str:
    # "- [ ] " comes before the words, so no line (no cell, in a spreadsheet) starts a formula: no quote is
    # added as CSV does, and the words read as they were said.
    box = "[x]" if entry.status in (Status.COMPLETED, Status.ARCHIVED) else "[ ]"
    details = []
    if entry.due_at is not None:
        details.append(f"due {_when(entry.due_at, tz)}")
    if entry.recurrence:
        details.append(describe(entry.recurrence))
    if entry.priority is not None:
        details.append(f"priority {entry.priority}")
    if entry.status is Status.ARCHIVED:
        details.append("archived")
    elif entry.status is Status.COMPLETED and entry.completed_at is not None:
        details.append(f"done {_when(entry.completed_at, tz)}")
    return f"- {box} {_escaped(entry.summary)}" + (f" ({'; '.join(details)})" if details else "")


def _category_title(category: Category) -> str:
    return _PLURAL.get(category, f"{category.value.capitalize()}s")


def write_markdown(entries: Iterable[Entry], tz: ZoneInfo, now: datetime) -> str:
    by_category: dict[Category, dict[str, list[Entry]]] = {}
    for entry in entries:
        by_category.setdefault(entry.category, {}).setdefault(_group(entry, now, tz), []).append(entry)
    local = now.astimezone(tz)
    lines = [f"# Murmur, {local:%a} {local.day} {local:%b %Y}, {local:%H:%M}"]
    for category in Category:
        groups = by_category.get(category)
        if not groups:
            continue
        lines += ["", f"## {_category_title(category)}"]
        for name in GROUPS:
            listed = sorted(groups.get(name, []), key=lambda e: (e.due_at or e.created_at, e.summary))
            if listed:
                lines += ["", f"### {name}", "", *(line for entry in listed for line in _lines(entry, tz))]
    if len(lines) == 1:
        lines += ["", "Nothing to list."]
    return "\n".join(lines) + "\n"
