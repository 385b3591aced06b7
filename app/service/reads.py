"""Reads that write nothing: entries, search, what is due, history, recall, sessions, what the model cost."""

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from datetime import time as dt_time

from app.changes.undo import HistoryBatch, history
from app.domain.clock import Clock
from app.domain.dates import resolve_due
from app.domain.enums import Category, DueSpan, Status
from app.domain.usage import UsageSummary
from app.errors import UsageError
from app.memory.entry_search import MAX_PAGE, SearchPage, SearchRequest, SearchSort, search_page
from app.memory.recall import RecallHit, RecallQuery, recall
from app.memory.search_arguments import ToolArgumentError, search_request
from app.service.core import ServiceCore
from app.store.models import Entry, LlmRequest, TalkSession
from app.store.queries import (
    entries_with_ids,
    entry_tally,
    latest_sessions,
    list_entries,
    recent_requests,
    short_ids,
    short_ids_after,
    usage_summary,
)


class ReadArea(ServiceCore):
    """What the list, the history and the past hold, read without a write."""

    def entries(
        self, statuses: Sequence[Status], category: Category | None = None, search: str | None = None
    ) -> list[Entry]:
        """Entries with their status now (a snooze that has ended reads active); writes nothing."""
        with self.store.read() as session:
            return list_entries(session, self.clock().now, statuses, category=category, search=search)

    def open_entry(self, entry_id: str) -> Entry | None:
        """The entry with this full ID while it is open (active or snoozed); None once done or gone."""
        with self.store.read() as session:
            entry = session.get(Entry, entry_id)
            return entry if entry is not None and entry.status in (Status.ACTIVE, Status.SNOOZED) else None

    def search(self, arguments: Mapping[str, object]) -> SearchPage:
        """A page of entries as the agent's search_entries finds them (its arguments: words, status, category,
        due_after, due_before, sort, limit, offset); arguments it cannot use are a UsageError."""
        clock = self.clock()
        try:
            request = search_request(arguments, clock)
        except ToolArgumentError as error:
            raise UsageError(str(error)) from None
        with self.store.read() as session:
            return search_page(session, clock.now, request)

    def due(self, span: DueSpan, offset: int = 0) -> SearchPage:
        """The active entries due before `span` ends (overdue: now; today: midnight; week: seven days on), soonest
        first, a page from `offset`."""
        clock = self.clock()
        midnight = datetime.combine(clock.now.astimezone(clock.tz).date(), dt_time(), clock.tz)
        ends = {DueSpan.OVERDUE: clock.now, DueSpan.TODAY: midnight + timedelta(days=1)}
        before = ends.get(span, midnight + timedelta(days=7))
        request = SearchRequest(
            statuses=(Status.ACTIVE,), due_before=before, sort=SearchSort.DUE, limit=MAX_PAGE, offset=offset
        )
        with self.store.read() as session:
            return search_page(session, clock.now, request)

    def entries_with_ids(self, ids: Collection[str]) -> list[Entry]:
        """The entries of these IDs that exist, as stored: what a window reads after a change of its own, which
        knows what it touched (the write woke what was due)."""
        with self.store.read() as session:
            return entries_with_ids(session, ids)

    def names_now(self, ids: Collection[str]) -> dict[str, str]:
        """Entry ID -> summary as it is now, for those of `ids` that exist: how the words about a change (an undo's)
        name the entries it touched."""
        return {entry.id: entry.summary for entry in self.entries_with_ids(ids)}

    def entry_tally(self) -> tuple[int, int]:
        """How many entries there are, and their revisions summed: any change moves one of the two (an edit
        raises a revision, an undo puts an older one back, a create or a delete moves the count)."""
        with self.store.read() as session:
            return entry_tally(session)

    def short_ids(self) -> dict[str, str]:
        """Every entry's shortest unique ID prefix (what lists show and commands take)."""
        with self.store.read() as session:
            return short_ids(session)

    @staticmethod
    def short_ids_after(shown: dict[str, str], entry_ids: Iterable[str]) -> dict[str, str]:
        """What `short_ids()` would say of `entry_ids`, from those `shown` before some entries came or went;
        reads nothing."""
        return short_ids_after(shown, entry_ids)

    def changed_since_last_look(self) -> bool:
        """Whether the database changed since the last look (by `murmur add` in a terminal, a shortcut, sync,
        or this service): microseconds, never reads the data, so the window can ask twice a second."""
        return self.store.changed()

    def history(self, limit: int = 20) -> list[HistoryBatch]:
        with self.store.read() as session:
            return history(session, limit)

    def recall(self, words: str, since: str | None = None, until: str | None = None) -> list[RecallHit]:
        """What the user said before (and what was answered and done) matching `words`, newest first;
        `since` and `until` in natural language ("last week", "yesterday")."""
        clock = self.clock()
        bounds = [None if p is None else read_time(p, clock, name) for p, name in ((since, "since"), (until, "until"))]
        with self.store.read() as session:
            return recall(session, RecallQuery(words, since=bounds[0], until=bounds[1]))

    def sessions(self, limit: int = 20) -> list[TalkSession]:
        """The latest sessions, newest first."""
        with self.store.read() as session:
            return latest_sessions(session, limit)

    def usage(self, monthly_budget: float = 0.0) -> UsageSummary:
        """What the requests to the model cost, by day and by month in the user's timezone, with what is left of
        `monthly_budget` (0: none) this month."""
        clock = self.clock()
        with self.store.read() as session:
            return usage_summary(session, clock.now, clock.tz, monthly_budget)

    def requests(self, limit: int = 20) -> list[LlmRequest]:
        """The latest requests to the model, newest first: what was sent, what it answered, what it cost."""
        with self.store.read() as session:
            return recent_requests(session, limit)


def read_time(phrase: str, clock: Clock, name: str) -> datetime:
    """The moment a time phrase given by hand means; a UsageError naming the option when it is unreadable."""
    moment = resolve_due(phrase, clock)
    if moment is None:
        raise UsageError(f"{name} {phrase!r} is not a time Murmur can read; try 'yesterday', 'last week' or a date")
    return moment
