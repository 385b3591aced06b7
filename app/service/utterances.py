"""What was said: saved, read and applied (the run drives this, app/run/); the inbox; the reading before Enter."""

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.bounds.checks import utterance_text
from app.changes.choices import ChosenReading
from app.changes.executor import ActionFailure, AppliedAction
from app.changes.faint import heard_faintly, mark_faint
from app.changes.held import HeldRequest, too_many
from app.changes.inbox import Dismissal, correct, dismiss, waiting_utterance
from app.changes.interpretation import Agent, AgentOutcome, InterpretContext, Interpreter, RunOptions, Usage
from app.changes.judgement import fault_in
from app.changes.memories import MemoryChange
from app.changes.offers import offered_labels
from app.changes.runs import interrupted_runs, recover_interrupted, take_lease
from app.changes.spool import file_spooled
from app.changes.workspace import RECENTLY_DONE, Workspace
from app.domain.actions import Action, CreateAction, SnoozeAction, UpdateAction
from app.domain.clock import Clock
from app.domain.dates import moved_due, resolve_due
from app.domain.enums import SessionEnd, Status, UtteranceSource
from app.domain.events import (
    AppliedEvent,
    EventCallback,
    FallingBack,
    Stage,
    StageTimer,
    SummingUp,
    ThinkingEvent,
    TranscriptEvent,
    ignore_events,
    untimed,
)
from app.errors import (
    ConfirmationNeeded,
    DatabaseBusyError,
    LlmError,
    ModelFault,
    MurmurError,
    Remedy,
    StoreError,
    UsageError,
    UtteranceKeptError,
    waits_for_yes,
    yes_to,
)
from app.memory.sessions import (
    end_for_silence,
    end_session,
    gone_quiet,
    join_session,
    open_session,
    transcript,
    unsummed_sessions,
)
from app.presentation.heard import heard_faintly as faint_question
from app.presentation.reading import ReadAction, ReadingPreview
from app.presentation.run_report import touched_entries, was_answer
from app.presentation.summaries import summarize
from app.service.recordings import RecordingArea
from app.service.vocabulary import VocabularyArea
from app.store.models import Entry, TalkSession, Utterance
from app.store.queries import completed_since, list_entries, touched_by, waiting_utterances, wake_snoozed
from app.vocabulary.changes import as_word, kept_words
from app.vocabulary.replacing import replaced

log = logging.getLogger("murmur.service")

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


class UtteranceArea(RecordingArea, VocabularyArea):
    """Utterances in, actions applied: submit, retry, rehear, preview, the inbox, sessions summed up."""

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
        kept with the utterance before it is read, as retention allows. Words heard faintly (`options.faint`) wait
        there for the user's yes: ConfirmationNeeded, nothing read.
        """
        text = utterance_text(text)
        # The model's deadline covers the summing up of ended sessions too: the user waits for both.
        options = replace(options, clock_started=options.clock_started or time.monotonic())
        utterance_id, text, new_session = self._save(text, source, options.faint and not options.confirmed)
        if audio:
            self._keep_recording(utterance_id, audio)
        if new_session:  # the sessions ended before this one, summed up for the model before its first request
            self.sum_up_sessions(on_event, options.timed)
        return self._process(on_event, utterance_id, text, source, options)

    def _save(self, text: str, source: UtteranceSource, faint: bool = False) -> tuple[int, str, bool]:
        """Commit what was said before it is interpreted, after what was spooled before it (`faint`: marked as heard
        faintly); returns its ID, its text as saved (a dictation with the vocabulary's replacements) and whether it
        opened a new session."""
        now = self.clock().now
        try:
            with self.spool.taking() as spooled, self.store.write() as session:
                file_spooled(session, spooled)
                utterance = Utterance(text=text, source=source, created_at=now)
                if faint:
                    mark_faint(utterance)
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
        once it is handed over (a run again begins then: one refused has not begun). Words heard faintly ask for
        the user's yes again, unless it is given (`options.confirmed`) or they are put right."""
        with self.store.write() as session:
            utterance = waiting_utterance(session, utterance_id)
            held: HeldRequest | ChosenReading | None = HeldRequest.of(utterance, options.confirmed)
            if options.choice is not None:
                held = ChosenReading.of(utterance, options.choice)
            if held is not None and text is not None:
                raise UsageError("another assistant's request is not words to put right: confirm it or dismiss it")
            faint = text is None and heard_faintly(utterance)
            if text is not None:
                correct(utterance, utterance_text(text))
            _start_attempt(session, utterance, self.clock().now)  # refused while another run holds it
            text, source = utterance.text, utterance.source
        on_start(source)
        options = replace(options, faint=options.faint or faint)
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
            reason, remedy = self._count_against_model(error, options), error.remedy
            if self.fallback is None:
                if reason == str(error):
                    raise
                raise LlmError(reason, remedy) from error
        else:
            if isinstance(self.interpreter, Agent):
                with options.timed(Stage.JUDGE):
                    self.interpreter.judged(self.store, None)
            return result
        log.info("utterance %d: the model failed (%s); the offline rules file it", utterance_id, reason)
        with options.timed(Stage.FALLBACK):
            on_event(FallingBack(reason))
            with self.store.write() as session:
                utterance = session.get(Utterance, utterance_id)
                assert utterance is not None
                _start_attempt(session, utterance, self.clock().now)
            result = self._interpret(self.fallback, utterance_id, text, on_event, options)
        return replace(result, fallback_reason=reason, fallback_remedy=remedy)

    def _count_against_model(self, error: LlmError, options: RunOptions) -> str:
        """Why the model failed, with a word when this failure set it aside (a server that could not be reached
        is not the model's failure, and does not count)."""
        if not isinstance(error, ModelFault) or not isinstance(self.interpreter, Agent):
            return str(error)
        with options.timed(Stage.JUDGE):
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
            if options.faint and not options.confirmed:  # it may be noise Whisper made words of: asked, never guessed
                raise ConfirmationNeeded(faint_question(text), yes_to(utterance_id))
            if isinstance(interpreter, Agent):  # it reports its own turns
                outcome = interpreter.run(text, workspace, on_event, options)
                with options.timed(Stage.JUDGE):
                    fault = fault_in(text, outcome, workspace, self.rules) if self.rules is not None else None
                if fault is not None:
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

    def rehear_offer(self) -> RehearOffer | None:
        """When an engine better than the live one is installed, the inbox's utterances it could hear again."""
        count = len(self.recorded([u.id for u in self.inbox() if u.id is not None]))
        better = self.ears.better_engine() if count and self.ears is not None else None
        return RehearOffer(count, better) if better else None

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

    def end_quiet_session(self) -> bool:
        """End the open session once it has been silent past the gap, as the next words would, and sum it up now:
        a front end that stays open calls this between runs, so that the next words need not wait for the model's
        summing up. True when a session ended."""
        now = self.clock().now
        with self.store.read() as session:  # a look each minute takes no write lock while the talk goes on
            if not gone_quiet(open_session(session), now, self.session_gap):
                return False
        with self.store.write() as session:
            talk = open_session(session)  # looked at again under the write lock
            if not gone_quiet(talk, now, self.session_gap):
                return False
            end_for_silence(session, talk)
        self.sum_up_sessions()
        return True

    def sum_up_sessions(self, on_event: EventCallback = ignore_events, timed: StageTimer = untimed) -> None:
        """Ask the model for the synthesis of each ended session that had a talk with it. A failure is logged
        and kept with the session; it never stops what the user is saying now."""
        if not isinstance(self.interpreter, Agent):
            return
        with self.store.read() as session:
            pending = [(talk.id, transcript(session, talk)) for talk in unsummed_sessions(session)]
        if pending:
            with timed(Stage.SUM_UP):
                on_event(SummingUp(len(pending)))
                self._sum_up(self.interpreter, pending)

    def _sum_up(self, agent: Agent, pending: list[tuple[int | None, str]]) -> None:
        for talk_id, talk_transcript in pending:
            server_failed = False
            try:
                synthesis, error = agent.synthesize(talk_transcript, self.store, self.clock()), None
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


def _touched_last(session: Session, now: datetime, gap: timedelta) -> list[str]:
    """What "that", "it" and "actually ..." would refer to in words said now: what the open session's latest
    utterance made or changed; nothing once the session has been silent past `gap` (the words would begin anew)."""
    talk = open_session(session)
    if talk is None or gone_quiet(talk, now, gap):
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
