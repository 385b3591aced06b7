"""iCalendar (RFC 5545), written and read with the icalendar library: every entry a VTODO.

Written: UID from the entry's ID, SUMMARY, DESCRIPTION when the words differ or there is a checklist (as the
"- [ ] eggs" lines other task apps show, under the words), DUE in the user's zone with its VTIMEZONE (the TZID is
the VTIMEZONE's own; in a zone that is UTC, UTC times and no VTIMEZONE), PRIORITY, STATUS and COMPLETED,
CATEGORIES, RRULE (from DTSTART, equal to DUE, as the RFC counts repeats), a VALARM at the due time for
reminders, and X-MURMUR-SNOOZE-UNTIL for a snooze, which iCalendar has no word for. The words said
(X-MURMUR-SAID) are the user's own: written only when asked, and always read.

Read: VTODOs, and VEVENTs with a start as reminders; a DESCRIPTION's checkbox lines are the checklist, the rest
the words. Each component is judged alone: one without a SUMMARY, with a time that cannot be read, or
that the library fails on in any way, is reported with its line and skipped.
"""

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from icalendar import Calendar, Component, Timezone

from app import __version__
from app.changes.imports import IncomingEntry, Problem, ReadFile
from app.domain.checklist import checklist_text, load_items, parse_checklist_text, with_checklist
from app.domain.enums import Category, Status
from app.domain.recurrence import canonical_rule
from app.errors import InvalidActionError, UsageError
from app.portable.common import (
    MURMUR_UID_SUFFIX,
    at_local,
    category_named,
    entry_id_for_uid,
    from_ical_priority,
    ical_priority,
)
from app.portable.values import reason
from app.store.models import Entry

_STATUS = {
    Status.ACTIVE: "NEEDS-ACTION",
    Status.SNOOZED: "NEEDS-ACTION",
    Status.COMPLETED: "COMPLETED",
    Status.ARCHIVED: "CANCELLED",
}
_FROM_STATUS = {"COMPLETED": Status.COMPLETED, "CANCELLED": Status.ARCHIVED}
_SNOOZE = "X-MURMUR-SNOOZE-UNTIL"
_SAID = "X-MURMUR-SAID"
_UTC_FORM = "%Y%m%dT%H%M%SZ"  # iCalendar's UTC DATE-TIME
_UNUSED_RULE_PARTS = ("UNTIL", "COUNT", "WKST")  # a habit repeats for good, weeks from Monday


def _escape(text: str) -> str:
    """TEXT as RFC 5545 writes it: backslash, semicolon, comma and line ends escaped."""
    escaped = text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return escaped.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")


def _fold(line: str) -> str:
    """A content line cut at 75 octets, never inside a character, each part after the first begun by a space."""
    if len(line.encode()) <= 75:
        return line
    parts, current, size = [], "", 0
    for char in line:
        width = len(char.encode())
        if size + width > 75:
            parts.append(current)
            current, size = " ", 1
        current += char
        size += width
    return "\r\n".join([*parts, current])


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):{_UTC_FORM}}"


class _Times:
    """A time as the file says it: in the user's zone with the TZID of its VTIMEZONE (which goes in the file), or
    UTC ("...Z") when the zone is UTC by any name (Etc/UTC, GMT, Universal) or has none."""

    def __init__(self, tz: ZoneInfo) -> None:
        self.tz = tz
        self.zone = None if tz.key is None else _vtimezone(tz.key)

    def property(self, name: str, moment: datetime) -> str:
        if self.zone is None:
            return f"{name}:{_utc(moment)}"
        return f"{name};TZID={self.zone.tzid}:{moment.astimezone(self.tz):%Y%m%dT%H%M%S}"

    def timezone(self) -> str:
        return "" if self.zone is None else self.zone.text


@dataclass(frozen=True)
class _Zone:
    tzid: str
    text: str  # the VTIMEZONE


@functools.cache
def _vtimezone(key: str) -> _Zone | None:
    """The zone's VTIMEZONE, made once (the library takes 15 ms, and a sync writes one per task); None when the
    library finds the zone to be UTC all along (it then names it UTC, which strict readers take for a floating
    time's zone: UTC times say it plainly)."""
    zone = Timezone.from_tzinfo(ZoneInfo(key))
    tzid = str(zone["TZID"])
    return None if tzid == "UTC" else _Zone(tzid, str(zone.to_ical(), "utf-8"))


def _todo(entry: Entry, times: _Times, stamp: str, uid: str | None = None, said: bool = False) -> Iterator[str]:
    yield "BEGIN:VTODO"
    yield f"UID:{_escape(uid or own_uid(entry.id))}"
    yield f"DTSTAMP:{stamp}"
    yield f"CREATED:{_utc(entry.created_at)}"
    yield f"LAST-MODIFIED:{_utc(entry.updated_at)}"
    yield f"SUMMARY:{_escape(entry.summary)}"
    if description := _description(entry):
        yield f"DESCRIPTION:{_escape(description)}"
    yield f"CATEGORIES:{entry.category.value.capitalize()}"
    yield f"STATUS:{_STATUS[entry.status]}"
    if entry.priority is not None:
        yield f"PRIORITY:{ical_priority(entry.priority)}"
    if entry.due_at is not None:
        if entry.recurrence:
            yield times.property("DTSTART", entry.due_at)  # the repeat counts from here
            yield f"RRULE:{entry.recurrence}"
        yield times.property("DUE", entry.due_at)
        if entry.category is Category.REMINDER and entry.status in (Status.ACTIVE, Status.SNOOZED):
            yield from ("BEGIN:VALARM", "ACTION:DISPLAY", f"DESCRIPTION:{_escape(entry.summary)}")
            yield from ("TRIGGER;RELATED=END:PT0S", "END:VALARM")  # at the due time
    if entry.completed_at is not None and entry.status is Status.COMPLETED:
        yield f"COMPLETED:{_utc(entry.completed_at)}"
    if entry.snooze_until is not None and entry.status is Status.SNOOZED:
        yield f"{_SNOOZE}:{_utc(entry.snooze_until)}"
    if said and entry.source_text != entry.content:
        yield f"{_SAID}:{_escape(entry.source_text)}"
    yield "END:VTODO"


def _words(entry: Entry) -> str:
    """What the entry says beyond its summary ("" when its text is its summary)."""
    return entry.content if entry.content != entry.summary else ""


def _description(entry: Entry) -> str:
    """The entry's words, its checklist under them."""
    return "\n".join(part for part in (_words(entry), checklist_text(load_items(entry.items))) if part)


def own_uid(entry_id: str) -> str:
    return f"{entry_id}{MURMUR_UID_SUFFIX}"


def _calendar(body: list[str], zone: str) -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:-//Murmur Desktop//murmur {__version__}//EN"]
    if zone:
        lines.append(zone.removesuffix("\r\n"))
    return "\r\n".join([*lines, *body, "END:VCALENDAR", ""])


def vtodo_object(entry: Entry, tz: ZoneInfo, now: datetime, uid: str | None = None) -> str:
    """One entry as a sync server keeps it: a calendar object holding its VTODO (under `uid` when another
    client made it), without the words said, which stay on this machine."""
    times = _Times(tz)
    body = [_fold(line) for line in _todo(entry, times, _utc(now), uid=uid)]
    return _calendar(body, times.timezone() if entry.due_at else "")


# The properties each synced field is written to. A field Murmur did not change leaves its properties exactly as
# the server had them (a rule's COUNT or UNTIL, a whole-day DUE, a SUMMARY's LANGUAGE); the stamps are always ours.
_WRITTEN_TO: dict[str, tuple[str, ...]] = {
    "summary": ("SUMMARY",),
    "category": ("CATEGORIES",),
    "priority": ("PRIORITY",),
    "due_at": ("DUE", "DTSTART"),
    "recurrence": ("RRULE", "RDATE", "EXDATE", "DTSTART"),  # a repeat changed here replaces theirs knowingly
    "status": ("STATUS", "COMPLETED"),
    "completed_at": ("COMPLETED",),
    "snooze_until": (_SNOOZE,),
}
_STAMPS = ("LAST-MODIFIED", "DTSTAMP")


class NotATask(ValueError):
    """A calendar object without a VTODO: an event or a journal entry in a list that holds tasks too."""


def _first_task(calendar: Calendar) -> Component:
    """The object's task (the first VTODO: a repeating one's own, before any changed occurrences)."""
    found = next((c for c in calendar.walk() if c.name == "VTODO"), None)
    if found is None:
        raise NotATask("no VTODO in the object")
    return found


def vtodo_over(previous: str, entry: Entry, tz: ZoneInfo, now: datetime, uid: str, changed: Iterable[str]) -> str:
    """The entry written over the server's last version of its object, field by field: only the `changed` fields
    (names of synced fields Murmur changed since that version) replace what the server had; everything else
    (another client's properties, parameters, rule parts and alarms) goes back as it came."""
    ours = Calendar.from_ical(vtodo_object(entry, tz, now, uid=uid))
    try:
        theirs = Calendar.from_ical(previous)
        task, mine = _first_task(theirs), _first_task(ours)
    except Exception:  # noqa: BLE001 - their version cannot be read at all: ours alone is better than nothing
        return str(ours.to_ical(), "utf-8")
    fields = set(changed)
    if fields & {"content", "items"}:
        _describe(task, mine, entry, words_changed="content" in fields)
    if "status" in fields and _text(task, "STATUS").upper() != _text(mine, "STATUS").upper():
        task.pop("PERCENT-COMPLETE", None)  # their progress was for the status they had
        if entry.status is Status.COMPLETED:
            task.add("PERCENT-COMPLETE", 100)
    written = {name for field in fields for name in _WRITTEN_TO.get(field, ())}
    for name in (*sorted(written), *_STAMPS):
        task.pop(name, None)
        if name in mine:
            task[name] = mine[name]
    if fields & {"due_at", "category"} and not task.walk("VALARM"):
        task.subcomponents.extend(mine.walk("VALARM"))  # a reminder set here rings on the phone too
    if written & {"DUE", "DTSTART"}:
        zones = {_text(zone, "TZID") for zone in theirs.walk("VTIMEZONE")}
        theirs.subcomponents[:0] = [zone for zone in ours.walk("VTIMEZONE") if _text(zone, "TZID") not in zones]
    return str(theirs.to_ical(), "utf-8")


def _describe(task: Component, mine: Component, entry: Entry, words_changed: bool) -> None:
    """DESCRIPTION anew: their words and layout kept when only the checklist changed here."""
    described = str(task.pop("DESCRIPTION", ""))
    if words_changed:
        if "DESCRIPTION" in mine:
            task["DESCRIPTION"] = mine["DESCRIPTION"]
    elif laid_out := with_checklist(described, load_items(entry.items)):
        task.add("DESCRIPTION", laid_out)


def read_vtodo(text: str, tz: ZoneInfo, now: datetime) -> tuple[str, IncomingEntry]:
    """A calendar object's UID and its task in Murmur's terms; NotATask when it holds none (an event: sync leaves
    those alone), a ValueError when its task cannot be read."""
    component = _first_task(Calendar.from_ical(text))
    if component.errors:
        raise ValueError("; ".join(f"{name}: {message}" for name, message in component.errors))
    uid = _text(component, "UID")
    if not uid:
        raise ValueError("a VTODO without a UID")
    return uid, _entry(component, 1, tz, now)[0]


def write_ics(entries: Iterable[Entry], tz: ZoneInfo, now: datetime, with_said: bool = False) -> str:
    """The content lines are written here (the library takes 4 s to write 10,000 tasks, this 0.2 s); the
    VTIMEZONE is the library's, and the tests read every file back with icalendar and vobject. `with_said`: the
    words said too, where they differ from the entry's (X-MURMUR-SAID), for a file that stays the user's."""
    times = _Times(tz)
    listed = list(entries)
    stamp = _utc(now)
    body = [_fold(line) for entry in listed for line in _todo(entry, times, stamp, said=with_said)]
    return _calendar(body, times.timezone() if any(entry.due_at for entry in listed) else "")


# -- reading ------------------------------------------------------------------------------------------------


_BEGIN = re.compile(r"^BEGIN:(VTODO|VEVENT)\s*$", re.IGNORECASE)


def _component_lines(text: str) -> Iterator[int]:
    """The line each VTODO or VEVENT begins on, in order (folded lines never start with BEGIN)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if _BEGIN.match(line):
            yield number


def _decoded(component: Component, name: str) -> Any:
    return component.decoded(name) if name in component else None


def _text(component: Component, name: str) -> str:
    value = component.get(name)
    return "" if value is None else str(value).strip()


def _moment(component: Component, name: str, tz: ZoneInfo) -> datetime | None:
    value = _decoded(component, name)
    if value is None:
        return None
    if not isinstance(value, date):
        raise ValueError(f"{name} is not a date or time")
    return at_local(value, tz)


def _snooze(component: Component, tz: ZoneInfo) -> datetime | None:
    """An X- property is text to the library: its UTC time is read here."""
    value = _text(component, _SNOOZE)
    try:
        return at_local(datetime.strptime(value, _UTC_FORM).replace(tzinfo=UTC), tz) if value else None
    except ValueError:
        raise ValueError(f"{_SNOOZE} {value!r} is not a UTC time") from None


def _repeat(component: Component) -> tuple[str | None, str | None]:
    """The RRULE as a habit's rule, and why it was left out when it cannot be one."""
    value = component.get("RRULE")
    if value is None:
        return None, None
    rule = value[0] if isinstance(value, list) else value
    parts = [part for part in rule.to_ical().decode().split(";") if part.split("=")[0] not in _UNUSED_RULE_PARTS]
    try:
        return canonical_rule(";".join(parts)), None
    except InvalidActionError as error:
        return None, f"{error}; kept without its repeat"


def _categories(component: Component) -> list[str]:
    found = component.get("CATEGORIES")
    if found is None:
        return []
    lists = found if isinstance(found, list) else [found]
    return [str(word) for value in lists for word in value.cats]


def _category(component: Component, repeats: bool) -> Category:
    named = category_named(*_categories(component))
    if named is not None:
        return named
    if component.name == "VEVENT" or component.walk("VALARM"):
        return Category.REMINDER
    return Category.HABIT if repeats else Category.TODO


def _status(component: Component) -> Status:
    status = _FROM_STATUS.get(_text(component, "STATUS").upper(), Status.ACTIVE)
    if status is Status.ACTIVE and "COMPLETED" in component:
        return Status.COMPLETED
    return status


def _entry(component: Component, line: int, tz: ZoneInfo, now: datetime) -> tuple[IncomingEntry, list[Problem]]:
    summary = _text(component, "SUMMARY")
    if not summary:
        raise ValueError("no SUMMARY")
    due = _moment(component, "DUE", tz)
    if component.name == "VEVENT":
        due = _moment(component, "DTSTART", tz)
        if due is None:
            raise ValueError("an event without a start (DTSTART)")
    rule, left_out = _repeat(component)
    problems = [Problem(line, left_out, skipped=False)] if left_out else []
    description = str(component.get("DESCRIPTION", ""))
    items, words = parse_checklist_text(description)
    words = words if items else description  # as written, spaces and all, when it holds no checklist
    content = words if words.strip() else summary
    status = _status(component)
    snooze = _snooze(component, tz)
    uid = _text(component, "UID")
    created = _moment(component, "CREATED", tz) or _moment(component, "DTSTAMP", tz) or now
    entry = IncomingEntry(
        line=line,
        id=entry_id_for_uid(uid) if uid else None,
        summary=summary,
        content=content,
        category=_category(component, rule is not None),
        source_text=_text(component, _SAID) or content,
        created_at=created,
        updated_at=_moment(component, "LAST-MODIFIED", tz),
        priority=from_ical_priority(int(_decoded(component, "PRIORITY") or 0)),
        due_at=(due or _moment(component, "DTSTART", tz)) if rule else due,
        recurrence=rule,
        status=Status.SNOOZED if snooze and status is Status.ACTIVE else status,
        snooze_until=snooze if status is Status.ACTIVE else None,
        completed_at=_moment(component, "COMPLETED", tz) or (now if status is Status.COMPLETED else None),
        items=items,
    )
    return entry, problems


def _blocks(text: str) -> Iterator[tuple[int, str]]:
    """Each top-level component of the file's calendars with the line it begins on, for reading one by one."""
    lines = text.splitlines()
    depth, start = 0, 0
    for number, line in enumerate(lines, start=1):
        word = line.strip().upper()
        if word.startswith("BEGIN:"):
            depth += 1
            if depth == 2:
                start = number
        elif word.startswith("END:"):
            if depth == 2:
                yield start, "\r\n".join(lines[start - 1 : number])
            depth = max(depth - 1, 0)


def _one_by_one(text: str) -> Iterator[tuple[int, Component | Exception]]:
    """The VTODOs and VEVENTs parsed alone, so one broken component costs only itself; the file's
    VTIMEZONEs go with each, so their TZIDs are known."""
    blocks = list(_blocks(text))
    zones = "\r\n".join(block for _, block in blocks if block.upper().startswith("BEGIN:VTIMEZONE"))
    for line, block in blocks:
        if not _BEGIN.match(block.split("\r\n", 1)[0]):
            continue
        try:
            calendar = Calendar.from_ical(f"BEGIN:VCALENDAR\r\n{zones}\r\n{block}\r\nEND:VCALENDAR\r\n")
            yield line, next(c for c in calendar.walk() if c.name in ("VTODO", "VEVENT"))
        except Exception as error:  # the library's TypeError on a bad VALUE= too: any error costs only its component
            yield line, error


def _components(text: str) -> Iterator[tuple[int, Component | Exception]]:
    """The VTODOs and VEVENTs with their lines: the whole file at once, or, when it does not parse as a
    whole (whatever the library raises), each alone."""
    try:
        calendars = Calendar.from_ical(text, multiple=True)
    except Exception:  # read again component by component, where each failure is named with its line
        yield from _one_by_one(text)
        return
    if not calendars:
        raise UsageError("not an iCalendar file: no BEGIN:VCALENDAR")
    components = [c for calendar in calendars for c in calendar.walk() if c.name in ("VTODO", "VEVENT")]
    yield from zip(_component_lines(text), components, strict=False)


def read_ics(text: str, tz: ZoneInfo, now: datetime) -> ReadFile:
    if "BEGIN:VCALENDAR" not in text.upper():
        raise UsageError("not an iCalendar file: no BEGIN:VCALENDAR")
    read = ReadFile()
    for line, component in _components(text):
        try:
            if isinstance(component, Exception):
                raise component
            if component.errors:
                raise ValueError("; ".join(f"{name}: {message}" for name, message in component.errors))
            entry, problems = _entry(component, line, tz, now)
        except Exception as error:  # any error costs only this component: a file is anyone's text
            read.problems.append(Problem(line, f"skipped: {reason(error)}"))
            continue
        read.entries.append(entry)
        read.problems.extend(problems)
    return read
