"""What the iCalendar export writes keeps RFC 5545's rules, and two parsers that are not ours read it the same
way: vobject (validating) and recurring-ical-events (when the repeats come round)."""

from datetime import date, datetime
from pathlib import Path

import icalendar
import recurring_ical_events
import vobject

from app.domain.enums import Format, Status
from app.domain.recurrence import next_occurrence
from app.service import MurmurService
from tests.support.clock import BERLIN


def _lines(text: str) -> list[str]:
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")  # CRLF, and only CRLF
    return text.split("\r\n")[:-1]


def test_the_export_keeps_the_rfc_s_rules(filled: MurmurService) -> None:
    text = filled.export(Format.ICS)
    lines = _lines(text)

    assert all(len(line.encode()) <= 75 for line in lines)  # folded at 75 octets
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    calendar = icalendar.Calendar.from_ical(text)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"].startswith("-//Murmur Desktop//")
    zones = {str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")}
    todos = calendar.walk("VTODO")
    assert len(todos) == 9
    for todo in todos:
        for once in ("UID", "DTSTAMP"):  # required, exactly once
            assert sum(1 for name, _ in todo.property_items(recursive=False) if name == once) == 1
        assert 0 <= int(todo.get("PRIORITY", 0)) <= 9
        assert todo["STATUS"] in ("NEEDS-ACTION", "COMPLETED", "CANCELLED")
        if "DUE" in todo:
            assert todo["DUE"].params["TZID"] in zones  # every TZID has its VTIMEZONE
            if "DTSTART" in todo:
                assert todo.decoded("DUE") >= todo.decoded("DTSTART")
        if "RRULE" in todo:
            assert "DTSTART" in todo  # repeats count from DTSTART
        for alarm in todo.walk("VALARM"):
            assert alarm["ACTION"] == "DISPLAY" and "DESCRIPTION" in alarm and "TRIGGER" in alarm
    dentist = next(t for t in todos if t["SUMMARY"] == "Call the dentist")
    assert (int(dentist["PRIORITY"]), str(dentist["CATEGORIES"].cats[0])) == (1, "Reminder")
    assert dentist.decoded("DUE") == datetime(2026, 11, 26, 15, 0, tzinfo=BERLIN)
    assert len(dentist.walk("VALARM")) == 1
    milk = next(t for t in todos if t["SUMMARY"] == "Buy oat milk")
    assert (milk["STATUS"], int(milk["PRIORITY"]), "COMPLETED" in milk) == ("COMPLETED", 7, True)


def test_vobject_reads_and_validates_it(filled: MurmurService) -> None:
    calendar = vobject.readOne(filled.export(Format.ICS), validate=True)

    summaries = {todo.summary.value for todo in calendar.vtodo_list}
    assert {"Call the dentist", "Water the plants", "Pay the rent", "Buy oat milk"} <= summaries
    dentist = next(todo for todo in calendar.vtodo_list if todo.summary.value == "Call the dentist")
    assert dentist.due.value == datetime(2026, 11, 26, 15, 0, tzinfo=BERLIN)


def _murmur_times(rule: str, due: datetime, count: int) -> list[datetime]:
    """The habit's times as Murmur moves it on, one completion after another."""
    times = [due]
    while len(times) < count:
        times.append(next_occurrence(rule, times[-1], times[-1], BERLIN))
    return times


def test_another_library_finds_the_repeats_where_murmur_does(filled: MurmurService) -> None:
    calendar = icalendar.Calendar.from_ical(filled.export(Format.ICS))
    found = recurring_ical_events.of(calendar, components=["VTODO"]).between(date(2026, 11, 22), date(2027, 6, 1))
    habits = [entry for entry in filled.entries([Status.ACTIVE]) if entry.recurrence]
    assert {habit.summary for habit in habits} == {"Water the plants", "Pay the rent"}
    for habit in habits:
        assert habit.recurrence is not None and habit.due_at is not None
        theirs = sorted(todo.decoded("DUE") for todo in found if todo["SUMMARY"] == habit.summary)
        ours = _murmur_times(habit.recurrence, habit.due_at.astimezone(BERLIN), len(theirs))
        assert len(theirs) >= 6 and theirs == ours, habit.summary


def test_long_words_in_any_script_are_folded_and_read_back_whole(
    filled: MurmurService, empty: MurmurService, tmp_path: Path
) -> None:
    dentist = next(e for e in filled.entries([Status.ACTIVE]) if e.summary == "Call the dentist")
    words = "Zahnarzt anrufen — 歯医者に電話, then 🦷; back\\slash\nsecond line " * 6
    filled.edit([dentist.id], {"content": words})
    kept = next(e for e in filled.entries([Status.ACTIVE]) if e.id == dentist.id).content
    assert "\n" in kept and "🦷" in kept
    text = filled.export(Format.ICS)
    assert all(len(line.encode()) <= 75 for line in _lines(text))
    path = tmp_path / "long.ics"
    path.write_text(text, encoding="utf-8")

    empty.import_file(path)

    assert next(e for e in empty.entries([Status.ACTIVE]) if e.summary == "Call the dentist").content == kept
