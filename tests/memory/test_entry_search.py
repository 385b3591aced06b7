"""search_entries' reach: words (stemmed, misheard), status, category, a due range, sort, and pages that
together show every match once."""

from datetime import timedelta

from sqlmodel import select

from app.agent.search_tool import run_search
from app.domain.enums import Category, Status
from app.memory.entry_search import SearchRequest, SearchSort, search_page
from app.store import Store
from app.store.models import Entry
from tests.support.clock import FIXED_CLOCK

NOW = FIXED_CLOCK.now


def add(store: Store, summary: str, **fields: object) -> str:
    fields.setdefault("category", Category.TODO)
    entry = Entry(content=summary, summary=summary, source_text=summary.lower(), **fields)
    with store.write() as session:
        session.add(entry)
    return entry.id


def summaries(store: Store, request: SearchRequest) -> list[str]:
    with store.read() as session:
        page = search_page(session, NOW, request)
    with store.read() as session:
        by_id = {e.id: e.summary for e in session.exec(select(Entry)).all()}
    return [by_id[row.id] for row in page.rows]


def test_words_status_category_and_due_range(store: Store) -> None:
    add(store, "Call the plumber about the boiler", due_at=NOW + timedelta(days=2))
    add(store, "Pay the plumber", status=Status.COMPLETED)
    add(store, "Plumbing idea: a rain barrel", category=Category.IDEA)
    add(store, "Book the boiler service", due_at=NOW + timedelta(days=20))
    assert summaries(store, SearchRequest("plumbers")) == [
        "Pay the plumber",
        "Call the plumber about the boiler",
    ] or set(summaries(store, SearchRequest("plumbers"))) == {"Pay the plumber", "Call the plumber about the boiler"}
    assert summaries(store, SearchRequest("plumber", statuses=(Status.COMPLETED,))) == ["Pay the plumber"]
    assert summaries(store, SearchRequest("", category=Category.IDEA)) == ["Plumbing idea: a rain barrel"]
    week = SearchRequest("", due_after=NOW, due_before=NOW + timedelta(days=7))
    assert summaries(store, week) == ["Call the plumber about the boiler"]
    assert summaries(store, SearchRequest("boyler", sort=SearchSort.DUE)) == [  # misheard, soonest first
        "Call the plumber about the boiler",
        "Book the boiler service",
    ]


def test_pages_show_every_match_once(store: Store) -> None:
    for n in range(23):
        add(store, f"Water plant number {n}")
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        with store.read() as session:
            page = search_page(session, NOW, SearchRequest("plant", limit=10, offset=offset))
        seen += [row.id for row in page.rows]
        offset = page.next_offset
    assert len(seen) == len(set(seen)) == 23


def test_the_tool_says_what_is_wrong_with_its_arguments(store: Store) -> None:
    with store.read() as session:
        assert run_search(session, {"status": "done"}, FIXED_CLOCK).startswith("Error: status 'done' is not one of")
        assert run_search(session, {"due_before": "the day after the flood"}, FIXED_CLOCK).startswith(
            "Error: due_before"
        )
        assert run_search(session, {"limit": "many"}, FIXED_CLOCK) == "Error: limit must be a whole number"
        assert run_search(session, {"query": "zebra"}, FIXED_CLOCK) == "No entries match."
