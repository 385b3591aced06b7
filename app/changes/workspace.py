"""One utterance's working area: the entries it may talk about, and the writes it makes.

Every interpreter acts through this. Each `apply` (an agent's turn) is one transaction through the
executor, and all of them join one undo batch, so one Undo reverts everything the utterance did,
however many turns the model took. The run holds the utterance's lease throughout (see runs.py):
`finish` applies the last actions, marks the utterance done (or failed) and gives the lease back in
one transaction, so the user never sees it done before the run is; the offline rules' whole run is
that one write. `abandon` reverts the lot when the run fails halfway, and recovery does the same for
a run whose process died.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from sqlmodel import Session, col, update

from app.changes.executor import (
    ActionFailure,
    AppliedAction,
    ExecutionResult,
    execute,
    failures_from_parse,
)
from app.changes.memories import MemoryChange, remember
from app.changes.offers import offer
from app.changes.originals import note_originals
from app.changes.runs import end_run, renew_lease, revert_run
from app.domain.actions import Action, Choice, ParseFailure
from app.domain.clock import Clock
from app.domain.enums import MemorySource, Status, UtteranceOutcome
from app.domain.verbs import counted
from app.errors import UsageError
from app.store import Store
from app.store.models import Conversation, Entry, UndoBatch, Utterance
from app.store.queries import completed_since, list_entries, touched_before

RECENTLY_DONE = timedelta(days=30)  # how far back a question whether something is done looks
NO_MEMORIES_HERE = "assistants may not change your memories (mcp.allow_memories is off); nothing was remembered"


@dataclass
class Workspace:
    store: Store
    clock: Clock
    utterance_id: int
    applied: list[AppliedAction] = field(default_factory=list)
    failures: list[ActionFailure] = field(default_factory=list)
    memory_changes: list[MemoryChange] = field(default_factory=list)
    undo_id: int | None = None
    origin: str | None = None  # the other program the run is for, marked on its undo batch
    choices: list[Choice] = field(default_factory=list)  # readings offered back, for the user to pick one
    may_remember: bool = True  # off: the run changes no memory (an assistant the user has not allowed them)

    def context_entries(self) -> list[Entry]:
        """The entries the user may be talking about (active and snoozed)."""
        with self.store.read() as session:
            return list_entries(session, self.clock.now, statuses=(Status.ACTIVE, Status.SNOOZED))

    def last_touched(self) -> list[str]:
        """The entries the session's previous utterance made or changed (what "that", "it", "actually ..." mean)."""
        with self.store.read() as session:
            return touched_before(session, self.utterance_id)

    def done_lately(self) -> list[Entry]:
        """The entries completed lately: what "did I call the bank?" asks about."""
        with self.store.read() as session:
            return completed_since(session, self.clock.now - RECENTLY_DONE)

    def apply(
        self, actions: Sequence[Action], originals: Sequence[tuple[str, str]] = ()
    ) -> tuple[list[AppliedAction], list[ActionFailure]]:
        """Apply `actions` in one transaction, joining this utterance's undo batch (one turn of an agent).

        `originals`: the (placeholder, original) pairs put back into the actions' words (privacy.keep_unredacted),
        noted with the entries that hold them in the same transaction, so none of them is ever synced."""
        with self.store.write() as session:
            result = self._execute(session, actions)
            note_originals(session, [item.entry for item in result.applied], originals)
        self._record(result)
        return result.applied, result.failures

    def note_parse_failures(self, failures: Sequence[ParseFailure]) -> None:
        self.failures.extend(failures_from_parse(failures))

    def finish(
        self,
        actions: Sequence[Action] = (),
        error: str | None = None,
        conversation_id: int | None = None,
        reply: str | None = None,
        choices: Sequence[Choice] = (),
    ) -> None:
        """Apply the last `actions` and end the run, in one transaction: done when anything applied (now
        or in an earlier turn) or when the run's whole work was to answer in words (`reply`, no `error`, nothing
        that failed), else failed with `error` or the failures' reasons; the reply is kept with the utterance,
        which is tied to the model's conversation when it had one."""
        with self.store.write() as session:
            result = self._execute(session, actions)
            utterance = self._utterance(session)
            utterance.reply = reply
            answered = bool(reply) and error is None and not (self.failures or result.failures)
            if self.applied or result.applied or self.memory_changes or answered:
                end_run(session, utterance, UtteranceOutcome.DONE, None, self.clock.now)
            else:
                failures = [*self.failures, *result.failures]
                reasons = error or "; ".join(f.error for f in failures) or "nothing to do was found in it"
                end_run(session, utterance, UtteranceOutcome.FAILED, reasons, self.clock.now)
                if choices:  # it waits in the inbox with them, until one is chosen
                    offer(utterance, choices)
                    self.choices.extend(choices)
            if conversation_id is not None:
                _join_conversation(session, utterance, conversation_id)
        self._record(result)

    def change_memory(self, change: Callable[[Session, int | None], MemoryChange]) -> MemoryChange:
        """One change to the user's memories (`change` gets the session and the run's undo batch, if any), in
        its own transaction, joining the run's undo batch: one Undo reverts it with the rest. A UsageError, changing
        nothing, when the run may not change memories."""
        if not self.may_remember:
            raise UsageError(NO_MEMORIES_HERE)
        with self.store.write() as session:
            done = change(session, self.undo_id)
            renew_lease(self._utterance(session))
            batch = session.get(UndoBatch, done.batch_id) if self.origin else None
            if batch is not None:
                batch.origin = self.origin
                session.add(batch)
        self.undo_id = done.batch_id
        self.memory_changes.append(done)
        return done

    def remember_said(self, facts: Sequence[str]) -> None:
        """Keep the facts the user asked to remember (the offline rules read them), each joining the run's undo
        batch; one that cannot be kept (too long) fails as an action would, and the rest still apply."""
        now = self.clock.now
        for fact in facts:

            def change(session: Session, batch: int | None, fact: str = fact) -> MemoryChange:
                return remember(session, fact, MemorySource.USER, now, self.utterance_id, batch)

            try:
                self.change_memory(change)
            except UsageError as error:
                self.failures.append(ActionFailure(kind="remember", error=str(error)))

    def close_conversation(self, conversation_id: int | None) -> None:
        """The talk the run left open for a follow-up is not one to continue (the run is being abandoned)."""
        if conversation_id is None:
            return
        with self.store.write() as session:
            conversation = session.get(Conversation, conversation_id)
            if conversation is not None:
                conversation.open_until = None
                session.add(conversation)

    def abandon(self, error: str) -> None:
        """The run failed: revert everything it applied, and leave the utterance failed (retryable)."""
        with self.store.write() as session:
            revert_run(session, self._utterance(session), error, self.clock.now)
        self.applied.clear()
        self.memory_changes.clear()
        self.undo_id = None

    def _execute(self, session: Session, actions: Sequence[Action]) -> ExecutionResult:
        """Apply `actions` inside `session`; with any change, the run's lease is renewed alongside."""
        if not actions:
            return ExecutionResult(applied=[], failures=[], undo_id=self.undo_id)
        result = execute(
            session, actions, self.clock, utterance_id=self.utterance_id, batch_id=self.undo_id, origin=self.origin
        )
        if result.applied:
            renew_lease(self._utterance(session))
            batch = session.get(UndoBatch, result.undo_id)
            assert batch is not None
            batch.label = counted(item.action for item in [*self.applied, *result.applied])
            session.add(batch)
        return result

    def _record(self, result: ExecutionResult) -> None:
        """Keep what a committed transaction did."""
        if result.applied:
            self.undo_id = result.undo_id
        self.applied.extend(result.applied)
        self.failures.extend(result.failures)

    def _utterance(self, session: Session) -> Utterance:
        utterance = session.get(Utterance, self.utterance_id)
        assert utterance is not None
        return utterance


def _join_conversation(session: Session, utterance: Utterance, conversation_id: int) -> None:
    """Tie the utterance to its conversation; once a follow-up applies changes, the earlier utterances
    that only got a question back are answered, so they leave the inbox."""
    utterance.conversation_id = conversation_id
    session.add(utterance)
    if utterance.outcome is UtteranceOutcome.DONE:
        session.execute(
            update(Utterance)
            .where(
                col(Utterance.conversation_id) == conversation_id,
                col(Utterance.outcome) == UtteranceOutcome.FAILED.value,
            )
            .values(outcome=UtteranceOutcome.DONE, error=None)
        )
