"""The desktop's runs, from the talk key to the spoken reply: one object owns each run across the threads it passes
(the microphone's, the worker's, the voice's) and hands it on; the window wiring only shows what runs report.

A run begins at the key press (VoiceInput makes it), goes on when the recording has its words (`heard`), is
driven on the worker from reading them to its reply (app/run/conductor.py), and ends by being said: a spoken
question opens the microphone for the answer. Typed words and the inbox's buttons start runs here too.
"""

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from app.api.listening import Notes, cue_notes
from app.api.runs import Again, Run, RunOptions, keeper, reply_mode_for
from app.api.service import MurmurService
from app.api.settings import Settings
from app.domain.enums import UtteranceSource
from app.ui import jobs
from app.ui.bridge import PipelineBridge
from app.ui.microphone import DictationFactory, VoiceInput
from app.ui.reply_voice import ReplyVoice
from app.ui.worker import PipelineWorker


class RunConductor(QObject):
    changed = Signal()  # what the app's state shows may have changed (recording, thinking, speaking)

    def __init__(
        self,
        service: MurmurService,
        settings: Callable[[], Settings],
        bridge: PipelineBridge,
        worker: PipelineWorker[jobs.JobResult],
        make_dictation: DictationFactory,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service, self._settings, self._bridge, self._worker = service, settings, bridge, worker
        self.voice = VoiceInput(
            lambda: settings().speech, bridge, make_dictation, self, vocabulary=service.vocabulary, keep=keeper(service)
        )
        self.reply_voice = ReplyVoice(lambda: settings().speech, bridge.post_event, self)
        self.runs = 0  # runs queued or running on the worker
        self.hearing_again: set[int] = set()  # of those, the utterances heard again from their recordings first
        self.paused = False  # the tray's pause: no recording starts, nothing is said
        self.quitting = False
        self.voice.heard.connect(self._go_on)

    # -- the talk key ----------------------------------------------------------------------------

    def start_recording(self) -> None:
        """The user talks: Murmur stops speaking at once (its voice is not kept from before the press), and a
        hands-free recording listening for their answer becomes theirs."""
        if self.quitting:
            return
        was_speaking = self.reply_voice.stop()
        if self.voice.is_listening_for_answer():
            self.voice.hold_answer()
            self.changed.emit()
            return
        self.voice.start(preroll=not was_speaking, cue=self._cue(cue_notes.START))

    def stop_recording(self) -> None:
        self.voice.stop()

    def toggle_recording(self) -> None:
        self.stop_recording() if self.voice.is_recording() else self.start_recording()

    def cancel(self) -> None:
        """Silence Murmur and drop the recording under way (the user asked for exactly that)."""
        self.reply_voice.stop()
        self.voice.cancel()

    def _cue(self, notes: Notes) -> Notes | None:
        """The cue to play as a recording starts, when the user wants sound cues."""
        return notes if self._settings().ui.audio_cues else None

    # -- runs ------------------------------------------------------------------------------------

    def submit(self, text: str, source: UtteranceSource) -> None:
        """Typed words: a run of their own, after those before it, never alongside."""
        self._go_on(Run(source, self._bridge.post_event, text=text))

    def retry(self, utterance_id: int, confirmed: bool = False, text: str = "") -> None:
        """Run a waiting utterance again; `text`: the user's correction of its words, run instead."""
        again, options = Again(utterance_id, text or None), RunOptions(confirmed=confirmed)
        self._go_on(Run(UtteranceSource.TYPED, self._bridge.post_event, again=again, options=options))

    def choose(self, utterance_id: int, choice: int) -> None:
        """Apply the reading the user picked (from 1) of those offered back for a waiting utterance: a run of its
        own, undoable, after which it leaves the inbox."""
        again, options = Again(utterance_id), RunOptions(choice=choice)
        self._go_on(Run(UtteranceSource.TYPED, self._bridge.post_event, again=again, options=options))

    def hear_again(self, utterance_id: int) -> None:
        """Hear a waiting utterance's recording again with the best engine installed and run what it hears (the
        words first heard are kept); the toast offers Undo, as for any retry. Once queued, asking again does nothing."""
        if utterance_id in self.hearing_again:
            return
        self.hearing_again.add(utterance_id)
        self._go_on(Run(UtteranceSource.TYPED, self._bridge.post_event, again=Again(utterance_id, rehear=True)))

    def hear_all_again(self, utterance_ids: list[int]) -> None:
        """The Inbox's offer: each utterance heard again in turn, each its own undoable retry."""
        for utterance_id in utterance_ids:
            self.hear_again(utterance_id)

    def _go_on(self, run: Run) -> None:
        """Queue `run` for the worker, from reading its words to its reply (said aloud as settings ask); the
        microphone's runs come here with their words."""
        if run.again is None:  # a run again is answered on screen, as the inbox's other buttons are
            run.reply_mode = reply_mode_for(run.source, self._settings().speech.reply)
        self.runs += 1
        self.changed.emit()
        self._worker.put(jobs.UtteranceJob(self._service, run))

    def finished(self, job: jobs.UtteranceJob) -> None:
        """The worker is done with one of the runs queued here."""
        self.runs -= 1
        self.hearing_again.discard(job.heard_again() or 0)

    # -- the reply -------------------------------------------------------------------------------

    def say(self, report: jobs.BatchReport) -> None:
        """Say a run's reply, when it has one and the user is not talking; an answer window open (Murmur's
        earlier question) closes first, or it would hear Murmur."""
        if report.spoken is None or self.quitting or self.voice.is_held():
            return
        if self.voice.is_listening_for_answer():
            self.voice.cancel()
        self.reply_voice.say(report.spoken, report.run)

    def reply_said(self, listen: bool) -> None:
        """A spoken question was heard to its end: the microphone opens for the answer, with a cue of its own
        (what is heard before the cue's end is not kept: it would be taken for the start of the answer)."""
        if listen and not self.quitting and not self.paused and not self.voice.is_recording():
            speech = self._settings().speech
            self.voice.listen_for_answer(speech.followup_seconds, self._cue(cue_notes.ANSWER))
        self.changed.emit()

    def pause(self, paused: bool) -> None:
        """Murmur stops speaking and the armed microphone (and an answer window) is closed, until resumed."""
        self.paused = paused
        if paused:
            self.reply_voice.stop()
            if self.voice.is_listening_for_answer():
                self.voice.cancel()
            self.voice.disarm()
