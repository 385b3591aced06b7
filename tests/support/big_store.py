"""A large, realistic list for scale tests and benches: varied categories, dates, priorities and
statuses (a fifth completed or archived), made straight into a real Murmur database."""

import random
import sqlite3
import uuid
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

from app.store import Store
from app.store.column_types import to_db_time

_VERBS = [
    "Call",
    "Email",
    "Buy",
    "Book",
    "Fix",
    "Pay",
    "Return",
    "Clean",
    "Order",
    "Check",
    "Plan",
    "Renew",
    "Cancel",
    "Pick up",
    "Drop off",
    "Ask",
    "Write to",
    "Print",
    "Sort out",
    "Look into",
]
_THINGS = [
    "the plumber",
    "oat milk",
    "the car insurance",
    "a haircut",
    "the gutter",
    "the electricity bill",
    "library books",
    "the garage",
    "new printer ink",
    "the passport form",
    "a birthday card",
    "the bike tyre",
    "the kitchen tap",
    "a table for Friday",
    "the gym membership",
    "Grandma",
    "the landlord",
    "the school trip form",
    "dog food",
    "the window cleaner",
    "the tax return",
    "the spare key",
    "a train ticket",
    "the vet",
    "the broadband contract",
    "winter tyres",
    "the photo album",
    "the recycling bins",
    "a new kettle",
    "the dentist",
]
_PEOPLE = ["Anna", "Ben", "Carla", "Dmitri", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kemal", "Lena"]
_PLACES = [
    "at the market",
    "in town",
    "after work",
    "before the weekend",
    "on the way home",
    "for the office",
    "for the holiday",
    "for the kids",
    "at the hardware store",
    "online",
]
_NOTES = [
    "Idea: a shared shopping list with {p}",
    "Note: {p} prefers tea, not coffee",
    "Thought about moving {x}",
    "Question: does {p} need {x}?",
    "List for {x}",
    "Remember what {p} said about {x}",
]
_CATEGORIES = (
    ["todo"] * 40
    + ["reminder"] * 15
    + ["note"] * 15
    + ["idea"] * 8
    + ["list"] * 7
    + ["habit"] * 5
    + ["question"] * 5
    + ["thought"] * 5
)


def _summary(rng: random.Random, category: str) -> str:
    thing, person = rng.choice(_THINGS), rng.choice(_PEOPLE)
    if category in ("note", "idea", "question", "thought", "list"):
        return rng.choice(_NOTES).format(p=person, x=thing.removeprefix("the "))
    text = f"{rng.choice(_VERBS)} {thing}"
    return f"{text} {rng.choice(_PLACES)}" if rng.random() < 0.4 else text


def fill_store(db_path: Path, count: int, now: datetime, seed: int = 7) -> None:
    """Add `count` entries to the Murmur database at `db_path` (made if missing)."""
    Store.open(db_path).close()
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        category = rng.choice(_CATEGORIES)
        summary = _summary(rng, category)
        created = now - timedelta(days=rng.uniform(0, 730))
        updated = created + (now - created) * rng.random() ** 3
        roll = rng.random()
        status = "completed" if roll < 0.15 else "archived" if roll < 0.20 else "snoozed" if roll < 0.25 else "active"
        due = None
        if category in ("todo", "reminder") and rng.random() < 0.6:
            due = now + timedelta(days=rng.uniform(-60, 120), hours=rng.choice([0, 9, 17]))
        snooze = now + timedelta(days=rng.uniform(0.1, 30)) if status == "snoozed" else None
        completed = updated if status == "completed" else None
        priority = rng.choice([1, 2, 3, 4, 5]) if rng.random() < 0.2 else None
        recurrence = (
            rng.choice(["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=MONTHLY"]) if category == "habit" else None
        )
        rows.append(
            (
                uuid.UUID(int=rng.getrandbits(128)).hex,
                f"{summary}.",
                summary,
                category,
                priority,
                _iso(due),
                None,
                recurrence,
                status,
                _iso(snooze),
                summary.lower(),
                _iso(created),
                _iso(updated),
                _iso(completed),
            )
        )
    with closing(sqlite3.connect(db_path)) as db, db:
        db.executemany(
            "INSERT INTO entries (id, content, summary, category, priority, due_at, due_text, recurrence, status, "
            "snooze_until, source_text, created_at, updated_at, completed_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else to_db_time(moment)
