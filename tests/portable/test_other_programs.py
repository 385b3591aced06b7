"""Files in the shapes other programs write (tests/data/imports, written by hand after Thunderbird's, tasks.org's,
todo.txt-cli's and a spreadsheet's exports): folded lines, CRLF, a VTIMEZONE with a name of its own, floating
times, whole-day dues, events; and in each, a broken part that is reported with its line while the rest comes in."""

from datetime import datetime
from pathlib import Path

from sqlmodel import select

from app.domain.enums import Category, Status
from app.service import MurmurService
from app.store.models import Entry
from tests.support.clock import BERLIN

FILES = Path(__file__).parents[1] / "data" / "imports"


def _by_summary(service: MurmurService) -> dict[str, Entry]:
    with service.store.read() as session:
        return {entry.summary: entry for entry in session.exec(select(Entry)).all()}


def _local(entry: Entry) -> datetime | None:
    return None if entry.due_at is None else entry.due_at.astimezone(BERLIN).replace(tzinfo=None)


def test_thunderbird_tasks_with_their_own_time_zone_and_folded_lines(empty: MurmurService) -> None:
    outcome = empty.import_file(FILES / "thunderbird.ics")

    assert [str(p) for p in outcome.problems] == ["line 51: skipped: no SUMMARY"]
    entries = _by_summary(empty)
    passport = entries["Renew the passport"]
    assert _local(passport) == datetime(2026, 12, 4, 17, 0)  # TZID:Mitteleuropa, defined in the file
    assert passport.content.endswith("The office closes at 18:00 on Fridays, so go early.")  # unfolded, unescaped
    assert (passport.priority, passport.category) == (1, Category.REMINDER)  # it has an alarm
    form = entries["Send the insurance form"]
    assert form.status is Status.COMPLETED and form.completed_at == datetime.fromisoformat("2026-11-18T09:30:00+00:00")


def test_tasks_org_whole_days_floating_times_repeats_and_events(empty: MurmurService) -> None:
    outcome = empty.import_file(FILES / "tasksorg.ics")

    assert [str(p) for p in outcome.problems] == ["line 31: skipped: an event without a start (DTSTART)"]
    entries = _by_summary(empty)
    bins = entries["Take out the bins"]
    assert _local(bins) == datetime(2026, 11, 24, 9, 0)  # DUE;VALUE=DATE: the day, at the usual hour
    assert (bins.recurrence, bins.category, bins.priority) == ("FREQ=WEEKLY;BYDAY=TU", Category.HABIT, 5)
    landlord = entries["Call the landlord about the heating"]
    assert _local(landlord) == datetime(2026, 11, 25, 18, 30)  # floating: the user's own clock
    assert (landlord.category, landlord.priority) == (Category.REMINDER, 3)  # CATEGORIES:Home,Reminder
    birthday = entries["Anna's birthday"]
    assert (birthday.category, birthday.recurrence, _local(birthday)) == (
        Category.REMINDER,
        "FREQ=YEARLY",
        datetime(2026, 12, 12, 9, 0),
    )


def test_todo_txt_cli_lines(empty: MurmurService) -> None:
    outcome = empty.import_file(FILES / "todo.txt")

    assert [str(p) for p in outcome.problems] == [
        "line 4: skipped: due:2026-13-45 is not a date (todo.txt writes due:YYYY-MM-DD)"
    ]
    entries = _by_summary(empty)
    assert entries["Call Mom @phone +Family"].priority == 1  # other projects and contexts stay as written
    checkup = entries["Schedule the annual checkup +Health"]
    assert (checkup.priority, _local(checkup)) == (2, datetime(2026, 12, 1, 9, 0))
    assert checkup.created_at.astimezone(BERLIN).date().isoformat() == "2026-11-20"
    groceries = entries["Buy groceries @store"]
    assert (groceries.status, groceries.priority) == (Status.COMPLETED, 3)  # pri:C on a done task
    garden = entries["Water the garden"]
    assert (garden.category, garden.recurrence) == (Category.HABIT, "FREQ=WEEKLY")
    assert entries['Read "Dune" t:2026-12-01'].category is Category.IDEA


def test_a_spreadsheet_with_its_own_column_names(empty: MurmurService) -> None:
    outcome = empty.import_file(FILES / "spreadsheet.csv")

    assert [str(p) for p in outcome.problems] == [
        "line 5: skipped: 'someday soon' is not a date",
        "line 8: priority '9' is not 1 to 5; kept without a priority",
    ]
    entries = _by_summary(empty)
    assert _local(entries["Book the car service"]) == datetime(2026, 12, 1, 9, 0)
    party = entries["Plan the party, finally"]
    assert (party.content, _local(party)) == ("Guests:\nAnna, Ben", datetime(2026, 12, 3, 14, 30))
    bill = entries["Pay the phone bill"]
    assert (bill.status, _local(bill)) == (Status.COMPLETED, datetime(2026, 11, 20, 9, 0))
    assert entries["Fix the bike"].priority is None
    assert len(entries) == 4
