"""The one place that writes: utterances in, actions applied, undo out.

Both front ends (the CLI and the desktop app) call this. Every write is one transaction through
`Store.write()`; the utterance text is committed before it is interpreted, so a crash or a failing
interpreter or model server never loses what the user said (it waits in the inbox, retryable). When
another program holds the database longer than the store waits, what was said goes to the spool
(app/changes/spool.py) and into the inbox at the next start or submit.
An offline utterance is two writes (each an fsync): saving it, then its changes with their undo
record and its outcome. A run holds a lease on its utterance until it ends (app/changes/runs.py): a
second run of it is refused meanwhile, and a run whose process died is reverted by the next service
to start or the next run to begin, its utterance back in the inbox as "interrupted". Reads write
nothing: a snooze that has ended reads active (see `app.store.queries.status_at`) until the next
write persists it.
"""

import logging
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from datetime import time as dt_time
from pathlib import Path

from sqlmodel import Session, col, select

from app.bounds.checks import utterance_text
from app.bounds.limits import MASS_CHANGE_CAP
from app.changes.choices import ChosenReading
from app.changes.executor import ActionFailure, AppliedAction, ExecutionResult, execute
from app.changes.held import Asked, Caps, HeldRequest, hold, over_the_cap, too_many
from app.changes.imports import ImportOutcome, import_in_chunks, preview_import
from app.changes.inbox import Dismissal, correct, dismiss, waiting_utterance
from app.changes.interpretation import Agent, AgentOutcome, InterpretContext, Interpreter, RunOptions, Usage
from app.changes.judgement import fault_in
from app.changes.memories import MemoryChange, edit_memory, forget, remember
from app.changes.offers import offered_labels
from app.changes.originals import clear_originals, shareable
from app.changes.runs import interrupted_runs, recover_interrupted, take_lease
from app.changes.spool import Spool, file_spooled
from app.changes.undo import HistoryBatch, UndoResult, batch_to_undo, history, latest_batch, undo_in_chunks, undo_item
from app.changes.workspace import RECENTLY_DONE, Workspace
from app.changes.zone_moves import kept_at_their_time, last_zone, note_zone
from app.domain.actions import (
    Action,
    ArchiveAction,
    CompleteAction,
    CreateAction,
    SnoozeAction,
    UpdateAction,
    parse_actions,
    parse_update_fields,
)
from app.domain.clock import Clock
from app.domain.dates import moved_due, resolve_due
from app.domain.defaults import BY_HAND
from app.domain.enums import (
    Category,
    DueSpan,
    Format,
    MemorySource,
    RecordingRemoval,
    SessionEnd,
    Status,
    UndoSubject,
    UtteranceSource,
)
from app.domain.events import (
    AppliedEvent,
    EventCallback,
    ThinkingEvent,
    TranscriptEvent,
    ignore_events,
)
from app.domain.hints import Hints
from app.domain.local_calendar import personal_days
from app.domain.usage import UsageSummary
from app.errors import (
    DatabaseBusyError,
    LlmError,
    ModelFault,
    MurmurError,
    Remedy,
    StoreError,
    UndoError,
    UsageError,
    UtteranceKeptError,
    waits_for_yes,
)
from app.memory.entry_search import MAX_PAGE, SearchPage, SearchRequest, SearchSort, search_page
from app.memory.profile import active_memories, short_memory_ids
from app.memory.recall import RecallHit, RecallQuery, recall
from app.memory.search_arguments import ToolArgumentError, search_request
from app.memory.sessions import end_session, join_session, open_session, transcript, unsummed_sessions
from app.portable.common import StoredRows, format_of
from app.presentation.failures import failure_line
from app.presentation.imports import import_waits_for_yes
from app.presentation.reading import ReadAction, ReadingPreview
from app.presentation.run_report import touched_entries, was_answer
from app.presentation.summaries import summarize
from app.private_files import output_target, write_private_text
from app.recordings.copies import RecordingCopies, copies_folder, copy_kept
from app.recordings.folder import RecordingsFolder
from app.recordings.hearing import Ears
from app.recordings.kept import (
    Forgetting,
    follow_undo,
    forget_sounds,
    keep,
    kept_recordings,
    recorded_of,
    recording_file,
    removals_of,
    to_trash,
)
from app.recordings.retention import Retention, housekeeping, housekeeping_due, prune
from app.recordings.sound import read_sound, write_wav
from app.store import Store
from app.store.backups import (
    Backup,
    BackupKind,
    back_up,
    find_backup,
    list_backups,
    restore_backup,
    take_daily_if_due,
)
from app.store.models import Entry, LlmRequest, Memory, SyncState, TalkSession, UndoBatch, Utterance
from app.store.queries import (
    completed_since,
    entries_by_age,
    entries_with_ids,
    entry_tally,
    get_entry,
    latest_sessions,
    list_entries,
    recent_requests,
    recent_summaries,
    schema_of,
    short_ids,
    short_ids_after,
    stored_rows,
    touched_by,
    usage_summary,
    waiting_utterances,
    wake_snoozed,
)
from app.sync.account import CHECK_ACCOUNT, NOT_SET_UP, SET_UP
from app.sync.engine import Sync, SyncReport, note_outcome
from app.sync.lock import one_sync_at_a_time
from app.sync.remote import KnownList, SyncSource
from app.sync.status import SyncStatus, sync_status
from app.vocabulary.changes import VocabularyChanges, as_word, keep_words, kept_words, remove_word
from app.vocabulary.replacing import replaced
from app.vocabulary.text_file import read_words, words_text
from app.vocabulary.words import Word

log = logging.getLogger("murmur.service")

TRASH_EMPTIED = "its sound was emptied from the trash since"

# About twenty minutes of continuous speech; longer input is almost surely a paste by mistake.
SYNC_WAIT_SECONDS = 10.0  # a sync started while another runs waits this long for it, then says so
NO_OPTIONS = RunOptions()


@dataclass(frozen=True)
class PipelineResult:
    utterance_id: int
    interpreter: str
    applied: list[AppliedAction]
    failures: list[ActionFailure]
    undo_id: int | None
    message: str | None = None  # the model's final words, or its clarifying question
    question: bool = False
    turns: int = 0
    usage: Usage = Usage()
    memory_changes: list[MemoryChange] = field(default_factory=list)  # what the model remembered or forgot
    fallback_reason: str | None = None  # the model failed for this reason, and the offline rules filed it
    fallback_remedy: Remedy | None = None  # what would let the model work again, for the front ends to say
    choices: tuple[str, ...] = ()  # the readings offered back (it waits in the inbox): `retry --choice` takes one

    @property
    def touched(self) -> tuple[str, ...]:
        """The IDs of the entries the run changed, each once, those it made first (the one to show)."""
        return touched_entries(self.applied)

    @property
    def summary(self) -> str:
        return summarize(self.applied, self.failures, self.memory_changes)

    @property
    def answered(self) -> bool:
        """The run's work was an answer in words ("what's due this week?"): done, though nothing changed."""
        return was_answer(self)


@dataclass(frozen=True)
class RehearOffer:
    """Utterances waiting in the inbox with their recordings kept, and the better engine that could hear them."""

    count: int
    engine: str


@dataclass
class MurmurService:
    store: Store
    interpreter: Interpreter | Agent
    clock: Callable[[], Clock] = field(default=Clock.system)
    session_gap: timedelta = timedelta(minutes=30)  # silence that ends a session (memory.session_gap_minutes)
    fallback: Interpreter | None = None  # files what the model failed (llm.fallback = offline); None: the inbox
    # Reads what was said when the model changed nothing, to tell an answer from work it left undone.
    rules: Interpreter | None = None
    # Opens the user's task list on the sync server for one sync; None: sync is not set up.
    sync_source: SyncSource | None = None
    retention: Retention = field(default_factory=Retention)  # how long the sound of what was said is kept
    ears: Ears | None = None  # the speech engines that hear a kept recording again; None: none to load
    # Changes one utterance's reading makes unasked (llm.max_mutations): past it they wait for the user's yes,
    # whichever reads the words (the rules too: pasted words can name hundreds of entries).
    max_changes: int = MASS_CHANGE_CAP
    spool: Spool = field(init=False)  # what was said while another program held the database
    recordings: RecordingsFolder = field(init=False)

    def __post_init__(self) -> None:
        self.spool = Spool.beside(self.store.path)
        self.recordings = RecordingsFolder.beside(self.store.path)
        self.recover_interrupted_runs()
        self.follow_the_zone()
        self.take_in_spooled()
        self.prune_recordings()

    # -- utterances -------------------------------------------------------------------------

    def submit(
        self,
        text: str,
        source: UtteranceSource = UtteranceSource.CLI,
        on_event: EventCallback = ignore_events,
        options: RunOptions = NO_OPTIONS,
        audio: bytes = b"",
    ) -> PipelineResult:
        """Save `text`, interpret it, apply the actions; the utterance ends done or failed.

        `on_event` hears the run's progress (see app.domain.events) from the saved words to the changes made; the
        run's start and end are its driver's (app/run/conductor.py). A run that fails raises its MurmurError with
        `utterance_id` set: what was said waits in the inbox under it. `audio`: what was heard (16 kHz mono int16),
        kept with the utterance before it is read, as retention allows.
        """
        text = utterance_text(text)
        # The model's deadline covers the summing up of ended sessions too: the user waits for both.
        options = replace(options, clock_started=options.clock_started or time.monotonic())
        utterance_id, text, new_session = self._save(text, source)
        if audio:
            self._keep_recording(utterance_id, audio)
        if new_session:  # the sessions ended before this one, summed up before its first request
            self.sum_up_sessions()
        return self._process(on_event, utterance_id, text, source, options)

    def _save(self, text: str, source: UtteranceSource) -> tuple[int, str, bool]:
        """Commit what was said before it is interpreted, after what was spooled before it; returns its ID, its
        text as saved (a dictation with the vocabulary's replacements) and whether it opened a new session."""
        now = self.clock().now
        try:
            with self.spool.taking() as spooled, self.store.write() as session:
                file_spooled(session, spooled)
                utterance = Utterance(text=text, source=source, created_at=now)
                if source is UtteranceSource.VOICE:  # what an engine wrote, put in the user's words; typed is meant
                    _put_replacements(session, utterance)
                new_session = join_session(session, utterance, now, self.session_gap)
                _start_attempt(session, utterance, now)
                assert utterance.id is not None
                return utterance.id, utterance.text, new_session
        except DatabaseBusyError:
            self.spool.append(text, source, now)  # nobody may be at a prompt to say it again
            raise UtteranceKeptError(
                "another program is holding the database: what you said is kept, and goes to the inbox as soon "
                "as Murmur can write again"
            ) from None

    def _keep_recording(self, utterance_id: int, audio: bytes) -> None:
        """The sound with its utterance, then the oldest pruned past the limits; a sound that cannot be kept is
        logged, never a reason to lose the words."""
        if not self.retention.keep:
            return
        began = time.monotonic()
        now = self.clock().now
        try:
            with self.store.write() as session:
                keep(session, self.recordings, utterance_id, audio, now)
                prune(session, self.recordings, self.retention, now)
        except (MurmurError, OSError, RuntimeError) as error:  # soundfile's errors are RuntimeErrors
            log.warning("the recording of utterance %d was not kept: %s", utterance_id, error)
            return
        log.info("kept the recording of utterance %d in %.3f s", utterance_id, time.monotonic() - began)

    def retry(
        self,
        utterance_id: int,
        on_event: EventCallback = ignore_events,
        options: RunOptions = NO_OPTIONS,
        text: str | None = None,
        on_start: Callable[[UtteranceSource], None] = lambda _source: None,
    ) -> PipelineResult:
        """Run a saved utterance through the pipeline again (e.g. after a failure); `text`: the user's correction
        of what was heard, run instead (the first words are kept with it). `on_start` hears the utterance's source
        once it is handed over (a run again begins then: one refused has not begun)."""
        with self.store.write() as session:
            utterance = waiting_utterance(session, utterance_id)
            held: HeldRequest | ChosenReading | None = HeldRequest.of(utterance, options.confirmed)
            if options.choice is not None:
                held = ChosenReading.of(utterance, options.choice)
            if held is not None and text is not None:
                raise UsageError("another assistant's request is not words to put right: confirm it or dismiss it")
            if text is not None:
                correct(utterance, utterance_text(text))
            _start_attempt(session, utterance, self.clock().now)  # refused while another run holds it
            text, source = utterance.text, utterance.source
        on_start(source)
        if held is None:
            return self._process(on_event, utterance_id, text, source, options)
        origin = held.origin if isinstance(held, HeldRequest) else options.origin
        return self._process(on_event, utterance_id, text, source, replace(options, origin=origin), held)

    def inbox(self) -> list[Utterance]:
        """Utterances that failed or never finished, oldest first, except those the user dismissed."""
        with self.store.read() as session:
            return waiting_utterances(session)

    @staticmethod
    def choices_of(utterance: Utterance) -> list[str]:
        """The readings offered back for a waiting utterance, as the user reads them (`retry` with `choice` takes
        one, counted from 1); none when Murmur was not unsure of it."""
        return offered_labels(utterance)

    def dismiss(self, utterance_id: int) -> Dismissal:
        """Take an utterance out of the inbox; it stays in the store, and undo brings it back."""
        now = self.clock().now
        with self.store.write() as session:
            recover_interrupted(session, now)  # a run a dead process left is ended (failed) first
            return dismiss(session, waiting_utterance(session, utterance_id), now)

    def _process(
        self,
        on_event: EventCallback,
        utterance_id: int,
        text: str,
        source: UtteranceSource,
        options: RunOptions,
        held: HeldRequest | ChosenReading | None = None,
    ) -> PipelineResult:
        """Run what was said (or, `held`, the changes another program asked for, or the reading the user chose)
        to its end; a MurmurError that ends it names the utterance that waits in the inbox."""
        on_event(TranscriptEvent(text, source, utterance_id))
        try:
            if held is None:
                return self._run(utterance_id, text, on_event, options)
            # the kept changes, not words to read: no model, no fallback
            return self._interpret(held, utterance_id, text, on_event, options)
        except MurmurError as error:
            error.utterance_id = utterance_id
            raise

    def _run(self, utterance_id: int, text: str, on_event: EventCallback, options: RunOptions) -> PipelineResult:
        """The interpreter's run; when the model fails it (and a fallback is set), what it applied is taken back
        and the offline rules file the utterance in a second attempt, saying why."""
        try:
            result = self._interpret(self.interpreter, utterance_id, text, on_event, options)
        except LlmError as error:
            reason, remedy = self._count_against_model(error), error.remedy
            if self.fallback is None:
                if reason == str(error):
                    raise
                raise LlmError(reason, remedy) from error
        else:
            if isinstance(self.interpreter, Agent):
                self.interpreter.judged(self.store, None)
            return result
        log.info("utterance %d: the model failed (%s); the offline rules file it", utterance_id, reason)
        with self.store.write() as session:
            utterance = session.get(Utterance, utterance_id)
            assert utterance is not None
            _start_attempt(session, utterance, self.clock().now)
        result = self._interpret(self.fallback, utterance_id, text, on_event, options)
        return replace(result, fallback_reason=reason, fallback_remedy=remedy)

    def _count_against_model(self, error: LlmError) -> str:
        """Why the model failed, with a word when this failure set it aside (a server that could not be reached
        is not the model's failure, and does not count)."""
        if not isinstance(error, ModelFault) or not isinstance(self.interpreter, Agent):
            return str(error)
        set_aside = self.interpreter.judged(self.store, str(error))
        return f"{error}; {set_aside}" if set_aside else str(error)

    def _interpret(
        self,
        interpreter: Interpreter | Agent,
        utterance_id: int,
        text: str,
        on_event: EventCallback,
        options: RunOptions,
    ) -> PipelineResult:
        workspace = Workspace(
            self.store, self._run_clock(), utterance_id, origin=options.origin, may_remember=options.may_remember
        )
        try:
            if isinstance(interpreter, Agent):  # it reports its own turns
                outcome = interpreter.run(text, workspace, on_event, options)
                if self.rules is not None and (fault := fault_in(text, outcome, workspace, self.rules)) is not None:
                    workspace.close_conversation(outcome.conversation_id)
                    raise ModelFault(fault)
                question = f"the assistant asked: {outcome.message}" if outcome.question else None
                workspace.finish(
                    error=question,
                    conversation_id=outcome.conversation_id,
                    reply=outcome.message,
                    choices=outcome.choices,
                )
            else:
                on_event(ThinkingEvent(1, interpreter.name))
                outcome = self._read_and_apply(interpreter, text, workspace, options.confirmed)
                on_event(AppliedEvent(len(workspace.applied), len(workspace.failures)))
        except MurmurError as error:
            workspace.abandon(str(error))
            raise
        except Exception as error:  # a bug: keep the utterance retryable, then let it surface
            workspace.abandon(f"internal error: {error!r}")
            raise
        except KeyboardInterrupt:
            workspace.abandon("interrupted")
            raise
        return PipelineResult(
            utterance_id=utterance_id,
            interpreter=interpreter.name,
            applied=workspace.applied,
            failures=workspace.failures,
            undo_id=workspace.undo_id,
            message=outcome.message,
            question=outcome.question,
            turns=outcome.turns,
            usage=outcome.usage,
            memory_changes=workspace.memory_changes,
            choices=tuple(choice.label for choice in workspace.choices),
        )

    def _read_and_apply(
        self, interpreter: Interpreter, text: str, workspace: Workspace, confirmed: bool
    ) -> AgentOutcome:
        """One read, then the writes: the facts to remember first, then the actions, their undo record and the
        outcome together, all in one undo batch; more actions than `max_changes` wait for a yes unless `confirmed`."""
        context = InterpretContext(
            workspace.context_entries(),
            workspace.clock,
            last_touched=workspace.last_touched(),
            done_lately=workspace.done_lately(),
        )
        parsed = interpreter.interpret(text, context)
        if not confirmed and (why := too_many(len(parsed.actions), self.max_changes)) is not None:
            raise waits_for_yes(workspace.utterance_id, f"{why}, llm.max_mutations")
        workspace.remember_said(parsed.remember)
        workspace.note_parse_failures(parsed.failures)
        workspace.finish(parsed.actions, reply=parsed.answer, choices=parsed.choices)
        return AgentOutcome(message=parsed.answer, turns=1)

    # -- the reading before Enter ---------------------------------------------------------------

    def preview(self, text: str) -> ReadingPreview:
        """What the offline rules would do with `text` if it were submitted now, read against what a run now would
        see; only reads (no utterance saved, no run, no write). With a model set up it reads the words on submit,
        so the rules' reading is marked as theirs; an empty (or unsavable) text reads as nothing."""
        if isinstance(self.interpreter, Agent):
            rules, rules_only = self.rules, True
        else:
            rules, rules_only = self.interpreter, False
        try:
            text = utterance_text(text)
        except UsageError:
            return ReadingPreview()
        if rules is None:
            return ReadingPreview()
        context = self._reading_context()
        parsed = rules.interpret(text, context)
        known = {entry.id: entry for entry in [*context.done_lately, *context.entries]}
        return ReadingPreview(
            actions=tuple(_read_action(action, known, context.clock) for action in parsed.actions),
            answer=parsed.answer,
            choices=tuple(choice.label for choice in parsed.choices),
            remember=parsed.remember,
            unread=len(parsed.failures),
            rules_only=rules_only,
        )

    def _reading_context(self) -> InterpretContext:
        """The context `_read_and_apply` gives the rules (see `Workspace`), read without an utterance of its own."""
        clock = self._run_clock()
        with self.store.read() as session:
            return InterpretContext(
                list_entries(session, clock.now, statuses=(Status.ACTIVE, Status.SNOOZED)),
                clock,
                last_touched=_touched_last(session, clock.now, self.session_gap),
                done_lately=completed_since(session, clock.now - RECENTLY_DONE),
            )

    # -- direct edits, undo, reads -----------------------------------------------------------

    def _run_clock(self) -> Clock:
        """The clock for reading what was said: the user's calendar with the days their memories name, so
        "on my birthday" is a date once "my birthday is May 5" is remembered."""
        clock = self.clock()
        with self.store.read() as session:
            days = personal_days(m.text for m in active_memories(session))
        return replace(clock, calendar=replace(clock.calendar, personal=days)) if days else clock

    def read_due(self, phrase: str, current: datetime | None = None) -> datetime | None:
        """Where an entry's due lands when set to `phrase`, exactly as an edit sets it: read with this service's
        clock (its zone, now, the hours of the day's parts, named and personal days), keeping what the phrase does
        not say of the `current` due (a day alone keeps its time); None when no moment can be read."""
        return moved_due(current, phrase, self._run_clock())

    def apply(self, actions: Sequence[Action], label: str | None = None) -> ExecutionResult:
        """Direct edits (from the CLI or the window): the same executor, so they are undoable too."""
        clock = self._run_clock()
        with self.store.write() as session:
            wake_snoozed(session, clock.now)
            return execute(session, actions, clock, label=label)

    def apply_asked(self, asked: Asked, origin: str, words: str, caps: Caps) -> ExecutionResult:
        """The changes another program asks for (an assistant over MCP; `asked`: each action's kind and item as the
        agent's tools take them), as one undo batch marked with its name `origin`, all of them or none: an item
        that does not read or an action that fails is a UsageError and changes nothing. More than `caps` let
        through (of one kind: archive, complete, snooze, update; or in all) wait in the inbox, said as `words`, for
        the user's yes: ConfirmationNeeded, naming the utterance to confirm."""
        parsed = parse_actions(asked)
        if parsed.failures:
            raise UsageError("; ".join(f"{f.tool}: {f.error}" for f in parsed.failures) + "; nothing was changed")
        clock = self._run_clock()
        with self.store.write() as session:
            if (why := over_the_cap(asked, caps)) is not None:
                error = hold(session, asked, origin, words, why, clock.now)
            else:
                wake_snoozed(session, clock.now)
                result = execute(session, parsed.actions, clock, origin=origin)
                if result.failures:  # raised inside the write: none of it is kept
                    raise UsageError("; ".join(failure_line(f) for f in result.failures) + "; nothing was changed")
                return result
        raise error  # after the write, which kept the held request

    def complete(self, entry_ids: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        return self.apply([CompleteAction(entry_id=i, reason=reason) for i in entry_ids], "completed by hand")

    def archive(self, entry_ids: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        return self.apply([ArchiveAction(entry_id=i, reason=reason) for i in entry_ids], "archived by hand")

    def unarchive(self, entry_ids: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        """Bring archived entries back into the list, open; one undo puts them away again."""
        actions = [UpdateAction(entry_id=i, changes={"status": Status.ACTIVE}, reason=reason) for i in entry_ids]
        return self.apply(actions, "unarchived by hand")

    def snooze(self, entry_ids: Sequence[str], until: str, reason: str = BY_HAND) -> ExecutionResult:
        actions = [SnoozeAction(entry_id=i, until_text=until, reason=reason) for i in entry_ids]
        return self.apply(actions, "snoozed by hand")

    def move(self, entry_ids: Sequence[str], due: str, reason: str = BY_HAND) -> ExecutionResult:
        """Give the entries a new due (`due` read as an edit of it reads it: a day alone keeps each entry's time, a
        habit keeps its repeat), one batch that one undo takes back."""
        actions = [UpdateAction(entry_id=i, changes={"due_date": due}, reason=reason) for i in entry_ids]
        return self.apply(actions, "moved by hand")

    def edit(self, entry_ids: Sequence[str], fields: Mapping[str, object], reason: str = BY_HAND) -> ExecutionResult:
        """Set `fields` (content, summary, category, priority, due_date, repeat, status; None clears one) on
        each entry; a field that does not validate is a UsageError and changes nothing."""
        try:
            changes = parse_update_fields(dict(fields))
        except MurmurError as error:
            raise UsageError(str(error)) from None
        result = self.apply(
            [UpdateAction(entry_id=i, changes=changes, reason=reason) for i in entry_ids], "edited by hand"
        )
        if {"summary", "content"} & set(changes):
            with self.store.write() as session:  # the user typed these words: they may go where the user sends them
                clear_originals(session, [item.entry.id for item in result.applied])
        return result

    def tick_item(self, entry_id: str, item: str, reason: str = BY_HAND) -> ExecutionResult:
        """Tick one item of the entry's checklist (its text, or words naming it); the last one completes it."""
        return self.apply([CompleteAction(entry_id=entry_id, item=item, reason=reason)], "ticked by hand")

    def untick_item(self, entry_id: str, item: str, reason: str = BY_HAND) -> ExecutionResult:
        """Take back a ticked item; an entry its last item completed is open again."""
        return self.edit([entry_id], {"untick_item": item}, reason)

    def add_items(self, entry_id: str, items: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        """Append items to the open entry's checklist, skipping those already on it."""
        return self.edit([entry_id], {"add_items": list(items)}, reason)

    def remove_items(self, entry_id: str, items: Sequence[str], reason: str = BY_HAND) -> ExecutionResult:
        """Take items off the open entry's checklist, ticked or not; one undo puts them back where they were."""
        return self.edit([entry_id], {"remove_items": list(items)}, reason)

    def open_entry(self, entry_id: str) -> Entry | None:
        """The entry with this full ID while it is open (active or snoozed); None once done or gone."""
        with self.store.read() as session:
            entry = session.get(Entry, entry_id)
            return entry if entry is not None and entry.status in (Status.ACTIVE, Status.SNOOZED) else None

    def merge(self, new_id: str, into_id: str) -> ExecutionResult:
        """Two entries that are one thing said twice ("remind me to call the plumber at 11" next to "Call
        the plumber"): `into` takes the due and priority `new` brought, and `new` is archived, in one batch
        that one undo takes back."""
        clock = self.clock()
        with self.store.write() as session:
            wake_snoozed(session, clock.now)
            new, into = get_entry(session, new_id), get_entry(session, into_id)
            if new.id == into.id:
                raise UsageError("an entry cannot be merged into itself")
            changes: dict[str, object] = {}
            if new.due_text and new.due_at != into.due_at:
                changes["due_date"] = new.due_text
            if new.priority is not None and new.priority != into.priority:
                changes["priority"] = new.priority
            took = f"merged '{new.summary}' ({new.id[:6]}) into it"
            actions: list[Action] = [UpdateAction(entry_id=into.id, changes=changes, reason=took)] if changes else []
            actions.append(ArchiveAction(entry_id=new.id, reason=f"merged into '{into.summary}' ({into.id[:6]})"))
            return execute(session, actions, clock, label="merged")

    def undo(self) -> UndoResult:
        """Revert the newest batch not undone yet."""
        return self._sounds_follow(undo_in_chunks(self.store, latest_batch, self.clock().now))

    def undo_batch(self, batch_id: int, origin: str | None = None) -> UndoResult:
        """Revert what is left of batch `batch_id` (see `history`), last action first; with `origin`, only a batch
        that program made (another program may take back its own changes, never the user's)."""

        def pick(session: Session) -> UndoBatch:
            batch = batch_to_undo(session, batch_id)
            if origin is not None and batch.origin != origin:
                raise UndoError(f"batch {batch_id} was not made by {origin}; only its own batches can be undone")
            return batch

        return self._sounds_follow(undo_in_chunks(self.store, pick, self.clock().now))

    def undo_action(self, item_id: int) -> UndoResult:
        with self.store.write() as session:
            undone = undo_item(session, item_id, self.clock().now)
        return self._sounds_follow(undone)

    def _sounds_follow(self, result: UndoResult) -> UndoResult:
        """A forgetting undone: its sounds come back out of the trash with their rows; one whose sound the emptied
        trash took is left as it is, and said to be."""
        undone = [item.entry_id for item in result.reverted if item.subject is UndoSubject.RECORDING]
        if not undone:
            return result
        with self.store.write() as session:
            lost = follow_undo(session, self.recordings, undone, self.clock().now)
        items = [
            replace(item, conflict=TRASH_EMPTIED)
            if item.conflict is None and item.item.subject is UndoSubject.RECORDING and item.item.entry_id in lost
            else item
            for item in result.items
        ]
        return replace(result, items=items)

    def follow_the_zone(self) -> ExecutionResult | None:
        """After a move to another time zone, the open habits' dues keep their time of day (one undo batch);
        None when the zone is the last run's (or the database cannot be written: the next start tries again)."""
        zone, before = self.clock().tz, last_zone(self.store.path)
        if before is not None and before.key == zone.key:
            return None
        moved = None
        if before is not None:
            with self.store.read() as session:
                moves = kept_at_their_time(session, before, zone)
            if moves:
                try:
                    habits = f"{len(moves)} habit" + ("s" if len(moves) > 1 else "")
                    moved = self.apply(moves, label=f"{habits} kept at the same time of day in {zone.key}")
                except StoreError as error:
                    log.warning("habits not moved to %s yet: %s", zone.key, error)
                    return None
        try:
            note_zone(self.store.path, zone)
        except OSError as error:  # a folder that cannot be written: the database reads on
            log.warning("cannot keep the time zone beside the database: %s", error)
        return moved

    def recover_interrupted_runs(self) -> list[int]:
        """Revert the runs a dead process left unfinished (see app/changes/runs.py); returns their
        utterances' IDs. Writes only when there is one, so a start usually writes nothing. A database
        that cannot be written (read-only) is still readable: the runs wait for a start that can."""
        with self.store.read() as session:
            if not (waiting := interrupted_runs(session)):
                return []
        try:
            with self.store.write() as session:  # looked for again under the write lock
                return recover_interrupted(session, self.clock().now)
        except StoreError as error:
            log.warning("cannot revert %d interrupted run(s) now: %s", len(waiting), error)
            return []

    def take_in_spooled(self) -> list[int]:
        """File what was said while another program held the database (see app/changes/spool.py) in the inbox;
        returns the utterances' IDs. Waits for no one: a submit that gets the lock files them too."""
        if not self.spool.waiting():
            return []
        try:
            with self.spool.taking() as spooled, self.store.write(wait_ms=0) as session:
                return file_spooled(session, spooled)
        except StoreError as error:  # busy, or read-only: they stay spooled
            log.warning("cannot file the spooled utterances now: %s", error)
            return []

    # -- recordings (app/recordings/) ------------------------------------------------------------

    def prune_recordings(self) -> int:
        """Remove the sounds the retention settings no longer allow, oldest first; returns how many. A database
        that cannot be written now (or a folder that cannot be read) is pruned at the next start or recording."""
        now = self.clock().now
        try:
            with self.store.read() as session:
                if not housekeeping_due(session, self.recordings, self.retention, now):
                    return 0
            with self.store.write() as session:
                return housekeeping(session, self.recordings, self.retention, now)
        except (StoreError, OSError) as error:
            log.warning("cannot prune the recordings now: %s", error)
            return 0

    def recording_sound(self, utterance_id: int) -> bytes:
        """What utterance `utterance_id` sounded like (16 kHz mono int16); NoRecordingError or RecordingGoneError."""
        with self.store.read() as session:
            path = recording_file(session, self.recordings, utterance_id)
        return read_sound(path)

    def write_recording(self, utterance_id: int, path: Path, force: bool = False) -> None:
        """The recording as a WAV file at `path` (a file there is replaced only with `force`)."""
        target = output_target(path, force)
        try:
            write_wav(target, self.recording_sound(utterance_id))
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror}") from None

    def forget_audio(
        self, utterance_id: int | None = None, older_than_days: float | None = None, everything: bool = False
    ) -> Forgetting:
        """Forget kept sounds (one utterance's, those older than some days, or all; the words stay): moved to the
        trash, and one undo brings them back."""
        if (utterance_id is not None) + (older_than_days is not None) + everything != 1:
            raise UsageError("forget the recording of one utterance, those older than some days, or all of them")
        now = self.clock().now
        older_than = None if older_than_days is None else now - timedelta(days=older_than_days)
        with self.store.write() as session:
            if utterance_id is not None:
                recording_file(session, self.recordings, utterance_id)  # says why there is none to forget
            forgetting = forget_sounds(session, kept_recordings(session, utterance_id, older_than), now)
        return to_trash(self.recordings, forgetting)

    def rehear(
        self,
        utterance_id: int,
        engine: str = "",
        on_event: EventCallback = ignore_events,
        options: RunOptions = NO_OPTIONS,
        on_start: Callable[[UtteranceSource], None] = lambda _source: None,
    ) -> PipelineResult:
        """Hear the kept recording again with `engine` ("": the best installed, Whisper when its model is) and retry
        the utterance with what it heard; the words first heard are kept, as with a correction."""
        sound = self.recording_sound(utterance_id)
        with self.store.read() as session:
            waiting_utterance(session, utterance_id)  # refused before a slow engine loads, not after
        if self.ears is None:
            raise UsageError("no speech engine can be loaded here to hear it again")
        heard = self.ears.hear(sound, engine, self.vocabulary())
        if not heard.text:
            raise UsageError(f"{heard.engine} heard no words in the recording of utterance {utterance_id}")
        log.info("utterance %d heard again by %s", utterance_id, heard.engine)
        return self.retry(utterance_id, on_event, options, text=heard.text, on_start=on_start)

    def recorded(self, utterance_ids: Collection[int]) -> set[int]:
        """Those of `utterance_ids` whose recording is kept: the ones that can be played and heard again."""
        with self.store.read() as session:
            return recorded_of(session, utterance_ids)

    def recording_removals(self, utterance_ids: Collection[int]) -> dict[int, RecordingRemoval | None]:
        """Of `utterance_ids`, those recorded: None while the sound is kept, else why it went (the window says why
        there is nothing to play)."""
        with self.store.read() as session:
            return removals_of(session, utterance_ids)

    def rehear_offer(self) -> RehearOffer | None:
        """When an engine better than the live one is installed, the inbox's utterances it could hear again."""
        count = len(self.recorded([u.id for u in self.inbox() if u.id is not None]))
        better = self.ears.better_engine() if count and self.ears is not None else None
        return RehearOffer(count, better) if better else None

    # -- sessions -------------------------------------------------------------------------------

    def end_session(self, reason: SessionEnd = SessionEnd.ASKED) -> TalkSession | None:
        """End the open session (None when there is none) and, when asked for, sum it up now; at quit the
        synthesis waits for the next utterance rather than holding the app open."""
        with self.store.write() as session:
            talk = open_session(session)
            if talk is None:
                return None
            end_session(session, talk, self.clock().now, reason)
            talk_id = talk.id
        if reason is not SessionEnd.QUIT:
            self.sum_up_sessions()
        with self.store.read() as session:
            return session.get(TalkSession, talk_id)

    def sum_up_sessions(self) -> None:
        """Ask the model for the synthesis of each ended session that had a talk with it. A failure is logged
        and kept with the session; it never stops what the user is saying now."""
        if not isinstance(self.interpreter, Agent):
            return
        with self.store.read() as session:
            pending = [(talk.id, transcript(session, talk)) for talk in unsummed_sessions(session)]
        for talk_id, talk_transcript in pending:
            server_failed = False
            try:
                synthesis, error = self.interpreter.synthesize(talk_transcript, self.store, self.clock()), None
            except MurmurError as failure:
                synthesis, error = None, str(failure)
                server_failed = isinstance(failure, LlmError)
                log.warning("session %s was not summed up: %s", talk_id, failure)
            with self.store.write() as session:
                talk = session.get(TalkSession, talk_id)
                if talk is not None:
                    talk.synthesis, talk.synthesis_error = synthesis, error
                    session.add(talk)
            if server_failed:
                break  # the others would wait on the same server in vain; they are summed up another time

    def sessions(self, limit: int = 20) -> list[TalkSession]:
        """The latest sessions, newest first."""
        with self.store.read() as session:
            return latest_sessions(session, limit)

    def recall(self, words: str, since: str | None = None, until: str | None = None) -> list[RecallHit]:
        """What the user said before (and what was answered and done) matching `words`, newest first;
        `since` and `until` in natural language ("last week", "yesterday")."""
        clock = self.clock()
        bounds = [None if p is None else read_time(p, clock, name) for p, name in ((since, "since"), (until, "until"))]
        with self.store.read() as session:
            return recall(session, RecallQuery(words, since=bounds[0], until=bounds[1]))

    def history(self, limit: int = 20) -> list[HistoryBatch]:
        with self.store.read() as session:
            return history(session, limit)

    def entries(
        self, statuses: Sequence[Status], category: Category | None = None, search: str | None = None
    ) -> list[Entry]:
        """Entries with their status now (a snooze that has ended reads active); writes nothing."""
        with self.store.read() as session:
            return list_entries(session, self.clock().now, statuses, category=category, search=search)

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

    @staticmethod
    def short_ids_after(shown: dict[str, str], entry_ids: Iterable[str]) -> dict[str, str]:
        """What `short_ids()` would say of `entry_ids`, from those `shown` before some entries came or went;
        reads nothing."""
        return short_ids_after(shown, entry_ids)

    # -- the user's data, in and out -----------------------------------------------------------

    def export(
        self,
        fmt: Format,
        statuses: Sequence[Status] = tuple(Status),
        categories: Sequence[Category] = (),
        with_said: bool = False,
    ) -> str:
        """The entries with these statuses (as stored) and categories (any, when none is named) in `fmt`;
        `with_said`: an iCalendar file carries the words said too (a JSON backup always does)."""
        return self._exported(fmt, statuses, categories, with_said)[0]

    def _exported(
        self, fmt: Format, statuses: Sequence[Status], categories: Sequence[Category], with_said: bool
    ) -> tuple[str, StoredRows]:
        """The export's text, and the rows it carries as stored (none but in JSON)."""
        clock = self.clock()
        with self.store.read() as session:
            entries = [
                entry
                for entry in entries_by_age(session)
                if entry.status in statuses and (not categories or entry.category in categories)
            ]
            everything = set(statuses) == set(Status) and not categories
            ids = {entry.id for entry in entries}
            # JSON is Murmur's own backup, rows as stored; the files for other apps carry no secret put back.
            stored = _stored_rows(session, ids, everything) if fmt is Format.JSON else _NO_ROWS
            entries = entries if fmt is Format.JSON else shareable(session, entries)
        from app.portable.files import write_entries  # the formats' libraries load for export and import only

        return write_entries(fmt, entries, stored, clock.tz, clock.now, with_said), stored

    def export_file(
        self,
        path: Path,
        fmt: Format,
        statuses: Sequence[Status] = tuple(Status),
        categories: Sequence[Category] = (),
        force: bool = False,
        with_said: bool = False,
        with_audio: bool = False,
    ) -> RecordingCopies | None:
        """`export()` written to `path` whole or not at all, readable by the user alone (it is all they said);
        a file there is replaced only with `force`, a link is written through. `with_audio` (JSON, the format that
        carries what was said): the recordings of its utterances too, in a folder beside it."""
        if with_audio and fmt is not Format.JSON:
            raise UsageError("only a JSON export carries what was said: add --format json to export the recordings")
        target = output_target(path, force)
        written, stored = self._exported(fmt, statuses, categories, with_said)
        try:
            write_private_text(target, written)
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror}") from None
        if not with_audio:
            return None
        return self.copy_recordings(target, {int(str(row["id"])) for row in stored.utterances})

    def import_file(
        self, path: Path, fmt: Format | None = None, dry_run: bool = False, confirmed: bool = False
    ) -> ImportOutcome:
        """Add what the file at `path` holds as one undoable batch, skipping what is already here; with
        `dry_run`, say what would be added and change nothing. More new entries than MASS_CHANGE_CAP wait for the
        user's yes (`confirmed`): ImportWaitsForYes, and nothing is added."""
        from app.portable.files import read_entries, read_text  # as in export()

        clock = self.clock()
        read = read_entries(format_of(path, fmt), read_text(path), clock.tz, clock.now)
        if dry_run:
            with self.store.read() as session:
                return preview_import(session, read, clock.now)
        most = None if confirmed else MASS_CHANGE_CAP
        outcome = import_in_chunks(self.store, read, clock.now, f"imported {path.name}", most)
        if outcome.held:
            raise import_waits_for_yes(path, fmt, outcome.added)
        return outcome

    # -- backups (app/store/backups.py) --------------------------------------------------------

    def back_up(self, target: Path | None = None, force: bool = False) -> Backup:
        """A backup by hand: to `target` (replacing a file there only with `force`), or into the backups folder,
        where it is kept until removed by hand."""
        return back_up(self.store.path, BackupKind.MANUAL, self.clock().now, target, force)

    def copy_recordings(self, beside: Path, utterance_ids: Collection[int] | None = None) -> RecordingCopies:
        """The kept recordings (of `utterance_ids`, or all) copied into a folder beside a backup or an export; they
        are left out of both unless asked for."""
        with self.store.read() as session:
            try:
                return copy_kept(session, self.recordings, copies_folder(beside), utterance_ids)
            except OSError as error:
                raise UsageError(f"cannot copy the recordings beside {beside}: {error.strerror}") from None

    def backups(self) -> list[Backup]:
        return list_backups(self.store.path)

    def take_daily_backup(self) -> Backup | None:
        """Today's automatic backup, when there is none yet (7 daily and 4 weekly are kept)."""
        clock = self.clock()
        return take_daily_if_due(self.store.path, clock.now, clock.tz)

    # -- sync ----------------------------------------------------------------------------------

    def sync(self, wait_seconds: float = SYNC_WAIT_SECONDS, *, confirmed: bool = False) -> SyncReport:
        """Pull what changed on the sync server and merge it in (one undo batch), then send what changed here;
        more entries deleted on the server at once than the cap are archived here only when `confirmed`.
        One sync of a database at a time: waits up to `wait_seconds` for one under way, else SyncBusy. Any
        other failure is noted with its time for the tray and `murmur sync status`, then raised."""
        if self.sync_source is None:
            raise UsageError(NOT_SET_UP, SET_UP)
        clock = self.clock()
        with one_sync_at_a_time(self.store.path, wait_seconds):
            try:
                with self.sync_source(known=self._known_list()) as tasks:
                    return Sync(self.store, tasks, clock.tz, clock.now, confirmed=confirmed).run()
            except MurmurError as error:  # the server, the network, the password: the user's to mend
                note_outcome(self.store, str(error), clock.now, remedy=error.remedy or CHECK_ACCOUNT)
                raise
            except Exception as error:
                note_outcome(self.store, f"internal error ({type(error).__name__}); details in the log", clock.now)
                raise

    def _known_list(self) -> KnownList | None:
        with self.store.read() as session:
            state = session.get(SyncState, 1)
            return KnownList(state.calendar_url, state.calendar_name) if state and state.calendar_url else None

    def sync_status(self) -> SyncStatus:
        with self.store.read() as session:
            return sync_status(session)

    def short_ids(self) -> dict[str, str]:
        """Every entry's shortest unique ID prefix (what lists show and commands take)."""
        with self.store.read() as session:
            return short_ids(session)

    def changed_since_last_look(self) -> bool:
        """Whether the database changed since the last look (by `murmur add` in a terminal, a shortcut, sync,
        or this service): microseconds, never reads the data, so the window can ask twice a second."""
        return self.store.changed()

    def close(self) -> None:
        """Let go of the interpreter's connections and the database (the service is not used after)."""
        if isinstance(self.interpreter, Agent):
            self.interpreter.close()
        self.store.close()

    def vocabulary(self, limit: int = 60) -> Hints:
        """What the user is likely to say: the terms of their vocabulary (replacements' too), then the summaries
        of their open entries, most recent first.

        Speech engines bias their final text toward them (Whisper's prompt, the bundled engine's domain model).
        """
        with self.store.read() as session:
            terms = tuple(dict.fromkeys(row.term for row in kept_words(session)))
            return Hints(terms, tuple(recent_summaries(session, limit)))

    # -- the user's words ----------------------------------------------------------------------------

    def words(self) -> list[Word]:
        """The user's vocabulary: terms and replacements, in the order they were given."""
        with self.store.read() as session:
            return [as_word(row) for row in kept_words(session)]

    def keep_words(self, words: Sequence[Word]) -> VocabularyChanges:
        """Add terms or replacements (one already kept is written the new way); one undo takes them back."""
        with self.store.write() as session:
            return keep_words(session, words, self.clock().now)

    def remove_word(self, text: str) -> VocabularyChanges:
        """Take a term, or the replacement of the heard words `text`, out of the vocabulary; undoable."""
        with self.store.write() as session:
            return remove_word(session, text, self.clock().now)

    def import_words(self, path: Path) -> VocabularyChanges:
        """Keep the words of a vocabulary text file (see app/vocabulary/text_file.py); nothing if one line is bad."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read {path}: {error}") from None
        return self.keep_words(read_words(text))

    def words_text(self) -> str:
        """The vocabulary as its text file."""
        return words_text(self.words())

    def export_words(self, path: Path, force: bool = False) -> None:
        """The vocabulary's text file written to `path` whole or not at all, owner-only; a file there is replaced
        only with `force`."""
        target = output_target(path, force)
        try:
            write_private_text(target, self.words_text())
        except OSError as error:
            raise UsageError(f"cannot write {path}: {error.strerror}") from None

    # -- what the model cost and was sent ----------------------------------------------------------

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

    # -- memories -------------------------------------------------------------------------------

    def memories(self) -> list[tuple[str, Memory]]:
        """The user's memories not forgotten, with their short IDs, most recently used first."""
        with self.store.read() as session:
            shorts = short_memory_ids(session)
            return [(shorts[m.id], m) for m in active_memories(session)]

    def remember(self, text: str) -> MemoryChange:
        """Keep a fact the user gives by hand (the same one already kept is confirmed); undoable."""
        with self.store.write() as session:
            return remember(session, text, MemorySource.USER, self.clock().now)

    def forget_memory(self, id_prefix: str) -> MemoryChange:
        with self.store.write() as session:
            return forget(session, id_prefix, self.clock().now)

    def edit_memory(self, id_prefix: str, text: str) -> MemoryChange:
        with self.store.write() as session:
            return edit_memory(session, id_prefix, text, self.clock().now)


def restore_database(db_path: Path, backup: Path, now: datetime) -> Backup | None:
    """Put a backup (a file, or a name from the backups folder) in place of the database at `db_path`; returns
    the backup of the database as it was. A function, not a method: it never opens the live database, since one
    that no longer opens is what a restore is there to mend."""
    return restore_backup(db_path, find_backup(db_path, backup), now)


def read_time(phrase: str, clock: Clock, name: str) -> datetime:
    """The moment a time phrase given by hand means; a UsageError naming the option when it is unreadable."""
    moment = resolve_due(phrase, clock)
    if moment is None:
        raise UsageError(f"{name} {phrase!r} is not a time Murmur can read; try 'yesterday', 'last week' or a date")
    return moment


_NO_ROWS = StoredRows(entries=[], utterances=[], memories=[], schema=0)


def _stored_rows(session: Session, entry_ids: set[str], everything: bool) -> StoredRows:
    """The rows Murmur's own export carries: the chosen entries, what was said (all of it, or what the chosen
    entries came from), and the memories."""
    entries = [row for row in stored_rows(session, "entries") if row["id"] in entry_ids]
    said = {row["utterance_id"] for row in entries}
    utterances = [row for row in stored_rows(session, "utterances") if everything or row["id"] in said]
    return StoredRows(entries, utterances, stored_rows(session, "memories"), schema_of(session))


def _touched_last(session: Session, now: datetime, gap: timedelta) -> list[str]:
    """What "that", "it" and "actually ..." would refer to in words said now: what the open session's latest
    utterance made or changed; nothing once the session has been silent past `gap` (the words would begin anew)."""
    talk = open_session(session)
    if talk is None or now - talk.last_at > gap:
        return []
    latest = session.exec(
        select(Utterance.id).where(Utterance.session_id == talk.id).order_by(col(Utterance.id).desc())
    ).first()
    return [] if latest is None else touched_by(session, latest)


def _read_action(action: Action, known: Mapping[str, Entry], clock: Clock) -> ReadAction:
    """`action` with the name of its entry and the moment it would put the entry at, read as the executor reads it."""
    if isinstance(action, CreateAction):
        return ReadAction(action, action.summary, resolve_due(action.due_text, clock) if action.due_text else None)
    entry = known.get(action.entry_id)
    name = entry.summary if entry is not None else action.entry_id
    if isinstance(action, SnoozeAction):
        return ReadAction(action, name, resolve_due(action.until_text, clock))
    due = action.changes.get("due_date") if isinstance(action, UpdateAction) else None
    return ReadAction(action, name, moved_due(entry.due_at if entry else None, due, clock) if due else None)


def _put_replacements(session: Session, utterance: Utterance) -> None:
    """The vocabulary's replacements put into a dictated utterance; the words first heard are kept with it."""
    text = replaced(utterance.text, [as_word(row) for row in kept_words(session)])
    if text != utterance.text:
        utterance.heard_text, utterance.text = utterance.text, text


def _start_attempt(session: Session, utterance: Utterance, now: datetime) -> None:
    """Take `utterance`'s lease and count a run of it, in the write that saves it; housekeeping rides
    along: runs a dead process left unfinished are reverted, snoozes that have ended are persisted."""
    recover_interrupted(session, now)
    take_lease(utterance)
    utterance.attempts += 1
    session.add(utterance)
    session.flush()
    wake_snoozed(session, now)
