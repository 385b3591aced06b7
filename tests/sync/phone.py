"""The user's phone: another CalDAV client (the `caldav` library) working on the same task list as Murmur, so
the sync tests can change things "elsewhere" the way a simple client or tasks.org does."""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import icalendar
from caldav.calendarobjectresource import Todo
from caldav.collection import Calendar, Principal
from caldav.davclient import DAVClient
from dateutil.rrule import rrulestr

DEFAULT_LIST = "Murmur"
PRODID = "-//Murmur tests//The phone//EN"

DateOrTime = date | datetime  # DUE and DTSTART: a whole day or a moment
Rule = str | dict[str, Any]  # "FREQ=WEEKLY;BYDAY=MO" or {"freq": "weekly", "byday": "mo"}


def now() -> datetime:
    # iCalendar's stamps are UTC; seconds only, as clients write them.
    return datetime.now(UTC).replace(microsecond=0)


def as_recur(rule: Rule) -> icalendar.vRecur:
    return icalendar.vRecur.from_ical(rule) if isinstance(rule, str) else icalendar.vRecur(rule)


def stamp(component: icalendar.Todo) -> None:
    """What every client does on a change: DTSTAMP and LAST-MODIFIED say when."""
    moment = now()
    for name in ("DTSTAMP", "LAST-MODIFIED"):
        component.pop(name, None)
        component.add(name, moment)


def next_occurrence(rule: icalendar.vRecur, after: DateOrTime) -> DateOrTime | None:
    """The RRULE's first occurrence after `after` (the series anchored there), None once the series is over."""
    # dateutil counts in datetimes only: a whole day goes in as its midnight and comes back as a date.
    start = after if isinstance(after, datetime) else datetime.combine(after, time())
    text: bytes = rule.to_ical()  # type: ignore[no-untyped-call]
    following = rrulestr(text.decode(), dtstart=start).after(start)
    if following is None:
        return None
    return following if isinstance(after, datetime) else following.date()


class Phone:
    """One task list (a calendar) on the server, found by its display name."""

    def __init__(
        self, url: str, username: str, password: str, list_name: str = DEFAULT_LIST, ca_file: Path | None = None
    ) -> None:
        self.list_name = list_name
        # A timeout, so a server that hangs fails the test instead of blocking it. ca_file: a server whose
        # certificate a private authority signed; verification stays on either way.
        self.client = DAVClient(
            url=url,
            username=username,
            password=password,
            timeout=10,
            ssl_verify_cert=str(ca_file) if ca_file is not None else True,
        )

    def close(self) -> None:
        self.client.close()  # its HTTP session, with the keep-alive connections to the server

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    # -- the task list -----------------------------------------------------------------------------

    def principal(self) -> Principal:
        principal: Principal = self.client.principal()
        return principal

    def make_task_list(self, name: str | None = None) -> Calendar:
        """A new calendar for VTODOs only, as a tasks app creates one."""
        calendar: Calendar = self.principal().make_calendar(
            name=name or self.list_name, supported_calendar_component_set=["VTODO"]
        )
        return calendar

    def calendar(self) -> Calendar:
        names = []
        for calendar in self.principal().get_calendars():
            name = calendar.get_display_name()
            if name == self.list_name:
                return calendar
            names.append(name)
        raise LookupError(f"no task list {self.list_name!r} on the server (there are: {names})")

    def todos(self) -> dict[str, icalendar.Todo]:
        """UID -> VTODO, completed and cancelled ones included (todos() alone leaves them out)."""
        found: dict[str, icalendar.Todo] = {}
        for todo in self.calendar().todos(include_completed=True):
            component = todo.get_icalendar_component()  # a copy: reading it cannot change what is saved
            found[str(component["UID"])] = component
        return found

    def todo(self, uid: str) -> icalendar.Todo:
        return self.todos()[uid]

    def _resource(self, uid: str) -> Todo:
        resource: Todo = self.calendar().get_todo_by_uid(uid)
        return resource

    @contextmanager
    def _editing(self, uid: str) -> Iterator[icalendar.Todo]:
        """The stored VTODO to change in place; saved, stamped and with its VTIMEZONEs, as a client saves it."""
        resource = self._resource(uid)
        with resource.edit_icalendar_instance() as calendar:
            component = next(sub for sub in calendar.subcomponents if sub.name == "VTODO")
            yield component
            stamp(component)
            calendar.add_missing_timezones()  # a zone the edit brought in gets its VTIMEZONE, as RFC 5545 wants
        resource.save()

    # -- what the user does on the phone -----------------------------------------------------------

    def add(
        self,
        summary: str,
        due: DateOrTime | None = None,
        rrule: Rule | None = None,
        uid: str | None = None,
        start: DateOrTime | None = None,
    ) -> str:
        """A new VTODO; returns its UID. A repeating one gets DTSTART = DUE unless told: RFC 5545 anchors the
        RRULE on DTSTART, and tasks.org writes both."""
        uid = uid or str(uuid.uuid4())
        todo = icalendar.Todo()
        todo.add("UID", uid)
        todo.add("CREATED", now())
        stamp(todo)
        todo.add("SUMMARY", summary)
        todo.add("STATUS", "NEEDS-ACTION")
        if rrule is not None and start is None:
            start = due
        if start is not None:
            todo.add("DTSTART", start)
        if due is not None:
            todo.add("DUE", due)
        if rrule is not None:
            todo.add("RRULE", as_recur(rrule))
        calendar = icalendar.Calendar()
        calendar.add("PRODID", PRODID)
        calendar.add("VERSION", "2.0")
        calendar.add_component(todo)
        calendar.add_missing_timezones()
        self.calendar().add_todo(calendar.to_ical().decode())
        return uid

    def edit(self, uid: str, **props: Any) -> None:
        """Set properties by name (summary="...", due=datetime, percent_complete=50); None removes one."""
        with self._editing(uid) as component:
            for name, value in props.items():
                key = name.upper().replace("_", "-")
                component.pop(key, None)
                if value is not None:
                    component.add(key, as_recur(value) if key == "RRULE" else value)

    def complete(self, uid: str, when: datetime | None = None) -> None:
        """Ticked off as a simple client does: STATUS:COMPLETED and when, nothing done about any RRULE."""
        with self._editing(uid) as component:
            self._mark_completed(component, when or now())

    @staticmethod
    def _mark_completed(component: icalendar.Todo, when: datetime) -> None:
        for name in ("STATUS", "COMPLETED", "PERCENT-COMPLETE"):
            component.pop(name, None)
        component.add("STATUS", "COMPLETED")
        component.add("COMPLETED", when.astimezone(UTC))  # RFC 5545: COMPLETED is in UTC
        component.add("PERCENT-COMPLETE", 100)

    def complete_like_tasks_org(self, uid: str) -> None:
        """A repeating VTODO ticked off in tasks.org: the same VTODO moves on to the RRULE's next occurrence
        (DTSTART and DUE by the same step) and stays NEEDS-ACTION; a COUNT goes down by one. After the last
        occurrence it is completed for good."""
        with self._editing(uid) as component:
            if "RRULE" not in component:
                raise ValueError(f"{uid} does not repeat")
            anchor = component.decoded("DTSTART" if "DTSTART" in component else "DUE")
            rule: icalendar.vRecur = component["RRULE"]
            following = next_occurrence(rule, anchor)
            if following is None:
                self._mark_completed(component, now())
            else:
                step = following - anchor  # for times in one zone: the wall-clock step, so DST keeps the hour
                for name in ("DTSTART", "DUE"):
                    if name in component:
                        moved = component.decoded(name) + step
                        component.pop(name)
                        component.add(name, moved)
                if "COUNT" in rule:
                    rule["COUNT"] = [int(rule["COUNT"][0]) - 1]
                for name in ("STATUS", "COMPLETED", "PERCENT-COMPLETE"):
                    component.pop(name, None)
                component.add("STATUS", "NEEDS-ACTION")

    def delete(self, uid: str) -> None:
        self._resource(uid).delete()
