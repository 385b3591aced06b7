"""The entries a request shows the model: a bounded selection, never "all of them".

A small list is shown whole. A large one is chosen by relevance to what was just said and to this
moment, group by group, each group with a share of a token budget: entries matching the user's words
first (the one they name must be there, however old), then what is overdue or due soon, snoozed
entries waking soon, what changed lately, high priority, open questions. A share a group does not use
passes to the next; what is left at the end fills from all of them. The context says how many open
entries it leaves out, and search_entries reaches every one.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from functools import partial
from zoneinfo import ZoneInfo

from sqlmodel import Session

from app.domain.enums import Status
from app.memory.entry_rows import OPEN_CONDITION, EntryReader, EntryRow
from app.memory.entry_search import matching_entry_ids
from app.memory.lines import entry_line
from app.memory.tokens import estimate_tokens
from app.store.column_types import to_db_time
from app.store.queries import SHORT_ID_MIN

OPEN = (Status.ACTIVE, Status.SNOOZED)
SHOW_WHOLE_UP_TO = 200  # entries: below this, the whole list is tried first
CANDIDATES_PER_GROUP = 60
DUE_SOON = timedelta(days=7)
WAKING_SOON = timedelta(days=3)


class Group(StrEnum):
    ALL = "Current entries, most important first"
    NAMED = "Matching what the user said"
    DUE = "Overdue or due within a week"
    WAKING = "Snoozed, waking within three days"
    RECENT = "Created or changed lately"
    PRIORITY = "High priority"
    QUESTIONS = "Open questions"


# Each group's share of the budget, in the order groups are filled.
SHARES: tuple[tuple[Group, float], ...] = (
    (Group.NAMED, 0.40),
    (Group.DUE, 0.20),
    (Group.WAKING, 0.05),
    (Group.RECENT, 0.15),
    (Group.PRIORITY, 0.10),
    (Group.QUESTIONS, 0.05),
)


@dataclass
class ContextGroup:
    group: Group
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class EntryContext:
    groups: list[ContextGroup]
    open_total: int  # active and snoozed entries in the store
    open_shown: int
    tokens: int  # of the entry lines, estimated (app/memory/tokens.py)

    @property
    def hidden(self) -> int:
        return self.open_total - self.open_shown

    @property
    def lines(self) -> list[str]:
        return [line for group in self.groups for line in group.lines]


# Each group's entries, best first. :now and :soon are bound per query.
_GROUP_QUERIES = {
    Group.DUE: f"live = 'active' AND due_at <= :soon ORDER BY due_at LIMIT {CANDIDATES_PER_GROUP}",
    Group.WAKING: f"live = 'snoozed' AND snooze_until <= :soon ORDER BY snooze_until LIMIT {CANDIDATES_PER_GROUP}",
    Group.RECENT: f"{OPEN_CONDITION} ORDER BY updated_at DESC LIMIT {CANDIDATES_PER_GROUP}",
    Group.PRIORITY: f"{OPEN_CONDITION} AND priority <= 2 ORDER BY priority, due_at IS NULL, due_at "
    f"LIMIT {CANDIDATES_PER_GROUP}",
    Group.QUESTIONS: f"{OPEN_CONDITION} AND category = 'question' ORDER BY created_at DESC "
    f"LIMIT {CANDIDATES_PER_GROUP}",
}
_SOON = {Group.DUE: DUE_SOON, Group.WAKING: WAKING_SOON}
_WHOLE = f"{OPEN_CONDITION} ORDER BY priority IS NULL, priority, created_at DESC LIMIT {SHOW_WHOLE_UP_TO + 1}"


def _group(reader: EntryReader, group: Group) -> list[EntryRow]:
    soon = to_db_time(reader.now + _SOON.get(group, timedelta()))
    return reader.rows(_GROUP_QUERIES[group], soon=soon)


def _named(reader: EntryReader, session: Session, said: str) -> list[EntryRow]:
    """Entries matching the words, best first; open ones before finished ones."""
    ids = matching_entry_ids(session, said)
    if not ids:
        return []
    marks = ", ".join(f":id{i}" for i in range(len(ids)))
    by_id = {row.id: row for row in reader.rows(f"id IN ({marks})", **{f"id{i}": v for i, v in enumerate(ids)})}
    ranked = [by_id[i] for i in ids if i in by_id]
    return [r for r in ranked if r.status in OPEN] + [r for r in ranked if r.status not in OPEN]


def _whole_list(reader: EntryReader, tz: ZoneInfo, budget: int, open_total: int) -> EntryContext | None:
    """Every open entry, when they fit the budget (most lists, most of the time)."""
    if open_total > SHOW_WHOLE_UP_TO:
        return None
    rows = reader.rows(_WHOLE)
    # Short IDs are almost always their first six digits: cost the lines so before looking each one up.
    if sum(estimate_tokens(entry_line(row, row.id[:SHORT_ID_MIN], tz)) for row in rows) > budget:
        return None
    lines = [entry_line(row, reader.short_id(row.id), tz) for row in rows]
    tokens = sum(estimate_tokens(line) for line in lines)
    if tokens > budget:
        return None
    return EntryContext([ContextGroup(Group.ALL, lines)], open_total, len(lines), tokens)


def assemble_entries(session: Session, now: datetime, tz: ZoneInfo, said: str, budget: int) -> EntryContext:
    """The entries to show for an utterance of `said` at `now`, their lines within `budget` tokens."""
    reader = EntryReader(session, now)
    open_total = reader.open_total()
    whole = _whole_list(reader, tz, budget, open_total)
    if whole is not None:
        return whole
    fetch: dict[Group, Callable[[], list[EntryRow]]] = {
        group: (lambda: _named(reader, session, said)) if group is Group.NAMED else partial(_group, reader, group)
        for group, _ in SHARES
    }
    groups = {group: ContextGroup(group) for group, _ in SHARES}
    fetched: dict[Group, list[EntryRow]] = {}
    chosen: set[str] = set()
    costs: dict[str, int] = {}  # an entry's cost with a six-digit ID, made once
    used = open_shown = 0

    def cost_of(row: EntryRow) -> int:
        # Short IDs are almost always their first six digits: costed so, each looked up only when shown.
        if row.id not in costs:
            costs[row.id] = estimate_tokens(entry_line(row, row.id[:SHORT_ID_MIN], tz))
        return costs[row.id]

    def take(group: Group, limit: int) -> None:
        """Add `group`'s candidates not shown yet while the lines stay within `limit` tokens."""
        nonlocal used, open_shown
        if group not in fetched:
            fetched[group] = fetch[group]()
        for row in fetched[group]:
            if row.id in chosen or used + cost_of(row) > limit:
                continue  # a shorter line further down may still fit
            line = entry_line(row, reader.short_id(row.id), tz)
            cost = estimate_tokens(line)
            if used + cost > limit:
                continue
            groups[group].lines.append(line)
            chosen.add(row.id)
            used += cost
            open_shown += row.status in OPEN

    allowance = 0.0
    for group, share in SHARES:
        allowance += share * budget
        take(group, min(budget, int(allowance)))
    for group, _ in SHARES:  # what the shares left over, filled in the same order
        take(group, budget)
    shown = [g for g in groups.values() if g.lines]
    return EntryContext(shown, open_total, open_shown, used)
