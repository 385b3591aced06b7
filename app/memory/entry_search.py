"""Finding entries by the words the user said: full-text search (SQLite FTS5, ranked by BM25, summary
weighted over content), with speech's near-misses forgiven ("boyler" finds "boiler")."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from rapidfuzz import fuzz, process
from sqlalchemy import text
from sqlmodel import Session

from app.domain.enums import Category, Status
from app.memory.entry_rows import EntryReader, EntryRow
from app.store.column_types import to_db_time

# Words that name nothing: searched for, they would match half the list.
_STOP_WORDS = frozenset(
    """a about after again all also am an and any are as at be been before but by can could did do does
    done for from get got had has have he her here him his how i if in into is it its just like me mine
    more my need needs no not now of off on once one only or our out over please put remind remember set
    she should so some than that the their them then there these they this those to too up us very want
    was we were what when where which while who why will with would yes you your today tomorrow tonight
    week weekend morning evening afternoon night monday tuesday wednesday thursday friday saturday sunday
    next last every day days time thing things""".split()
)
_WORD = re.compile(r"[^\W\d_]{3,}")
MAX_TERMS = 16
FUZZY_MIN_LETTERS = 5  # shorter words have too many close neighbours to guess from
FUZZY_SCORE = 80  # rapidfuzz's ratio, 0-100
FUZZY_PER_WORD = 2


def query_words(said: str) -> list[str]:
    """The words of `said` worth searching for, in order, each once."""
    words: list[str] = []
    for word in _WORD.findall(said.lower()):
        if word not in _STOP_WORDS and word not in words:
            words.append(word)
    return words[:MAX_TERMS]


# Per database file: the newest search row when the terms were read, and the terms. Every new or changed
# entry gets a new row, so a newer row means the terms may have grown; reading them all costs milliseconds
# at thousands of entries, every request.
_vocabularies: dict[str, tuple[int, list[str]]] = {}


def _vocabulary(session: Session) -> list[str]:
    newest = session.execute(text("SELECT coalesce(max(rowid), 0) FROM entries_search")).scalar_one()
    database = session.execute(text("PRAGMA database_list")).first()
    key = str(database[2]) if database else ""
    cached = _vocabularies.get(key)
    if cached is None or cached[0] != newest:
        cached = (newest, list(session.execute(text("SELECT term FROM entries_search_terms")).scalars()))
        _vocabularies[key] = cached
    return cached[1]


def near_terms(session: Session, words: Sequence[str]) -> list[str]:
    """Indexed terms (stemmed, as FTS5 keeps them) close in spelling to the longer `words`: what a
    recognizer's near-miss most likely meant."""
    candidates = [w for w in words if len(w) >= FUZZY_MIN_LETTERS]
    if not candidates:
        return []
    vocabulary = _vocabulary(session)
    near: list[str] = []
    for word in candidates:
        for term, _score, _index in process.extract(
            word, vocabulary, scorer=fuzz.ratio, score_cutoff=FUZZY_SCORE, limit=FUZZY_PER_WORD
        ):
            if term != word and term not in near:
                near.append(term)
    return near


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 query matching any of `terms` (each quoted: no term is read as an operator)."""
    return " OR ".join(f'"{term}"' for term in terms)


def matching_entry_ids(session: Session, said: str, limit: int = 50) -> list[str]:
    """Entries (any status) whose summary or content share words with `said`, best match first."""
    words = query_words(said)
    if not words:
        return []
    terms = [*words, *near_terms(session, words)]
    rows = session.execute(
        text(
            "SELECT entry_id FROM entries_search WHERE entries_search MATCH :query "
            "ORDER BY bm25(entries_search, 0.0, 2.0, 1.0) LIMIT :limit"
        ),
        {"query": match_expression(terms), "limit": limit},
    )
    return list(rows.scalars())


class SearchSort(StrEnum):
    RELEVANCE = "relevance"  # best match first (with words; otherwise most recently changed)
    DUE = "due"  # soonest first, undated last
    CREATED = "created"  # newest first
    UPDATED = "updated"  # most recently changed first


MAX_PAGE = 50


@dataclass(frozen=True)
class SearchRequest:
    words: str = ""  # free text; empty: every entry the filters let through
    statuses: tuple[Status, ...] = tuple(Status)
    category: Category | None = None
    due_after: datetime | None = None
    due_before: datetime | None = None
    sort: SearchSort = SearchSort.RELEVANCE
    limit: int = 20
    offset: int = 0  # where the previous page ended


@dataclass(frozen=True)
class SearchPage:
    rows: list[EntryRow]
    short_ids: dict[str, str]
    total: int
    offset: int

    @property
    def next_offset(self) -> int | None:
        end = self.offset + len(self.rows)
        return end if end < self.total else None


_ORDER = {
    SearchSort.DUE: "due_at IS NULL, due_at",
    SearchSort.CREATED: "created_at DESC",
    SearchSort.UPDATED: "updated_at DESC",
}
_MATCHED = (
    "JOIN (SELECT entry_id, bm25(entries_search, 0.0, 2.0, 1.0) AS score FROM entries_search "
    "WHERE entries_search MATCH :match) AS matched ON matched.entry_id = entries.id"
)


def search_page(session: Session, now: datetime, request: SearchRequest) -> SearchPage:
    """One page of the entries `request` asks for; every entry in the store can be reached."""
    reader = EntryReader(session, now)
    params: dict[str, Any] = {f"status{i}": status.value for i, status in enumerate(request.statuses)}
    conditions = [f"live IN ({', '.join(f':{name}' for name in params)})"]
    if request.category is not None:
        conditions.append("category = :category")
        params["category"] = request.category.value
    if request.due_after is not None:
        conditions.append("due_at >= :due_after")
        params["due_after"] = to_db_time(request.due_after)
    if request.due_before is not None:
        conditions.append("due_at < :due_before")
        params["due_before"] = to_db_time(request.due_before)
    join, order = "", _ORDER.get(request.sort, "updated_at DESC")
    if words := query_words(request.words):
        join = _MATCHED
        params["match"] = match_expression([*words, *near_terms(session, words)])
        if request.sort is SearchSort.RELEVANCE:
            order = "matched.score"
    condition = " AND ".join(conditions)
    total = reader.count(condition, join, **params)
    limit = max(1, min(MAX_PAGE, request.limit))
    offset = max(0, request.offset)
    rows = reader.rows(f"{condition} ORDER BY {order}, id LIMIT {limit} OFFSET {offset}", join, **params)
    return SearchPage(rows, {row.id: reader.short_id(row.id) for row in rows}, total, offset)
