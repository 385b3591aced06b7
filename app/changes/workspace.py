"""One utterance's working area: the entries it may talk about, and the writes it makes.

Every interpreter acts through this. Each `apply` (an agent's turn) is one transaction through the
executor, and all of them join one undo batch, so one Undo reverts everything the utterance did,
however many turns the model took. The utterance is marked done in the same transaction as its
first change, so a crash can never leave applied changes behind an utterance that looks unprocessed
(and would be retried into duplicates). `finish` applies the last actions and records the outcome in
one transaction: the offline rules' whole run is that one write. `abandon` reverts the lot when the
run fails halfway.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from app.changes.executor import (
    ActionFailure,
    AppliedAction,
    ExecutionResult,
    execute,
    failures_from_parse,
    summarize,
)
from app.changes.undo import undo_batch
from app.domain.actions import Action, ParseFailure
from app.domain.clock import Clock
from app.domain.enums import Category, Status, UtteranceOutcome
from app.store import Store
from app.store.models import Entry, UndoBatch, Utterance
from app.store.queries import list_entries, list_entry_summaries, short_id_of, short_ids


@dataclass
class Workspace:
    store: Store
    clock: Clock
    utterance_id: int
    applied: list[AppliedAction] = field(default_factory=list)
    failures: list[ActionFailure] = field(default_factory=list)
    undo_id: int | None = None

    def context_entries(self) -> list[Entry]:
        """The entries the user may be talking about (active and snoozed)."""
        with self.store.read() as session:
            return list_entries(session, self.clock.now, statuses=(Status.ACTIVE, Status.SNOOZED))

    def context_summaries(self) -> tuple[list[Any], dict[str, str]]:
        """The same entries as plain rows of the columns the model sees (fast at thousands)."""
        with self.store.read() as session:
            open_entries = list_entry_summaries(session, self.clock.now, (Status.ACTIVE, Status.SNOOZED))
            return open_entries, short_ids(session)

    def search(
        self, words: Sequence[str], statuses: Sequence[Status], category: Category | None, limit: int = 20
    ) -> tuple[list[Entry], dict[str, str]]:
        """Entries of any of `statuses` containing any of `words`, those matching most words first."""
        with self.store.read() as session:
            found: dict[str, tuple[int, Entry]] = {}
            for word in words:
                for entry in list_entries(session, self.clock.now, statuses, category=category, search=word):
                    hits = found.get(entry.id, (0, entry))[0] + 1
                    found[entry.id] = (hits, entry)
            ranked = [entry for _, entry in sorted(found.values(), key=lambda pair: -pair[0])[:limit]]
            # Short IDs of the few results only: from their index neighbours, not the whole store.
            return ranked, {entry.id: short_id_of(session, entry.id) for entry in ranked}

    def apply(self, actions: Sequence[Action]) -> tuple[list[AppliedAction], list[ActionFailure]]:
        """Apply `actions` in one transaction, joining this utterance's undo batch (one turn of an agent)."""
        with self.store.write() as session:
            result = self._execute(session, actions)
        self._record(result)
        return result.applied, result.failures

    def note_parse_failures(self, failures: Sequence[ParseFailure]) -> None:
        self.failures.extend(failures_from_parse(failures))

    def finish(self, actions: Sequence[Action] = (), error: str | None = None) -> None:
        """Apply the last `actions` and record how the utterance ended, in one transaction: done when
        anything applied, else failed with `error` or the failures' reasons."""
        if self.applied and not actions:
            return  # already marked done, in the transaction of its first change
        with self.store.write() as session:
            result = self._execute(session, actions)
            if not self.applied and not result.applied:
                failures = [*self.failures, *result.failures]
                reasons = error or "; ".join(f.error for f in failures) or "nothing to do was found in it"
                self._mark(session, UtteranceOutcome.FAILED, reasons)
        self._record(result)

    def abandon(self, error: str) -> None:
        """The run failed: revert everything it applied, and leave the utterance failed (retryable)."""
        with self.store.write() as session:
            if self.undo_id is not None:
                batch = session.get(UndoBatch, self.undo_id)
                assert batch is not None
                undo_batch(session, batch, self.clock.now)
                batch.label = f"abandoned: {error}"[:200]
                session.add(batch)
            self._mark(session, UtteranceOutcome.FAILED, error)
        self.applied.clear()
        self.undo_id = None

    def _execute(self, session: Session, actions: Sequence[Action]) -> ExecutionResult:
        """Apply `actions` inside `session`; with any change, the utterance is marked done alongside."""
        if not actions:
            return ExecutionResult(applied=[], failures=[], undo_id=self.undo_id)
        result = execute(session, actions, self.clock, utterance_id=self.utterance_id, batch_id=self.undo_id)
        if result.applied:
            self._mark(session, UtteranceOutcome.DONE, None)
            batch = session.get(UndoBatch, result.undo_id)
            assert batch is not None
            batch.label = summarize([*self.applied, *result.applied], [])
            session.add(batch)
        return result

    def _record(self, result: ExecutionResult) -> None:
        """Keep what a committed transaction did."""
        if result.applied:
            self.undo_id = result.undo_id
        self.applied.extend(result.applied)
        self.failures.extend(result.failures)

    def _mark(self, session: Session, outcome: UtteranceOutcome, error: str | None) -> None:
        utterance = session.get(Utterance, self.utterance_id)
        assert utterance is not None
        if utterance.outcome is not outcome or utterance.processed_at is None:
            utterance.processed_at = self.clock.now
        utterance.outcome, utterance.error = outcome, error
        session.add(utterance)
