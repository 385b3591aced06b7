"""What the worker thread runs: service calls turned into reports the widgets can show as they are.

Plain Python, no Qt: every function takes the service and returns a frozen dataclass.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from app.agent.ledger import UsageSummary, usage_summary
from app.changes.executor import ExecutionResult
from app.changes.undo import HistoryBatch, UndoResult
from app.domain.actions import Action
from app.domain.enums import Status, UtteranceSource
from app.domain.events import EventCallback, EventType, PipelineEvent
from app.errors import MurmurError, UndoError
from app.render import applied_line, failure_line
from app.service import MurmurService, PipelineResult
from app.store.models import Entry, Utterance
from app.store.queries import short_ids


@dataclass(frozen=True)
class BatchReport:
    """What one utterance or one manual edit did, in words."""

    summary: str  # "2 created, 1 completed (1 couldn't be processed)"
    applied: list[str]  # one line per applied action
    failures: list[str]  # one line per action that could not be applied, with the reason
    undo_id: int | None
    utterance_id: int | None = None  # set for utterances: what Retry runs again
    message: str | None = None  # the model's words (an answer or a clarifying question)
    question: bool = False
    error: str | None = None  # the whole run failed (server down, no model): it waits in the inbox

    @property
    def failed(self) -> bool:
        """Nothing was applied and there was no answer either: show an error with Retry."""
        return self.error is not None or (not self.applied and not self.message)


def _lines(service: MurmurService, result: PipelineResult | ExecutionResult) -> list[str]:
    clock = service.clock()
    return [applied_line(item, clock.now, clock.tz) for item in result.applied]


def batch_report(
    service: MurmurService, result: PipelineResult | ExecutionResult, message: str | None = None, question: bool = False
) -> BatchReport:
    return BatchReport(
        summary=result.summary,
        applied=_lines(service, result),
        failures=[failure_line(f) for f in result.failures],
        undo_id=result.undo_id,
        utterance_id=result.utterance_id if isinstance(result, PipelineResult) else None,
        message=message or (result.message if isinstance(result, PipelineResult) else None),
        question=question,
    )


class _RunWatcher:
    """Passes events on, remembering the utterance ID and the model's last message."""

    def __init__(self, on_event: EventCallback) -> None:
        self.on_event = on_event
        self.utterance_id: int | None = None
        self.message: str | None = None
        self.question = False

    def __call__(self, event: PipelineEvent) -> None:
        if event.type is EventType.TRANSCRIPT:
            self.utterance_id = event.data.get("utterance_id")
        elif event.type is EventType.MESSAGE:
            self.message, self.question = event.data.get("text"), bool(event.data.get("question"))
        self.on_event(event)


def run_utterance(
    service: MurmurService,
    text: str,
    source: UtteranceSource,
    on_event: EventCallback,
    retry_of: int | None = None,
) -> BatchReport:
    """Submit `text` (or retry utterance `retry_of`); a failed run is a report, never an exception."""
    watcher = _RunWatcher(on_event)
    try:
        if retry_of is None:
            result = service.submit(text, source, watcher)
        else:
            result = service.retry(retry_of, watcher)
    except MurmurError as error:
        utterance_id = watcher.utterance_id if retry_of is None else retry_of
        return BatchReport(str(error), [], [], None, utterance_id=utterance_id, error=str(error))
    return batch_report(service, result, watcher.message, watcher.question)


def apply_edit(service: MurmurService, actions: Sequence[Action], label: str) -> BatchReport:
    """A manual edit from the window: the executor's undoable batch, like an agent's."""
    return batch_report(service, service.apply(actions, label=label))


@dataclass(frozen=True)
class UndoReport:
    text: str  # "Undone: 2 reverted" or "... 1 left as it is (changed since)"


def undo_text(results: Sequence[UndoResult]) -> str:
    reverted = sum(len(r.reverted) for r in results)
    conflicts = [c.conflict for r in results for c in r.conflicts]
    text = f"Undone: {reverted} reverted"
    if conflicts:
        text += f", {len(conflicts)} left as it is ({conflicts[0]})"
    return text


def undo_batch(service: MurmurService, batch_id: int) -> UndoReport:
    """Revert the whole batch `batch_id`: in one transaction when it is the newest, else action by action."""
    history = service.history(limit=1)
    if history and history[0].batch.id == batch_id and history[0].batch.undone_at is None:
        return UndoReport(undo_text([service.undo()]))
    batch = next((h for h in service.history(limit=1_000) if h.batch.id == batch_id), None)
    if batch is None:
        raise UndoError(f"no batch {batch_id} in the history")
    pending = [item.id for item in reversed(batch.items) if item.undone_at is None and item.id is not None]
    if not pending:
        raise UndoError("that change was already undone")
    return UndoReport(undo_text([service.undo_action(item_id) for item_id in pending]))


def undo_one(service: MurmurService, item_id: int) -> UndoReport:
    return UndoReport(undo_text([service.undo_action(item_id)]))


@dataclass(frozen=True)
class EntrySnapshot:
    entries: list[Entry]  # every status; the view filters
    short_ids: dict[str, str]
    now: datetime
    tz: ZoneInfo


def load_entries(service: MurmurService) -> EntrySnapshot:
    entries = service.entries(list(Status))
    clock = service.clock()
    with service.store.read() as session:
        shorts = short_ids(session)
    return EntrySnapshot(entries, shorts, clock.now, clock.tz)


@dataclass(frozen=True)
class Views:
    """Everything the window lists, read in one go after each change."""

    entries: EntrySnapshot
    inbox: list[Utterance]
    history: list[HistoryBatch]
    usage: UsageSummary


def load_views(service: MurmurService, monthly_budget: float, history_limit: int = 100) -> Views:
    entries = load_entries(service)
    usage = usage_summary(service.store, entries.now, entries.tz, monthly_budget)
    return Views(entries, service.inbox(), service.history(history_limit), usage)
