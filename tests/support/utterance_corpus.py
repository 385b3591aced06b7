"""The offline interpreter's yardstick: everyday utterances (tests/data/offline_utterances.toml, and the
follow-ups to a list already kept in tests/data/followups/), each with what a user would require of it,
read at several fixed "now"s in two timezones.

Each file is a book: the user's list (`[[entry]]`), what Murmur remembers of them (`memories`), and the
cases said to it. A case expects a new entry (the default) or an `action` on a listed entry: complete
(one `item` of its checklist, if named), archive, snooze, reschedule (a new `due`), add_items, an
`answer` that names the entries in `mention` and none in `omit`, a memory to `remember`, none, or none
`unmatched`: nothing changed, and the words wait in the inbox because no open entry matches the `subject`
said (or, given `candidates`, because several do). The blind book (tests/data/followups_blind/) adds untick,
remove_items, rename (the new title's `keep` and `drop` words), priority, and `ask`: nothing changed, and the
likely readings offered back. An entry marked `touched` is what the utterance before (`previous`) made or changed.

A case's due is written relative to the moment of speaking ("fri 17:00": the first Friday 17:00 after
now), so one case checks the same sentence said on a Monday morning, a Friday night, at 23:30 on New
Year's Eve and on Feb 28 of a leap year.
"""

import hashlib
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from app.changes.interpretation import InterpretContext
from app.domain.actions import (
    Action,
    ArchiveAction,
    Cause,
    CompleteAction,
    CreateAction,
    ParseResult,
    SnoozeAction,
    UpdateAction,
)
from app.domain.checklist import ChecklistItem, dump_items
from app.domain.clock import Clock
from app.domain.dates import resolve_due
from app.domain.enums import Category, FailureKind, Status
from app.domain.local_calendar import LocalCalendar, personal_days
from app.offline import OfflineInterpreter
from app.store.models import Entry

CORPUS = Path(__file__).resolve().parents[1] / "data" / "offline_utterances.toml"
# Sentences written after the rules were tuned to CORPUS, and not tuned to: how well they carry over.
HELD_OUT = CORPUS.with_name("offline_utterances_heldout.toml")
# The second sentence: moves, snoozes, list items, questions about the list, times, personal days.
FOLLOWUPS = CORPUS.with_name("followups")
FOLLOWUPS_HELD_OUT = CORPUS.with_name("followups_heldout")  # written after the rules were tuned to FOLLOWUPS
# Written by someone who never read the rules, and frozen: what the rules make of sentences nobody here wrote.
BLIND = CORPUS.with_name("followups_blind")
NOWS = {
    "monday_morning": datetime(2026, 11, 23, 9, 12),
    "friday_night": datetime(2026, 11, 27, 22, 40),
    "new_years_eve": datetime(2026, 12, 31, 23, 30),
    "leap_february": datetime(2028, 2, 28, 10, 0),
    "thursday_morning": datetime(2026, 11, 26, 10, 0, 41),  # seconds on the clock; a Thursday for "on thursday"
    "tuesday_evening": datetime(2026, 11, 24, 21, 55),
    "late_night": datetime(2026, 11, 25, 23, 40),
    "saturday_afternoon": datetime(2026, 11, 28, 15, 30),
}
ZONES = (ZoneInfo("Europe/Berlin"), ZoneInfo("America/Los_Angeles"))
CALENDAR = LocalCalendar(country="US")
_NOWS_BY_DEFAULT = ("monday_morning", "friday_night", "new_years_eve", "leap_february")
_BLIND_NOWS_BY_DEFAULT = ("monday_morning", "tuesday_evening", "late_night", "friday_night")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_ACTIONS: Mapping[str, type[Action]] = {
    "complete": CompleteAction,
    "archive": ArchiveAction,
    "snooze": SnoozeAction,
    "update": UpdateAction,
    "reschedule": UpdateAction,
    "add_items": UpdateAction,
    "untick": UpdateAction,
    "remove_items": UpdateAction,
    "rename": UpdateAction,
    "priority": UpdateAction,
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
    if found := re.fullmatch(r"\+(\d+)(s|m|h)", spec):
        step = timedelta(seconds=int(found[1]) * {"s": 1, "m": 60, "h": 3600}[found[2]])
        return lambda now: now + step
    day_part, _, clock = spec.rpartition(" ")
    at = _clock_time(clock)
    if not day_part:
        return lambda now: _first_after(now, _days_from(now), at)
    if found := re.fullmatch(r"([a-z]{3})\+(\d+)d", day_part):  # "fri+7d": a week after the coming friday
        base, days = parse_due(f"{found[1]} {clock}"), timedelta(days=int(found[2]))
        return lambda now: base(now) + days
    if found := re.fullmatch(r"([+-]\d+)(d|w|mo)", day_part):
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
class Book:
    """One corpus file's world: the user's list and what Murmur remembers of them."""

    entries: tuple[dict[str, Any], ...]
    memories: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    group: str
    say: str
    expected: list[dict[str, Any]]
    nows: tuple[str, ...]
    book: Book

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
        **_checklist(item),
    )


def _checklist(item: Mapping[str, Any]) -> dict[str, Any]:
    """A listed entry's stored checklist ("done" names the items ticked off), where the store has one."""
    if "items" not in item:
        return {}
    done = set(item.get("done", []))
    return {"items": dump_items([ChecklistItem(text, text in done) for text in item["items"]])}


def load(path: Path = CORPUS) -> list[Case]:
    """The cases of one corpus file, or of every file in a folder of them."""
    if path.is_dir():
        return [case for file in sorted(path.glob("*.toml")) for case in load(file)]
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    book = Book(tuple(data.get("entry", ())), tuple(data.get("memories", ())))
    nows = _BLIND_NOWS_BY_DEFAULT if path.parent == BLIND else _NOWS_BY_DEFAULT
    cases = []
    for raw in data["case"]:
        said = ("group", "say", "nows", "previous")
        expected = raw.get("actions") or [{k: v for k, v in raw.items() if k not in said}]
        cases.append(Case(raw["group"], raw["say"], expected, tuple(raw.get("nows", nows)), book))
    return cases


# A book's list at one moment, made once for all the cases said then (building rows costs more than reading).
_LISTS: dict[tuple[int, datetime, str], dict[str, Entry]] = {}


def _listed(book: Book, clock: Clock) -> dict[str, Entry]:
    key = (id(book), clock.now, str(clock.tz))
    if key not in _LISTS:
        _LISTS[key] = {item["key"]: _entry(item, clock) for item in book.entries}
    return _LISTS[key]


def read(case: Case, clock: Clock) -> tuple[ParseResult, dict[str, Entry]]:
    listed = _listed(case.book, clock)
    touched = tuple(listed[item["key"]].id for item in case.book.entries if item.get("touched"))
    context = InterpretContext(entries=list(listed.values()), clock=clock, last_touched=touched)
    return OfflineInterpreter().interpret(case.say, context), listed


def clock_at(now_name: str, tz: ZoneInfo, memories: Sequence[str] = ()) -> Clock:
    calendar = replace(CALENDAR, personal=personal_days(memories)) if memories else CALENDAR
    return Clock(now=NOWS[now_name].replace(tzinfo=tz), tz=tz, calendar=calendar)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w']+", text.lower()))


def _due_problem(label: str, said: str | None, want: str | None, clock: Clock, precise: bool = False) -> str | None:
    got = resolve_due(said, clock) if said else None
    if want is None:
        return None if said is None else f"{label}: expected no due, got '{said}' ({got})"
    now_local = clock.now.astimezone(clock.tz).replace(tzinfo=None)
    expected = parse_due(want)(now_local)
    got_local = got.astimezone(clock.tz).replace(tzinfo=None) if got else None
    if got_local is None or abs(got_local - expected) > (timedelta(seconds=1) if precise else timedelta(minutes=1)):
        return f"{label}: expected due {expected:%a %Y-%m-%d %H:%M:%S}, got '{said}' = {got_local}"
    return None


def _create_problems(action: CreateAction, want: Mapping[str, Any], clock: Clock) -> list[str]:
    problems = []
    if (category := want.get("category", "todo")) != action.category.value:
        problems.append(f"category {action.category.value}, expected {category}")
    # What the new entry shows: its title, and a list's items under it (a named list's title is only its name).
    shown = " | ".join((action.summary, *action.items))
    summary = shown.lower()
    problems += [f"summary '{shown}' lacks '{kept}'" for kept in want.get("keep", []) if kept.lower() not in summary]
    problems += [
        f"summary '{shown}' keeps '{dropped}'" for dropped in want.get("drop", []) if dropped.lower() in _words(summary)
    ]
    if "priority" in want and want["priority"] != action.priority:
        problems.append(f"priority {action.priority}, expected {want['priority']}")
    if _rule_parts(want.get("every")) != _rule_parts(action.recurrence):
        problems.append(f"repeats {action.recurrence}, expected {want.get('every')}")
    if problem := _due_problem("due", action.due_text, want.get("due"), clock, want.get("precise", False)):
        problems.append(problem)
    if "items" in want and _folded(want["items"]) != _folded(getattr(action, "items", ())):
        problems.append(f"items {list(getattr(action, 'items', ()))}, expected {want['items']}")
    return problems


def _folded(texts: Sequence[str]) -> list[str]:
    return [text.lower() for text in texts]


def _rule_parts(rule: str | None) -> frozenset[str]:
    return frozenset((rule or "").upper().split(";")) - {""}


def _similar_problems(action: CreateAction, want: Mapping[str, Any], listed: Mapping[str, Entry]) -> list[str]:
    if "similar" not in want:
        return []
    if want["similar"] == "none":
        return [] if action.similar_to is None else [f"similar_to {action.similar_to}, expected none"]
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
    return _change_problems(action, want, clock)


def _change_problems(action: Action, want: Mapping[str, Any], clock: Clock) -> list[str]:
    """What is wrong with the change made to the right entry."""
    kind, precise = want["action"], want.get("precise", False)
    found: list[str | None] = []
    if isinstance(action, SnoozeAction) and "due" in want:
        found.append(_due_problem("until", action.until_text, want["due"], clock, precise))
    ticked = getattr(action, "item", None) or ""
    if isinstance(action, CompleteAction) and (want.get("item") or "").lower() != ticked.lower():
        found.append(f"ticked item {ticked!r}, expected {want.get('item')!r}")
    if kind == "reschedule" and isinstance(action, UpdateAction):
        if "due_date" not in action.changes:
            found.append(f"changed {dict(action.changes)}, not the due")
        else:
            found.append(_due_problem("due", action.changes["due_date"], want["due"], clock, precise))
        if "recurrence" in action.changes:
            found.append(f"changed the repeat to {action.changes['recurrence']}")
    if kind == "add_items" and isinstance(action, UpdateAction):
        if _folded(action.changes.get("add_items", ())) != _folded(want["items"]):
            found.append(f"added {action.changes.get('add_items')}, expected {want['items']}")
    if isinstance(action, UpdateAction):
        found += _edit_problems(kind, action, want)
    return [problem for problem in found if problem]


def _edit_problems(kind: str, action: UpdateAction, want: Mapping[str, Any]) -> list[str]:
    """What is wrong with an untick, an item removed, a rename or a priority set."""
    changes = action.changes
    if kind == "untick" and str(changes.get("untick_item", "")).lower() != want["item"].lower():
        return [f"changed {dict(changes)}, expected {want['item']!r} unticked"]
    if kind == "remove_items" and _folded(changes.get("remove_items", ())) != _folded(want["items"]):
        return [f"changed {dict(changes)}, expected {want['items']} removed"]
    if kind == "priority" and changes.get("priority") != want["priority"]:
        return [f"changed {dict(changes)}, expected priority {want['priority']}"]
    if kind == "rename":
        title = str(changes.get("summary", "")).lower()
        lacking = [f"new title {title!r} lacks {kept!r}" for kept in want.get("keep", []) if kept.lower() not in title]
        return lacking + [
            f"new title {title!r} keeps {gone!r}" for gone in want.get("drop", []) if gone in _words(title)
        ]
    return []


def _answer_problems(result: ParseResult, want: Mapping[str, Any], listed: Mapping[str, Entry]) -> list[str]:
    if result.answer is None:
        return ["expected an answer from the list, got none"]
    answer = result.answer.lower()
    missing = [listed[key].summary for key in want.get("mention", []) if listed[key].summary.lower() not in answer]
    extra = [listed[key].summary for key in want.get("omit", []) if listed[key].summary.lower() in answer]
    words = [said for said in want.get("says", []) if said.lower() not in answer]
    found = [f"answer {result.answer!r} does not name '{summary}'" for summary in missing]
    found += [f"answer {result.answer!r} names '{summary}'" for summary in extra]
    return found + [f"answer {result.answer!r} does not say '{said}'" for said in words]


def _unmatched_problems(result: ParseResult, want: Mapping[str, Any]) -> list[str]:
    causes = [failure.cause for failure in result.failures]
    kind = FailureKind.AMBIGUOUS if "candidates" in want else FailureKind.NOT_FOUND
    expected = Cause(kind, want["subject"], candidates=tuple(want.get("candidates", ())))
    return [] if causes == [expected] else [f"expected to wait in the inbox for {expected}, got {causes}"]


def _remember_problems(result: ParseResult, want: Mapping[str, Any]) -> list[str]:
    remembered = [text.lower() for text in getattr(result, "remember", ())]
    if len(remembered) != 1:
        return [f"expected one memory, got {remembered}"]
    lacking = [kept for kept in want.get("keep", []) if kept.lower() not in remembered[0]]
    return [f"memory {remembered[0]!r} lacks '{kept}'" for kept in lacking]


_NOT_ACTIONS = ("already", "none", "answer", "remember", "unmatched", "ask")


def _ask_problems(result: ParseResult) -> list[str]:
    """Asked back: nothing changed, and the words wait with the readings they could have (or why none fits)."""
    return [] if result.failures or result.choices else ["expected Murmur to ask back, it offered nothing"]


def problems(case: Case, clock: Clock) -> list[str]:
    """What is wrong with the interpreter's reading of `case` at `clock`; empty when it is right."""
    result, listed = read(case, clock)
    wanted = [w for w in case.expected if w.get("action") not in _NOT_ACTIONS]
    found: list[str] = []
    for want in case.expected:
        if want.get("action") == "already":
            entry = listed[want["entry"]]
            if entry.id[:6] not in (result.answer or ""):
                found.append(f"expected 'already on your list: {entry.summary}', got answer {result.answer!r}")
        elif want.get("action") == "answer":
            found += _answer_problems(result, want, listed)
        elif want.get("action") == "remember":
            found += _remember_problems(result, want)
        elif want.get("action") == "unmatched":
            found += _unmatched_problems(result, want)
        elif want.get("action") == "ask":
            found += _ask_problems(result)
    if len(result.actions) != len(wanted):
        shown = "; ".join(_shown(a) for a in result.actions) or "none"
        return [*found, f"expected {len(wanted)} action(s), got {len(result.actions)}: {shown}"]
    for action, want in zip(result.actions, wanted, strict=True):
        found += _action_problems(action, want, listed, clock)
    return found


def changed_something(case: Case, clock: Clock) -> bool:
    """Whether a reading that missed made a change (created or changed something wrong) rather than a safe miss
    (asked, left the words in the inbox, changed nothing)."""
    result, _ = read(case, clock)
    return bool(result.actions)


def _shown(action: Action) -> str:
    if isinstance(action, CreateAction):
        return f"create {action.category.value} '{action.summary}' due={action.due_text!r} every={action.recurrence}"
    return f"{action.kind.value} {getattr(action, 'entry_id', '')[:6]}"


def runs(cases: Sequence[Case]) -> Iterator[tuple[Case, Clock]]:
    """Every case at each of its nows, in each timezone, with the days its book's memories name."""
    for case in cases:
        for now_name in case.nows:
            for zone in ZONES:
                yield case, clock_at(now_name, zone, case.book.memories)


def where(clock: Clock) -> str:
    """A run's now and zone, as a miss names it."""
    name = next(name for name, now in NOWS.items() if now == clock.now.replace(tzinfo=None))
    return f"{name} {clock.tz}"
