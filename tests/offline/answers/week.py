"""A week's list, asked about on Monday 23 November 2026 at 09:12 in Berlin."""

from datetime import datetime

from app.changes.interpretation import InterpretContext
from app.domain.actions import ParseResult
from app.domain.clock import Clock
from app.domain.enums import Category, Status
from app.offline import OfflineInterpreter
from app.store.models import Entry
from tests.support.clock import BERLIN
from tests.support.offline_entries import entry


def at(day: int, hour: int, minute: int = 0, month: int = 11) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=BERLIN)


MONDAY = Clock(now=at(23, 9, 12), tz=BERLIN)
DENTIST = entry("100001", "Dentist appointment", Category.REMINDER, due_at=at(24, 15))
HAIRCUT = entry("100002", "Haircut", Category.REMINDER, due_at=at(28, 10, 30))
REPORT = entry("100003", "Finish the quarterly report", due_at=at(27, 17))
OIL = entry("100004", "Change the oil", due_at=at(21, 9))
PRESCRIPTION = entry("100005", "Pick up the prescription", due_at=at(23, 18))
MOM = entry("100006", "Call mom")
ANNA = entry("100007", "Lunch with Anna", Category.REMINDER, due_at=at(25, 12, 30))
GYM = entry("100008", "Go to the gym", Category.HABIT, recurrence="FREQ=WEEKLY;BYDAY=MO,WE,FR", due_at=at(24, 7))
TEAM = entry("100009", "Team meeting", due_at=at(3, 10, month=12))
PLANTS = entry("100010", "Water the plants", Category.HABIT, recurrence="FREQ=DAILY")  # no due: no time to list
DONE = entry("100011", "Book the flights", due_at=at(23, 20), status=Status.COMPLETED)
SNOOZED = entry("100012", "Email the landlord", due_at=at(23, 11), status=Status.SNOOZED, snooze_until=at(26, 9))
WEEK = [DENTIST, HAIRCUT, REPORT, OIL, PRESCRIPTION, MOM, ANNA, GYM, TEAM, PLANTS, DONE, SNOOZED]


def ask(text: str, entries: list[Entry] | None = None, clock: Clock = MONDAY) -> ParseResult:
    context = InterpretContext(entries=WEEK if entries is None else entries, clock=clock)
    return OfflineInterpreter().interpret(text, context)
