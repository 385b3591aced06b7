"""What another client wrote in a task goes back to the server as it came, unless Murmur's user changed that very
thing: a repeat rule Murmur cannot show, a rule's end, extra dates, links to other tasks, unknown properties and
parameters. Against the phone on a real Radicale server, and over generated tasks with the iCalendar functions
alone (no server: what is kept is decided there)."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.portable.ics import read_vtodo, vtodo_over
from app.service import MurmurService
from app.sync.engine import new_entry
from app.sync.merge import carried, changed_fields
from tests.support.clock import BERLIN, FIXED_NOW
from tests.sync.phone import Phone
from tests.sync.test_sync import by_summary

RULES = (
    "FREQ=DAILY;COUNT=3",
    "FREQ=WEEKLY;UNTIL=20270301T000000Z",
    "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
    "FREQ=HOURLY;INTERVAL=4",
)


@pytest.mark.parametrize("rule", RULES)
def test_a_priority_set_here_leaves_the_phone_s_repeat_rule_whole(
    service: MurmurService, phone: Phone, rule: str
) -> None:
    service.sync()
    due = datetime(2026, 12, 1, 9, tzinfo=UTC)
    uid = phone.add("Stretch", due=due, rrule=rule)
    sent = phone.todo(uid)["RRULE"].to_ical()
    service.sync()
    service.edit([by_summary(service)["Stretch"].id], {"priority": 1})
    assert service.sync().pushed == ["updated: Stretch"]
    kept = phone.todo(uid)
    assert kept["RRULE"].to_ical() == sent
    assert int(kept["PRIORITY"]) == 1 and kept.decoded("DUE") == due


def test_a_repeat_changed_here_replaces_the_phone_s_knowingly(service: MurmurService, phone: Phone) -> None:
    service.sync()
    uid = phone.add("Stretch", due=datetime(2026, 12, 1, 9, tzinfo=UTC), rrule="FREQ=DAILY;COUNT=3")
    service.sync()
    service.edit([by_summary(service)["Stretch"].id], {"recurrence": "FREQ=WEEKLY"})
    service.sync()
    assert phone.todo(uid)["RRULE"].to_ical() == b"FREQ=WEEKLY"


# -- generated tasks, read, edited in one unrelated field, written back ------------------------------------------

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=30).filter(
    str.strip
)
_MOMENTS = st.datetimes(datetime(2000, 1, 1), datetime(2040, 1, 1)).map(
    lambda moment: moment.replace(microsecond=0, tzinfo=UTC)
)
_DAYS = st.dates(date(2000, 1, 1), date(2040, 1, 1))


@st.composite
def other_clients_todo(draw: st.DrawFn) -> str:
    """A VTODO as other clients write them, with what Murmur models and what it does not."""
    todo = icalendar.Todo()
    todo.add("UID", draw(st.uuids()).hex)
    todo.add("DTSTAMP", draw(_MOMENTS))
    todo.add("SUMMARY", draw(_TEXT), parameters=draw(st.sampled_from([{}, {"LANGUAGE": "de"}])))
    if draw(st.booleans()):
        todo.add("DESCRIPTION", draw(_TEXT))
    if (priority := draw(st.integers(0, 9))) > 0:
        todo.add("PRIORITY", priority)
    due = draw(st.one_of(st.none(), _MOMENTS, _DAYS))
    if due is not None:
        todo.add("DUE", due)
        if draw(st.booleans()):
            todo.add("DTSTART", due)
            todo.add("RRULE", icalendar.vRecur.from_ical(draw(st.sampled_from([*RULES, "FREQ=WEEKLY;BYDAY=MO"]))))
            if draw(st.booleans()):
                todo.add("EXDATE", due + timedelta(days=7))
            if draw(st.booleans()):
                todo.add("RDATE", due + timedelta(days=3))
    todo.add("STATUS", draw(st.sampled_from(["NEEDS-ACTION", "IN-PROCESS", "COMPLETED", "CANCELLED"])))
    if draw(st.booleans()):
        todo.add("RELATED-TO", draw(st.uuids()).hex, parameters={"RELTYPE": "PARENT"})
    if draw(st.booleans()):
        todo.add("CATEGORIES", draw(st.lists(_TEXT.filter(lambda word: "," not in word), min_size=1, max_size=3)))
    if draw(st.booleans()):
        todo.add("X-OTHER-APP-ORDER", str(draw(st.integers(0, 99))), parameters={"X-FLAVOUR": "plain"})
    if draw(st.booleans()):
        todo.add("LOCATION", draw(_TEXT))
    if draw(st.booleans()):
        todo.add("PERCENT-COMPLETE", draw(st.integers(0, 100)))
    calendar = icalendar.Calendar()
    calendar.add("PRODID", "-//Another app//EN")
    calendar.add("VERSION", "2.0")
    calendar.add_component(todo)
    return str(calendar.to_ical(), "utf-8")


def _properties(text: str) -> dict[str, list[bytes]]:
    task = next(component for component in icalendar.Calendar.from_ical(text).walk() if component.name == "VTODO")
    found: dict[str, list[bytes]] = {}
    for name, value in task.property_items(recursive=False):
        found.setdefault(name, []).append(bytes(value) if isinstance(value, bytes) else value.to_ical())
        found[name].append(str(sorted(getattr(value, "params", {}).items())).encode())
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(previous=other_clients_todo(), edit=st.sampled_from(["priority", "summary"]))
def test_every_property_not_edited_goes_back_as_it_came(previous: str, edit: str) -> None:
    tz = ZoneInfo("UTC") if edit == "summary" else BERLIN
    uid, incoming = read_vtodo(previous, tz, FIXED_NOW)
    entry = new_entry("e1", incoming, FIXED_NOW)
    if edit == "priority":
        entry.priority = 1 if entry.priority != 1 else 3
    else:
        entry.summary = f"{entry.summary} (edited)"
    changed = changed_fields(entry, incoming)
    assert set(changed) - {"content"} == {edit}  # its old summary may become its words (no DESCRIPTION had them)

    written = vtodo_over(previous, entry, tz, FIXED_NOW, uid, changed)

    before, after = _properties(previous), _properties(written)
    edited = {edit.upper(), *(["DESCRIPTION"] if "content" in changed else [])}
    for name in {*before, *after} - edited - {"DTSTAMP", "LAST-MODIFIED"}:
        assert after.get(name) == before.get(name), name
    assert carried(read_vtodo(written, tz, FIXED_NOW)[1]) == carried(entry)
