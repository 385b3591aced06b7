"""A fixed set of in-memory entries and the offline interpreter reading against them at FIXED_CLOCK."""

import hashlib
from datetime import datetime
from typing import Any

from app.changes.interpretation import InterpretContext
from app.domain.actions import ParseResult
from app.domain.enums import Category, Status
from app.offline import OfflineInterpreter
from app.store.models import Entry
from tests.support.clock import BERLIN, FIXED_CLOCK

CLOCK = FIXED_CLOCK
FRIDAY_9AM = datetime(2026, 11, 27, 9, 0, tzinfo=BERLIN)


def entry(short_id: str, summary: str, category: Category = Category.TODO, **fields: Any) -> Entry:
    """An in-memory entry whose id starts with `short_id` (6 hex digits) and goes on with 26 more."""
    rest = hashlib.md5(summary.encode()).hexdigest()[:26]
    fields.setdefault("status", Status.ACTIVE)
    return Entry(id=short_id + rest, content=summary, summary=summary, category=category, source_text=summary, **fields)


MILK = entry("3fa1b2", "Buy milk")
OAT_MILK = entry("9c0d1e", "Buy oat milk")
DENTIST = entry("7d4e5f", "Call the dentist", Category.REMINDER)
PLANTS = entry("2b8c9a", "Water the plants", Category.HABIT, recurrence="FREQ=DAILY")
PASSPORT = entry("5e6f70", "Renew passport", due_text="friday", due_at=FRIDAY_9AM)
LANDLORD = entry("a1b2c3", "Email the landlord about the heating", status=Status.SNOOZED)
FLIGHTS = entry("d4e5f6", "Book flights to Lisbon")
MOM = entry("c0ffee", "Call mom")
BILL = entry("b0b0b0", "Pay the electricity bill", priority=2)
ENTRIES = [MILK, OAT_MILK, DENTIST, PLANTS, PASSPORT, LANDLORD, FLIGHTS, MOM, BILL]


def interpret(text: str, entries: list[Entry] | None = None) -> ParseResult:
    context = InterpretContext(entries=ENTRIES if entries is None else entries, clock=CLOCK)
    return OfflineInterpreter().interpret(text, context)
