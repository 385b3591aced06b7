"""Answers found by putting a question's words to the list: a list's items, whether something is done,
every open entry of a sort (in the period named), what a note says."""

from collections.abc import Callable, Sequence

from app.domain.checklist import items_of
from app.domain.clock import Clock
from app.domain.enums import Category
from app.offline.answers.asking import Reply
from app.offline.answers.kinds import Kind, Reading
from app.offline.answers.periods import Period
from app.offline.answers.searching import OPEN, search
from app.offline.answers.timing import falling_in
from app.offline.answers.wording import entries_answer, kept_text, lines, list_contents, progress_answer
from app.offline.answers.words import Forms, content_words
from app.store.models import Entry

Lookup = Callable[[Sequence[Forms], Sequence[Entry], Period | None, Clock], str | None]


def _contents(said: Sequence[Forms], entries: Sequence[Entry], period: Period | None, clock: Clock) -> str | None:
    """The open items of the list named; with no such list, the open entries its words name ("what do I
    need from the garden centre": "Buy compost at the garden centre")."""
    lists = [e for e in entries if e.status in OPEN and (e.category is Category.LIST or items_of(e.summary, e.items))]
    if named := search(said, lists):
        return lines([list_contents(hit.entry, clock) for hit in named])
    found = [hit.entry for hit in search(said, entries, open_only=True)]
    return entries_answer(found, clock, Reply.WHEN) if found else None


def _progress(said: Sequence[Forms], entries: Sequence[Entry], period: Period | None, clock: Clock) -> str | None:
    hits = search(said, entries)
    return progress_answer(hits, clock) if hits else None


def _sorted_out(said: Sequence[Forms], entries: Sequence[Entry], period: Period | None, clock: Clock) -> str | None:
    """Every open entry any telling word names, only those falling in the period when one was said."""
    found = [hit.entry for hit in search(said, entries, loose=True, open_only=True)]
    if period is not None and period.said:
        falling = {id(entry) for _, entry in falling_in(found, period.start, period.end, clock)}
        found = [entry for entry in found if id(entry) in falling]
    return entries_answer(found, clock, Reply.WHEN) if found else None


def _recalled(said: Sequence[Forms], entries: Sequence[Entry], period: Period | None, clock: Clock) -> str | None:
    hits = search(said, entries)
    return lines([kept_text(hit.entry, clock) for hit in hits]) if hits else None


_LOOKUPS: dict[Kind, Lookup] = {
    Kind.CONTENTS: _contents,
    Kind.PROGRESS: _progress,
    Kind.SEARCH: _sorted_out,
    Kind.RECALL: _recalled,
}


def look_up(reading: Reading, entries: Sequence[Entry], period: Period | None, clock: Clock) -> str | None:
    """The answer the list gives to `reading`; None when nothing on it matches."""
    return _LOOKUPS[reading.kind](content_words(reading.subject), entries, period, clock)
