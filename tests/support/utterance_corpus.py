"""The offline interpreter's yardstick: everyday utterances (tests/data/offline_utterances.toml), each
with what a user would require of it, read at several fixed "now"s in two timezones.

A case's due is written relative to the moment of speaking ("fri 17:00": the first Friday 17:00 after
now), so one case checks the same sentence said on a Monday morning, a Friday night, at 23:30 on New
Year's Eve and on Feb 28 of a leap year.
"""

import hashlib
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from app.changes.interpretation import InterpretContext
from app.domain.actions import (
    Action,
    ArchiveAction,
    CompleteAction,
    CreateAction,
    ParseResult,
    SnoozeAction,
    UpdateAction,
)
from app.domain.clock import Clock
from app.domain.dates import resolve_due
from app.domain.enums import Category, Status
from app.domain.local_calendar import LocalCalendar
from app.offline import OfflineInterpreter
from app.store.models import Entry

CORPUS = Path(__file__).resolve().parents[1] / "data" / "offline_utterances.toml"
# Sentences written after the rules were tuned to CORPUS, and not tuned to: how well they carry over.
HELD_OUT = CORPUS.with_name("offline_utterances_heldout.toml")
NOWS = {
    "monday_morning": datetime(2026, 11, 23, 9, 12),
    "friday_night": datetime(2026, 11, 27, 22, 40),
    "new_years_eve": datetime(2026, 12, 31, 23, 30),
    "leap_february": datetime(2028, 2, 28, 10, 0),
}
ZONES = (ZoneInfo("Europe/Berlin"), ZoneInfo("America/Los_Angeles"))
CALENDAR = LocalCalendar(country="US")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_ACTIONS: Mapping[str, type[Action]] = {
    "complete": CompleteAction,
    "archive": ArchiveAction,
    "snooze": SnoozeAction,
    "update": UpdateAction,
}

Due = Callable[[datetime], datetime]  # the moment meant, from the naive local "now"


def _first_after(now: datetime, days: Iterator[date], at: time) -> datetime:
    return next(moment for day in days if (moment := datetime.combine(day, at)) > now)


def _days_from(now: datetime) -> Iterator[date]:
    return (now.date() + timedelta(days=n) for n in range(0, 800))


def _clock_time(text: str) -> time:
    hour, minute = text.split(":")
    return time(int(hour), int(minute))


def parse_due(spec: str) -> Due:
    """A due as the data file writes it (its header lists the forms), as a function of now."""
    spec = spec.strip()
    if found := re.fullmatch(r"\+(\d+)(m|h)", spec):
        step = timedelta(minutes=int(found[1])) if found[2] == "m" else timedelta(hours=int(found[1]))
        return lambda now: now + step
    day_part, _, clock = spec.rpartition(" ")
    at = _clock_time(clock)
    if not day_part:
        return lambda now: _first_after(now, _days_from(now), at)
    if found := re.fullmatch(r"\+(\d+)(d|w|mo)", day_part):
        count, unit = int(found[1]), found[2]
        step = relativedelta(days=count) if unit == "d" else relativedelta(weeks=count)
        step = relativedelta(months=count) if unit == "mo" else step
        return lambda now: datetime.combine(now.date() + step, at)
    if day_part in _WEEKDAYS:
        weekday = _WEEKDAYS.index(day_part)
        return lambda now: _first_after(now, (d for d in _days_from(now) if d.weekday() == weekday), at)
    if found := re.fullmatch(r"(\d\d)-(\d\d)", day_part):
        month, day = int(found[1]), int(found[2])
        return lambda now: _first_after(now, (d for d in _days_from(now) if (d.month, d.day) == (month, day)), at)
    if found := re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)", day_part):
        day_of_month = int(found[1])
        return lambda now: _first_after(now, (d for d in _days_from(now) if d.day == day_of_month), at)
    listed = [date.fromisoformat(d) for d in day_part.split(",")]
    return lambda now: _first_after(now, iter(listed), at)


@dataclass(frozen=True)
class Case:
    group: str
    say: str
    expected: list[dict[str, Any]]
    nows: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.group}: {self.say}"


def _entry(item: Mapping[str, Any], clock: Clock) -> Entry:
    digest = hashlib.md5(item["key"].encode()).hexdigest()
    due = None
    if "due" in item:
        due = parse_due(item["due"])(clock.now.astimezone(clock.tz).replace(tzinfo=None)).replace(tzinfo=clock.tz)
    return Entry(
        id=digest[:32],
        content=item["summary"],
        summary=item["summary"],
        category=Category(item.get("category", "todo")),
        status=Status(item.get("status", "active")),
        source_text=item["summary"],
        due_at=due,
        due_text="set" if due else None,
        recurrence=item.get("every"),
    )


def load(path: Path = CORPUS) -> tuple[list[Case], list[dict[str, Any]]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    cases = []
    for raw in data["case"]:
        expected = raw.get("actions") or [{k: v for k, v in raw.items() if k not in ("group", "say", "nows")}]
        cases.append(Case(raw["group"], raw["say"], expected, tuple(raw.get("nows", NOWS))))
    return cases, data["entry"]


def read(case: Case, entries: Sequence[dict[str, Any]], clock: Clock) -> tuple[ParseResult, dict[str, Entry]]:
    listed = {item["key"]: _entry(item, clock) for item in entries}
    context = InterpretContext(entries=list(listed.values()), clock=clock)
    return OfflineInterpreter().interpret(case.say, context), listed


def clock_at(now_name: str, tz: ZoneInfo) -> Clock:
    return Clock(now=NOWS[now_name].replace(tzinfo=tz), tz=tz, calendar=CALENDAR)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w']+", text.lower()))


def _due_problem(label: str, said: str | None, want: str | None, clock: Clock) -> str | None:
    got = resolve_due(said, clock) if said else None
    if want is None:
        return None if said is None else f"{label}: expected no due, got '{said}' ({got})"
    now_local = clock.now.astimezone(clock.tz).replace(tzinfo=None)
    expected = parse_due(want)(now_local)
    got_local = got.astimezone(clock.tz).replace(tzinfo=None) if got else None
    if got_local is None or abs(got_local - expected) > timedelta(minutes=1):
        return f"{label}: expected due {expected:%a %Y-%m-%d %H:%M}, got '{said}' = {got_local}"
    return None


def _create_problems(action: CreateAction, want: Mapping[str, Any], clock: Clock) -> list[str]:
    problems = []
    if (category := want.get("category", "todo")) != action.category.value:
        problems.append(f"category {action.category.value}, expected {category}")
    summary = action.summary.lower()
    problems += [
        f"summary '{action.summary}' lacks '{kept}'" for kept in want.get("keep", []) if kept.lower() not in summary
    ]
    problems += [
        f"summary '{action.summary}' keeps '{dropped}'"
        for dropped in want.get("drop", [])
        if dropped.lower() in _words(summary)
    ]
    if "priority" in want and want["priority"] != action.priority:
        problems.append(f"priority {action.priority}, expected {want['priority']}")
    if _rule_parts(want.get("every")) != _rule_parts(action.recurrence):
        problems.append(f"repeats {action.recurrence}, expected {want.get('every')}")
    if problem := _due_problem("due", action.due_text, want.get("due"), clock):
        problems.append(problem)
    return problems


def _rule_parts(rule: str | None) -> frozenset[str]:
    return frozenset((rule or "").upper().split(";")) - {""}


def _similar_problems(action: CreateAction, want: Mapping[str, Any], listed: Mapping[str, Entry]) -> list[str]:
    if "similar" not in want:
        return []
    similar = listed[want["similar"]]
    if action.similar_to != similar.id:
        return [f"similar_to {action.similar_to}, expected '{similar.summary}'"]
    return []


def _action_problems(action: Action, want: Mapping[str, Any], listed: Mapping[str, Entry], clock: Clock) -> list[str]:
    kind = want.get("action", "create")
    if kind == "create":
        if not isinstance(action, CreateAction):
            return [f"expected a new entry, got {action}"]
        return _create_problems(action, want, clock) + _similar_problems(action, want, listed)
    if not isinstance(action, _ACTIONS[kind]):
        return [f"expected {kind}, got {action}"]
    entry = listed[want["entry"]]
    if getattr(action, "entry_id", None) != entry.id:
        return [f"{kind} acted on {getattr(action, 'entry_id', None)}, expected '{entry.summary}'"]
    if isinstance(action, SnoozeAction) and "due" in want:
        problem = _due_problem("until", action.until_text, want["due"], clock)
        return [problem] if problem else []
    return []


def problems(case: Case, entries: Sequence[dict[str, Any]], clock: Clock) -> list[str]:
    """What is wrong with the interpreter's reading of `case` at `clock`; empty when it is right."""
    result, listed = read(case, entries, clock)
    wanted = [w for w in case.expected if w.get("action") not in ("already", "none")]
    found: list[str] = []
    for want in case.expected:
        if want.get("action") == "already":
            entry = listed[want["entry"]]
            if entry.id[:6] not in (result.answer or ""):
                found.append(f"expected 'already on your list: {entry.summary}', got answer {result.answer!r}")
    if len(result.actions) != len(wanted):
        shown = "; ".join(_shown(a) for a in result.actions) or "none"
        return [*found, f"expected {len(wanted)} action(s), got {len(result.actions)}: {shown}"]
    for action, want in zip(result.actions, wanted, strict=True):
        found += _action_problems(action, want, listed, clock)
    return found


def _shown(action: Action) -> str:
    if isinstance(action, CreateAction):
        return f"create {action.category.value} '{action.summary}' due={action.due_text!r} every={action.recurrence}"
    return f"{action.kind.value} {getattr(action, 'entry_id', '')[:6]}"


def runs(cases: Sequence[Case]) -> Iterator[tuple[Case, str, ZoneInfo]]:
    """Every case at each of its nows, in each timezone."""
    for case in cases:
        for now_name in case.nows:
            for zone in ZONES:
                yield case, now_name, zone
