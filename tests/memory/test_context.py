"""The context a request shows: the whole list when it fits, otherwise a selection within its token budget
that still holds the entry the user names, however old it is and however many others there are."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlmodel import col, select

from app.domain.enums import Category, Status
from app.memory.context import Group, assemble_entries
from app.memory.tokens import estimate_tokens
from app.store import Store
from app.store.models import Entry
from tests.support.big_store import fill_store
from tests.support.clock import FIXED_CLOCK

NOW, TZ = FIXED_CLOCK.now, FIXED_CLOCK.tz


def add(store: Store, summary: str, **fields: object) -> str:
    entry = Entry(content=summary, summary=summary, category=Category.TODO, source_text=summary.lower(), **fields)
    with store.write() as session:
        session.add(entry)
    return entry.id


def test_a_small_list_is_shown_whole(store: Store) -> None:
    for summary in ("Buy oat milk", "Call the dentist", "Fix the gutter"):
        add(store, summary)
    with store.read() as session:
        shown = assemble_entries(session, NOW, TZ, "milk is done", budget=1500)
    assert [g.group for g in shown.groups] == [Group.ALL]
    assert len(shown.lines) == 3 and shown.hidden == 0 and shown.open_total == 3


@pytest.mark.slow  # ten thousand entries written
def test_an_old_entry_the_user_names_is_shown_among_ten_thousand(db_path: Path) -> None:
    fill_store(db_path, 10_000, NOW)
    store = Store.open(db_path)
    with store.write() as session:  # two years old, never touched since, no date, no priority
        old = NOW.replace(year=NOW.year - 2)
        boiler = Entry(
            content="Book the boiler service",
            summary="Book the boiler service",
            category=Category.TODO,
            source_text="book the boiler service",
            created_at=old,
            updated_at=old,
        )
        session.add(boiler)
    with store.read() as session:
        shown = assemble_entries(session, NOW, TZ, "the boiler service is done", budget=1500)
        misheard = assemble_entries(session, NOW, TZ, "the boyler servise is done", budget=1500)
        statuses = [Status.ACTIVE, Status.SNOOZED]
        open_total = len(session.exec(select(Entry.id).where(col(Entry.status).in_(statuses))).all())
    store.close()
    named = next(g for g in shown.groups if g.group is Group.NAMED)
    assert '"Book the boiler service"' in named.lines[0]
    assert any('"Book the boiler service"' in line for line in misheard.lines)  # a recognizer's near-miss
    assert shown.open_total == open_total and shown.hidden == open_total - shown.open_shown > 7_000
    assert shown.tokens <= 1500


@pytest.mark.slow  # a database of up to 700 entries filled for each of 25 examples
@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=0, max_value=700),
    seed=st.integers(min_value=0, max_value=10_000),
    budget=st.integers(min_value=200, max_value=4000),
    said=st.sampled_from(["milk is done", "call Anna about the passport form", "", "the the the", "Grandma"]),
)
def test_the_context_never_exceeds_its_budget(count: int, seed: int, budget: int, said: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.db"
        fill_store(path, count, NOW, seed=seed)
        store = Store.open(path)
        with store.read() as session:
            shown = assemble_entries(session, NOW, TZ, said, budget)
        store.close()
    assert sum(estimate_tokens(line) for line in shown.lines) == shown.tokens <= budget
    assert len(set(shown.lines)) == len(shown.lines)  # no entry twice
    assert 0 <= shown.hidden <= shown.open_total
    if shown.hidden == 0:
        assert shown.open_shown == shown.open_total


def test_the_estimate_counts_high() -> None:
    # English BPE tokenizers average about four characters a token; the estimate must not count lower.
    for line in (
        '[3fa1b2] todo P1 due:Thu 2026-11-26 09:00 "Call the dentist about the crown"',
        '[9c04de] note "Anna prefers tea, not coffee"',
        "internationalization",
    ):
        assert estimate_tokens(line) >= len(line) / 4
