"""The desktop app put together: service + worker + bridge + window + tray + hotkey + voice in and out.

`Murmur` owns the parts and routes between them; the widgets only show and ask. `run()` is what
`murmur` with no arguments starts.
"""

import logging
import os
import sys
import threading
from collections.abc import Callable, Collection
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from app.api.data import Backup
from app.api.desktop import set_autostart
from app.api.edits import ExecutionResult
from app.api.listening import better_accuracy_hint, cue_notes, engine_threads
from app.api.memories import MemoryChange
from app.api.reads import RecallHit
from app.api.running_app import SUPPORTED as COMMAND_SOCKET_SUPPORTED
from app.api.running_app import AppCommand, send_command
from app.api.runs import ReplyMode
from app.api.runs import warm as warm_words
from app.api.service import MurmurService, build_service, model_test, pipeline_settings, sync_source_for
from app.api.settings import (
    Settings,
    SettingsFileError,
    read_settings,
    save_settings,
    secure_files_at_start,
    setup_logging,
)
from app.api.speaking import preload_voice
from app.domain.enums import Format, SessionEnd, UtteranceSource
from app.domain.events import (
    ErrorCode,
    ErrorEvent,
    PartialTranscript,
    PipelineEvent,
    ReplyFinished,
    ReplyInterrupted,
    ReplyStarted,
    Stage,
)
from app.errors import MurmurError
from app.presentation.edits import sentence
from app.presentation.problems import Problems, Trouble
from app.presentation.reading import ReadingPreview, reading_lines
from app.ui import jobs, sound_cues
from app.ui.background import join_all, run_in_thread
from app.ui.bridge import PipelineBridge
from app.ui.collector import GuiThreadCollector
from app.ui.conductor import RunConductor
from app.ui.entry_model import EntryListModel
from app.ui.hotkey import GlobalHotkey
from app.ui.icons import AppState, app_icon
from app.ui.import_question import ask_to_import
from app.ui.inbox_sounds import sound_choice
from app.ui.key_names import native_text
from app.ui.microphone import DictationFactory, real_dictation
from app.ui.notifications import DesktopNotifications
from app.ui.quit_signals import QuitOnSignals
from app.ui.quit_watchdog import QuitWatchdog
from app.ui.recording_player import RecordingPlayer
from app.ui.reminders import ReminderScheduler
from app.ui.runs_view import RunsDialog
from app.ui.setup_notes import SetupCheck, bundled_line
from app.ui.single_instance import InstanceServer
from app.ui.sync_timer import SyncTimer
from app.ui.talk import TalkMode, TalkSwitch
from app.ui.theme import apply_theme
from app.ui.toast import Toast, ToastContent, content_of
from app.ui.tray import Tray
from app.ui.window import DUE_NOW, MainWindow
from app.ui.worker import Call, Failed, Finished, JobOutcome, PipelineWorker

if TYPE_CHECKING:
    from app.ui.model_offer_dialog import ModelOfferPrompt

log = logging.getLogger("murmur.ui")

QUIT_WAIT_SECONDS = 30.0  # at quit, for the queued runs: each saves what was said before it asks a model
TRANSCRIPT_WAIT_SECONDS = 10.0  # at quit, for the text of recordings just stopped
SYNC_WAIT_SECONDS = 2.0  # at quit, for a sync under way: what it has not sent stays queued for the next start
DEVICE_STOP_SECONDS = 2.0  # at quit, for the hotkey, the microphone and the speaker to let go
ENGINE_WAIT_SECONDS = 5.0  # at quit, for a speech model loading or a final pass dropped as too slow
REFRESH_MS = 60_000  # "tomorrow 17:00" and overdue colours follow the clock
SNOOZES = {"snooze": "in 10 minutes", "tomorrow": "tomorrow"}  # a reminder's buttons, as snooze words
BACKUP_CHECK_MS = 3_600_000  # the app runs for days: each hour it looks whether today's backup is taken
WATCH_MS = 500  # how often to look for commits by other processes: they show within a second


class Murmur(QObject):
    state_changed = Signal(str)  # an AppState value
    entries_shown = Signal()  # the list shows the latest entries

    def __init__(
        self,
        service: MurmurService,
        settings: Settings,
        make_dictation: DictationFactory = real_dictation,
        use_tray: bool | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.service, self.settings = service, settings
        self._show_theme()  # before the widgets are made: they are polished once, in the right colours
        self.bridge = PipelineBridge(self)
        self.worker: PipelineWorker[jobs.JobResult] = PipelineWorker(self.bridge.post_outcome)
        self.conductor = RunConductor(service, lambda: self.settings, self.bridge, self.worker, make_dictation, self)
        self.voice, self.reply_voice = self.conductor.voice, self.conductor.reply_voice
        self.player = RecordingPlayer(service, lambda: self.settings.speech.output_device, self)
        self.model = EntryListModel(self)
        self.window = MainWindow(self.model)
        self.toast = Toast(settings.ui.toast_seconds, room=self.window.toast_room)
        self.runs: RunsDialog | None = None  # Murmur → Recent runs, made when first opened
        self.hotkey = GlobalHotkey(settings.ui.hotkey, self)
        self.reminders = ReminderScheduler(parent=self)
        self.notifications = DesktopNotifications(self)
        has_tray = QSystemTrayIcon.isSystemTrayAvailable() if use_tray is None else use_tray
        self.tray = Tray(self) if has_tray else None
        self.window.hide_on_close = self.tray is not None
        # A hands-free recording (listening for an answer) is not the user's: a press takes it over.
        self.hotkey_switch = TalkSwitch(
            TalkMode.from_setting(settings.ui.hotkey_mode),
            self.voice.is_held,
            self.conductor.start_recording,
            self.conductor.stop_recording,
        )
        conductor = self.conductor
        self.mic_switch = TalkSwitch(
            TalkMode.CLICK_OR_HOLD, self.voice.is_held, conductor.start_recording, conductor.stop_recording
        )
        self._handled = 0  # the worker's outcomes handled here: fewer than it was given means one is unfinished
        self._arm_microphone = False  # keep it open between recordings (see start)
        self._quitting = False
        # Set where the app is the process (run()): a step of the quit that hangs past its time ends the process.
        self.watchdog: QuitWatchdog | None = None
        self._error = ""
        self._hotkey_problem: str | None = None
        self._bound_key = ""  # the talk key as the desktop's shortcut portal says it bound it (the user may change it)
        self._setup_lines: list[str] = []  # what the setup check found missing; the hotkey's problem goes above
        # The entry to select once the list shows the change just made: the first of these it lists (what a run made
        # first; what an undo brought back, else the entries beside what it removed).
        self._to_select: tuple[str, ...] = ()
        self._shown = jobs.ShownEntries()
        self._refresh_timer = QTimer(self, interval=REFRESH_MS)
        self._refresh_timer.timeout.connect(partial(self._reload, None, jobs.MinuteJob))
        self._watch_timer = QTimer(self, interval=WATCH_MS)
        self._watch_timer.timeout.connect(self._on_watch_timer_timeout)
        self._backup_timer = QTimer(self, interval=BACKUP_CHECK_MS)
        self._backup_timer.timeout.connect(self.take_daily_backup)
        self.sync = SyncTimer(service, lambda: self.settings.sync.interval_minutes, self)
        self.sync.brought_changes.connect(self.refresh)
        self.sync.synced.connect(self._show_sync_problem)
        self.problems = Problems()
        if self.tray:
            self.sync.synced.connect(self.tray.show_sync)
        self._connect()
        self.bridge.attach()

    def _connect(self) -> None:
        bridge, window, voice, conductor = self.bridge, self.window, self.voice, self.conductor
        conductor.changed.connect(self._update_state)
        bridge.progressed.connect(self._on_event)
        bridge.job_finished.connect(self._on_job_finished)
        bridge.level_measured.connect(window.activity.show_level)
        voice.started.connect(self._on_recording_started)
        voice.stopped.connect(self._on_recording_stopped)
        voice.cancelled.connect(self._on_recording_stopped)
        voice.too_short.connect(window.activity.show_outcome)  # calm words, not an error
        voice.answer_window_closed.connect(self._update_state)
        window.typed.connect(self._on_typed)
        window.recall_requested.connect(self._on_recall_requested)
        window.reading_requested.connect(self._on_reading_requested)
        window.mic_pressed.connect(self.mic_switch.press)
        window.mic_released.connect(self.mic_switch.release)
        window.undo_last_requested.connect(self.undo_last)
        window.export_requested.connect(self.export_to)
        window.import_requested.connect(self.import_from)
        window.settings_requested.connect(self.open_settings)
        window.runs_requested.connect(self.open_runs)
        window.problems_bar.settings_requested.connect(self.open_settings)
        window.problems_bar.retry_requested.connect(self._retry_problem)
        window.problems_bar.dismiss_requested.connect(self._dismiss_problem)
        window.quit_action.triggered.connect(self.quit)
        window.inbox.retry_requested.connect(conductor.retry)
        window.inbox.edit_requested.connect(lambda utterance_id, words: conductor.retry(utterance_id, text=words))
        window.inbox.dismiss_requested.connect(self.dismiss)
        window.inbox.choice_requested.connect(conductor.choose)
        window.inbox.recording.play_requested.connect(self.player.toggle)
        window.inbox.recording.hear_again_requested.connect(conductor.hear_again)
        window.inbox.hear_all_requested.connect(conductor.hear_all_again)
        window.details.read_sounds_with(
            lambda utterance_id: sound_choice(self.service, utterance_id, utterance_id in window.inbox.listed_ids())
        )
        window.details.recording.play_requested.connect(self.player.toggle)
        window.details.recording.hear_again_requested.connect(conductor.hear_again)
        self.player.playing_changed.connect(window.inbox.recording.show_playing)
        self.player.playing_changed.connect(window.details.recording.show_playing)
        self.player.failed.connect(self._show_refused)
        window.history.undo_batch_requested.connect(self.undo_batch)
        window.history.undo_action_requested.connect(self.undo_action)
        memory = window.memory
        memory.add_requested.connect(lambda text: self.change_memory(lambda service: service.remember(text)))
        memory.edit_requested.connect(
            lambda memory_id, text: self.change_memory(lambda service: service.edit_memory(memory_id, text))
        )
        memory.forget_requested.connect(
            lambda memory_id: self.change_memory(lambda service: service.forget_memory(memory_id))
        )
        self.model.edited.connect(self._on_entry_edited)
        self.model.check_requested.connect(self._on_entry_check_requested)
        window.details.read_dues_with(self.service.read_due)
        window.details.edited.connect(self._on_entry_edited)
        window.details.item_check_requested.connect(self._on_item_check_requested)
        window.details.item_add_requested.connect(
            lambda entry_id, item: self.edit(lambda service: service.add_items(entry_id, [item]))
        )
        window.details.item_remove_requested.connect(
            lambda entry_id, item: self.edit(lambda service: service.remove_items(entry_id, [item]))
        )
        entries = window.entries
        entries.complete_requested.connect(lambda ids: self.edit(lambda service: service.complete(ids)))
        entries.archive_requested.connect(lambda ids: self.edit(lambda service: service.archive(ids)))
        entries.unarchive_requested.connect(lambda ids: self.edit(lambda service: service.unarchive(ids)))
        entries.snooze_requested.connect(lambda ids, until: self.edit(lambda service: service.snooze(ids, until)))
        entries.move_requested.connect(lambda ids, due: self.edit(lambda service: service.move(ids, due)))
        entries.read_dues_with(self.service.read_due)
        entries.priority_requested.connect(
            lambda ids, priority: self.edit(lambda service: service.edit(ids, {"priority": priority}))
        )
        self.toast.undo_clicked.connect(self.undo_batch)
        self.toast.retry_clicked.connect(conductor.retry)
        self.toast.confirm_clicked.connect(partial(conductor.retry, confirmed=True))
        self.toast.merge_clicked.connect(self.merge)
        self.toast.settings_clicked.connect(self.open_settings)
        self.toast.choice_clicked.connect(conductor.choose)
        self.hotkey.pressed.connect(self.hotkey_switch.press)
        self.hotkey.released.connect(self.hotkey_switch.release)
        self.hotkey.failed.connect(self._show_hotkey_problem)
        self.hotkey.bound.connect(self._on_hotkey_bound)
        self.reminders.due.connect(self._on_reminder_due)
        QApplication.styleHints().colorSchemeChanged.connect(self._on_color_scheme_changed)
        self.reminders.snooze_ended.connect(self.refresh)
        self.notifications.acted.connect(self._on_notification_acted)
        if self.tray:
            tray = self.tray
            tray.dictate_clicked.connect(conductor.toggle_recording)
            tray.show_hide_clicked.connect(self.toggle_window)
            tray.recent_clicked.connect(self.toast.show_again)
            tray.undo_last_clicked.connect(self.undo_last)
            tray.pause_toggled.connect(self.set_paused)
            tray.settings_clicked.connect(self.open_settings)
            tray.quit_clicked.connect(self.quit)
            tray.reminder_clicked.connect(window.show_entry)

    # -- starting and stopping -----------------------------------------------------------------

    def start(
        self,
        listen_for_hotkey: bool = True,
        arm_microphone: bool = True,
        preload_speech: bool = True,
        offer_models: bool = True,
        check_setup: bool = True,
    ) -> None:
        """Show the app and listen. `arm_microphone` keeps a microphone open between recordings (until Pause or
        quit), so a recording keeps the 300 ms before the hotkey: the first word is not cut."""
        self.window.restore_view_state()
        if self.tray:
            self.tray.show()
        self.window.show()
        self.window.input.setFocus()
        if listen_for_hotkey:
            self.listen_for_hotkey()
        self._arm_microphone = arm_microphone
        self._arm_if_listening()
        self._update_state()
        self.refresh()
        self._refresh_timer.start()
        self._watch_timer.start()
        self._backup_timer.start()
        self.sync.start()
        if preload_speech:
            self._preload_speech()
        if offer_models:
            self.offer_models()
        if check_setup:
            self.check_setup()

    def listen_for_hotkey(self) -> None:
        """Start the global hotkey; why it cannot work here is said at the top of the window."""
        self._bound_key = ""
        self._show_hotkey_problem(self.hotkey.start())

    def _on_hotkey_bound(self, key: str) -> None:
        self._bound_key = key
        self._update_state()

    def _show_hotkey_problem(self, problem: str | None) -> None:
        self._hotkey_problem = problem
        self._show_setup_notes()
        self._update_state()

    def _show_setup_notes(self) -> None:
        hotkey = [self._hotkey_problem] if self._hotkey_problem else []
        self.window.setup_notes.show_lines(hotkey + self._setup_lines)

    # -- problems that need the user ------------------------------------------------------------

    def _show_problems(self) -> None:
        self.window.problems_bar.show_problems(self.problems.shown())

    def _show_sync_problem(self) -> None:
        clock = self.service.clock()
        self.problems.sync_stands(self.sync.status() if self.sync.enabled else None, clock.now, clock.tz)
        self._show_problems()

    def _retry_problem(self, kind: str) -> None:
        if Trouble(kind) is Trouble.SYNC:
            self.sync.retry()

    def _dismiss_problem(self, kind: str) -> None:
        self.problems.dismiss(Trouble(kind))
        self._show_problems()

    def take_daily_backup(self) -> None:
        """Today's backup, off the GUI thread (one a day; the first command of the day may have taken it).
        One that cannot be made is said in a toast: a user who counts on backups should know."""

        def show(outcome: JobOutcome[Backup | None]) -> None:
            if isinstance(outcome, Failed):
                title = "Today's backup could not be made"
                self.toast.show_content(ToastContent(title=title, message=outcome.error, error=True))

        run_in_thread(Call("daily-backup", self.service.take_daily_backup), self, show)

    def check_setup(self) -> None:
        """Say at the top of the window what is missing (microphone, tray, speech engine), off the GUI thread."""

        def show(outcome: JobOutcome[list[str]]) -> None:
            if isinstance(outcome, Finished):
                self._setup_lines = outcome.result
                self._show_setup_notes()

        run_in_thread(SetupCheck(self.settings.speech, self.tray is not None), self, show)

    def _drop_bundled_note(self) -> None:
        """A model of ours is named now: the note that the built-in engine is all dictation uses goes (a closed
        set of notes stays closed)."""
        note = bundled_line(better_accuracy_hint())
        if note in self._setup_lines:
            self._setup_lines = [line for line in self._setup_lines if line != note]
            if not self.window.setup_notes.isHidden():
                self._show_setup_notes()

    def offer_models(self) -> "ModelOfferPrompt":
        """Offer better speech models in a dialog, if no model is installed and the offer was not declined."""
        from app.ui.model_offer_dialog import ModelOfferPrompt

        prompt = ModelOfferPrompt(self, parent=self)
        prompt.start()
        return prompt

    def _end_session(self) -> None:
        """Quitting ends the session of talk; the model sums it up at the next utterance, not now."""
        try:
            self.service.end_session(SessionEnd.QUIT)
        except MurmurError as error:
            log.warning("the session was not ended at quit: %s", error)

    def _preload_speech(self) -> None:
        threading.Thread(target=warm_words, name="warm-words", daemon=True).start()  # off the GUI thread
        try:
            from app.api.dictation import preload

            preload(self.settings.speech)
        except Exception as error:  # shown when the user records; never a reason not to start
            log.warning("speech model not preloaded: %r", error)
        if self.settings.speech.reply != ReplyMode.OFF:
            preload_voice(self.settings.speech)

    def quit(self) -> None:
        """Leave without losing what was said: no new recording starts, the one in progress is stopped and kept,
        the text of stopped ones is worked out and queued, and the queue drains (each batch one transaction).
        Every step waits a bounded time; a step that hangs past it ends the process anyway (QuitWatchdog)."""
        if self._quitting:  # asked again while the events below were delivered
            return
        self._quitting = self.conductor.quitting = True
        self._quit_step("stopping the hotkey, the voice and the microphone", DEVICE_STOP_SECONDS)
        self._watch_timer.stop()
        self.window.save_view_state()
        self.hotkey.stop()
        self.reply_voice.stop()
        self.player.stop()
        self.voice.disarm()
        self.voice.stop()
        self._quit_step("working out the text of the last recording", TRANSCRIPT_WAIT_SECONDS)
        if not self.voice.wait_for_transcripts(TRANSCRIPT_WAIT_SECONDS):
            log.warning("quit %.0f s before a recording's text was worked out: it is lost", TRANSCRIPT_WAIT_SECONDS)
        QApplication.processEvents()  # the transcripts arrive as queued signals: here they are submitted
        self._quit_step("letting the speech engines finish", ENGINE_WAIT_SECONDS)
        if not join_all(engine_threads.running(), ENGINE_WAIT_SECONDS):
            log.warning("quit while a speech engine was still working (a model loading, or a final pass)")
        self._quit_step("closing the speaker", DEVICE_STOP_SECONDS)
        # An output stream still open when the process ends meets PortAudio's own teardown at exit: closed first.
        quiet = self.reply_voice.wait_until_quiet(DEVICE_STOP_SECONDS) and self.player.wait(DEVICE_STOP_SECONDS)
        if not (quiet and sound_cues.wait(DEVICE_STOP_SECONDS)):
            log.warning("quit while the speaker was still open")
        self.toast.dismiss()
        self.notifications.close()
        if self.tray:
            self.tray.hide()
        self._quit_step("waiting for the sync under way", SYNC_WAIT_SECONDS)
        if not self.sync.stop(SYNC_WAIT_SECONDS):
            log.warning("quit during a sync; what it had not sent is sent at the next start")
        self._quit_step("running the queued work", QUIT_WAIT_SECONDS)
        if self.worker.close(QUIT_WAIT_SECONDS):
            self._quit_step("closing the database", DEVICE_STOP_SECONDS)
            self._end_session()
            self.service.close()
        else:  # the run still holds the service: leave it to the process's end
            log.warning("quit while a run was still going; its utterance waits in the inbox")
        self._quit_step("leaving the event loop", 0)
        QApplication.quit()

    def _quit_step(self, name: str, seconds: float) -> None:
        """Quit goes on to step `name`, which may take `seconds`: the watchdog, where there is one, holds it to that."""
        log.info("quit: %s", name)
        if self.watchdog is not None:
            self.watchdog.step(name, seconds)

    # -- recording -----------------------------------------------------------------------------

    def handle_command(self, command: str) -> None:
        """A command from `murmur toggle` and friends, over the local socket."""
        match AppCommand(command):
            case AppCommand.TOGGLE:
                self.conductor.toggle_recording()
            case AppCommand.START:
                self.conductor.start_recording()
            case AppCommand.STOP:
                self.conductor.stop_recording()
            case AppCommand.CANCEL:
                self.conductor.cancel()
            case AppCommand.SHOW:
                self.window.raise_to_front()
            case AppCommand.QUIT:
                self.quit()

    def _on_recording_started(self) -> None:
        self.window.activity.recording_started()
        self._update_state()

    def _on_recording_stopped(self) -> None:
        if self.settings.ui.audio_cues and not self._quitting:  # a cue would open the speaker the quit closes
            sound_cues.play(cue_notes.STOP)
        self.window.activity.recording_stopped()
        self._update_state()

    def _on_reply_not_said(self, message: str) -> None:
        """A reply that cannot be spoken (no voice, no speaker) is still on screen: a note, not an error."""
        self.window.activity.add_note(f"Not spoken: {message}")

    def _on_event(self, event: PipelineEvent) -> None:
        """A run's news, from the microphone to the spoken reply: shown, and acted on where it asks for it."""
        self.window.activity.show_event(event)
        self.problems.heard(event)
        self._show_problems()
        match event:
            case PartialTranscript():
                self.window.activity.show_partial(event.text, event.tentative)
            case ErrorEvent(stage=Stage.REPLY):
                self._on_reply_not_said(event.message)
                self._update_state()
            case ErrorEvent(code=ErrorCode.SPEECH, stage=Stage.LISTEN | Stage.TRANSCRIBE):
                self._show_error(event.message)  # a recording whose microphone failed was stopped, what was heard kept
            case ReplyFinished():
                self.conductor.reply_said(event.listen)
            case ReplyStarted() | ReplyInterrupted():
                self._update_state()

    # -- the pipeline --------------------------------------------------------------------------

    def dismiss(self, utterance_id: int) -> None:
        """Take an utterance out of the inbox (kept in the store); the toast offers Undo."""
        self.worker.put(jobs.DismissJob(self.service, utterance_id))

    def edit(self, change: Callable[[MurmurService], ExecutionResult]) -> None:
        """A change by hand: `change` calls one of the service's edits (they parse and check what they get)."""
        self.worker.put(jobs.EditJob(self.service, change))

    def merge(self, new_id: str, into_id: str) -> None:
        """The toast's Merge: the entry just made is the listed one said again."""
        self.edit(lambda service: service.merge(new_id, into_id))

    def change_memory(self, change: Callable[[MurmurService], MemoryChange]) -> None:
        """Remember, edit or forget one of the user's memories (the Memory tab): undoable like an edit."""
        self.worker.put(jobs.MemoryJob(self.service, change))

    def undo_batch(self, batch_id: int) -> None:
        self.worker.put(jobs.UndoJob(self.service, lambda service: service.undo_batch(batch_id)))

    def undo_action(self, item_id: int) -> None:
        self.worker.put(jobs.UndoJob(self.service, lambda service: service.undo_action(item_id)))

    def export_to(self, path: Path, fmt: str) -> None:
        self.worker.put(jobs.ExportJob(self.service, path, Format(fmt)))

    def import_from(self, path: Path, confirmed: bool = False) -> None:
        self.worker.put(jobs.ImportJob(self.service, path, confirmed))

    def undo_last(self) -> None:
        self.worker.put(jobs.UndoJob(self.service, lambda service: service.undo()))

    def refresh(self) -> None:
        """Reload the list, inbox and history (once, however often it is asked while queued)."""
        self._reload(None)

    def _reload(self, touched: Collection[str] | None, kind: type[jobs.RefreshJob] = jobs.RefreshJob) -> None:
        """As `refresh`, but of the entries only those `touched` by a change of this app's, when they are known."""
        self.sync.changed()  # every change ends in a refresh: it is sent a few seconds later
        self._shown.changed(touched)
        if self.worker.waiting(jobs.RefreshJob):
            return
        self.worker.put(kind(self.service, self.settings.llm.monthly_budget, self._shown))

    def _on_watch_timer_timeout(self) -> None:
        """Show what another process (`murmur add`, a shortcut, sync) committed. The look is a PRAGMA read, cheap
        enough for the GUI thread. Only when the worker is idle: every job ends in a refresh, which looks first,
        so a look now would see the app's own writes and reload the list twice."""
        if self.worker.submitted == self._handled and self.service.changed_since_last_look():
            self.refresh()

    def _on_recall_requested(self, words: str) -> None:
        """Past talk for the search box, read off the GUI thread; a reply to an older search is dropped."""
        service, clock = self.service, self.service.clock()

        def show(outcome: JobOutcome[list[RecallHit]]) -> None:
            if isinstance(outcome, Finished) and self.window.search.text().strip() == words:
                self.window.said_before.set_hits(outcome.result, clock.now, clock.tz)

        run_in_thread(Call("recall", lambda: service.recall(words)), self.window, show)

    def _on_reading_requested(self, words: str) -> None:
        """What the typed words would do, read off the GUI thread (the rules take a few milliseconds, more with a
        long list); a reading of words the box no longer holds is dropped."""
        service, clock = self.service, self.service.clock()

        def show(outcome: JobOutcome[ReadingPreview]) -> None:
            if isinstance(outcome, Finished) and self.window.input.text().strip() == words:
                self.window.reading.show_lines(reading_lines(outcome.result, clock.now, clock.tz))

        run_in_thread(Call("preview", lambda: service.preview(words)), self.window, show)

    def _on_typed(self, text: str) -> None:
        self.conductor.submit(text, UtteranceSource.TYPED)

    def _on_entry_edited(self, entry_id: str, fields: dict[str, object]) -> None:
        self.edit(lambda service: service.edit([entry_id], fields))

    def _on_entry_check_requested(self, entry_id: str, checked: bool) -> None:
        if checked:
            self.edit(lambda service: service.complete([entry_id]))
        else:
            self.edit(lambda service: service.edit([entry_id], {"status": "active"}))

    def _on_item_check_requested(self, entry_id: str, item: str, checked: bool) -> None:
        if checked:
            self.edit(lambda service: service.tick_item(entry_id, item))
        else:
            self.edit(lambda service: service.untick_item(entry_id, item))

    def _on_job_finished(self, outcome: JobOutcome[jobs.JobResult]) -> None:
        self._handled += 1
        job = outcome.job
        if isinstance(job, jobs.UtteranceJob):
            self.conductor.finished(job)
            if self.runs is not None and self.runs.isVisible():  # the run just kept shows
                self.runs.reload()
        touched: Collection[str] | None = None  # what the job changed, when it says
        match outcome:
            case Failed(error=error) if isinstance(job, jobs.UtteranceJob):
                self._show_error(error)
            case Failed(error=error):
                self._show_refused(error)
            case Finished(result=jobs.Views() as views):
                self._show_views(views)
            case Finished(result=jobs.BatchReport() as report):
                if isinstance(job, jobs.ImportJob):
                    self.problems.imported(job.path.name, list(report.skipped_lines))
                self.problems.ran(report.interpreter, report.fallback_reason, report.fallback_remedy)
                self._show_problems()
                self._show_report(report, from_run=isinstance(job, jobs.UtteranceJob))
                touched = report.touched
                if isinstance(job, jobs.UtteranceJob) and report.created:
                    self._to_select = report.created[:1]
            case Finished(result=jobs.ImportWaits() as waiting):
                ask_to_import(
                    self.window, waiting.title, waiting.question, partial(self.import_from, waiting.path, True)
                )
            case Finished(result=jobs.Notice() as notice):
                self._error = ""
                self.toast.show_content(ToastContent(title=notice.text, details=list(notice.details)))
                self.window.activity.show_outcome(notice.text, steps=notice.details)
                self._to_select = notice.back or self._beside(notice.gone)
                touched = notice.touched
        if not isinstance(job, jobs.RefreshJob):
            self._reload(touched)
        self._update_state()

    def _show_views(self, views: jobs.Views) -> None:
        self.model.set_snapshot(views.entries)
        self.window.inbox.set_utterances(views.inbox, views.entries.now, views.entries.tz)
        self.window.inbox.set_sounds(views.sounds)
        self.window.inbox.set_readings(views.readings)
        self.window.set_inbox_count(len(views.inbox))
        names = {entry.id: entry.summary for entry in views.entries.entries}
        self.window.history.set_history(views.history, views.entries.now, views.entries.tz, names)
        self.window.details.set_history(views.history, names)
        self.window.usage.set_summary(views.usage, views.entries.now.astimezone(views.entries.tz).date())
        self.window.memory.set_memories(views.memories, views.entries.now, views.entries.tz)
        self.reminders.schedule(views.entries.entries)
        if self.tray:
            self.tray.show_due(self.model.rows_in(DUE_NOW))
        # A new entry is easy to lose in a long list, an undone one too: selected and scrolled to.
        for entry in self._to_select:
            if self.window.select_entry(entry):
                break
        self._to_select = ()
        self.entries_shown.emit()

    def _beside(self, gone: tuple[str, ...]) -> tuple[str, ...]:
        """The entries the list shows next to the first of `gone` it shows, below it first: where the keys go on
        once those leave the list."""
        shown = self.window.entries.entry_ids()
        at = next((shown.index(entry) for entry in gone if entry in shown), None)
        if at is None:
            return ()
        below = [entry for entry in shown[at + 1 :] if entry not in gone]
        above = [entry for entry in reversed(shown[:at]) if entry not in gone]
        return tuple(below[:1] + above[:1])

    def _show_report(self, report: jobs.BatchReport, from_run: bool) -> None:
        """What a run or a change did; the steps Details shows are a run's own, else the change's lines (an
        import's counts and the lines it could not read), never an earlier run's."""
        content = content_of(report)
        if not (report.by_hand and content.error):  # a refused change by hand leaves nothing waiting: no red state
            self._error = content.message if content.error else ""
        said = f"Murmur asks: {report.message}" if report.question else report.message
        steps = None if from_run else report.applied + report.failures
        outcome = said if said and not report.applied else content.title
        self.window.activity.show_outcome(outcome, content.error, steps=steps)
        self.window.expect_answer(report.question)
        if content.error and not self.window.isVisible() and self.tray:
            self.tray.notify(content.title, content.message, error=True)
        self.toast.show_content(content)
        self.conductor.say(report)

    def _show_refused(self, message: str) -> None:
        """A change asked for in the window that was not made (the service refused it, or could not): said in the
        toast and the line of what happened. The state stays as it was: nothing waits for the user to act on, so
        the microphone and the tray do not stay red."""
        line = sentence(message)
        self.toast.show_content(ToastContent(title=line, error=True))
        self.window.activity.show_outcome(line, error=True, steps=[])

    def _show_error(self, message: str) -> None:
        self._error = message
        self.toast.show_content(ToastContent(title="Something went wrong", message=message, error=True))
        if self.tray and not self.window.isVisible():
            self.tray.notify("Murmur", message, error=True)
        self._update_state()

    # -- state ---------------------------------------------------------------------------------

    def state(self) -> AppState:
        if self.voice.is_listening_for_answer():
            return AppState.LISTENING
        if self.voice.is_recording():
            return AppState.RECORDING
        if self.conductor.runs:
            return AppState.THINKING
        if self.reply_voice.is_speaking():
            return AppState.SPEAKING
        if self.conductor.paused:
            return AppState.PAUSED
        return AppState.ERROR if self._error else AppState.IDLE

    def _status_text(self, state: AppState) -> str:
        talk = "hold the mic button" if self._hotkey_problem else f"hold {self._hotkey_words()}"
        runs = self.conductor.runs
        queued = f" ({runs - 1} more queued)" if runs > 1 else ""
        return {
            AppState.IDLE: f"Ready: {talk} and speak, or type below",
            AppState.PAUSED: "Paused: the hotkey is off until you resume listening (tray menu)",
            AppState.RECORDING: "Listening… speak now; let go (or click again) to send",
            AppState.THINKING: f"{'Hearing it again…' if self.conductor.hearing_again else 'Working on it…'}{queued}",
            AppState.SPEAKING: f"Speaking… {talk.replace('hold', 'press', 1)} to talk over it",
            AppState.LISTENING: "Listening for your answer… (just speak)",
            AppState.ERROR: self._error,
        }[state]

    def _hotkey_words(self) -> str:
        return self._bound_key or native_text(self.settings.ui.hotkey)

    def _update_state(self) -> None:
        state = self.state()
        text = self._status_text(state)
        self.window.hotkey = "" if self._hotkey_problem else self._hotkey_words()
        self.window.activity.set_status(text, error=state is AppState.ERROR)
        self.window.set_state(state)
        if self.tray:
            self.tray.set_state(state, text)
        self.state_changed.emit(state.value)

    # -- windows -------------------------------------------------------------------------------

    def toggle_window(self) -> None:
        if self.window.isVisible() and not self.window.isMinimized():
            self.window.hide()
        else:
            self.window.raise_to_front()

    def set_paused(self, paused: bool) -> None:
        """Pause (the tray's): Murmur stops speaking, the hotkey is ignored and the armed microphone (and an
        answer window) is closed, until resumed."""
        self.hotkey.paused = paused
        self.conductor.pause(paused)
        if not paused:
            self._arm_if_listening()
        if self.tray:
            self.tray.show_paused(paused)
        self._update_state()

    def _arm_if_listening(self) -> None:
        if self._arm_microphone and not self.conductor.paused and not self._quitting:
            self.voice.arm()  # also re-arms with new speech settings

    def _on_reminder_due(self, entry_id: str, summary: str) -> None:
        if self.notifications.notify(entry_id, "Reminder", summary):
            return
        if self.tray:  # no desktop notifications with actions: the tray's message, a click shows the entry
            self.tray.notify("Reminder", summary, entry_id=entry_id)
        else:
            self.toast.show_content(ToastContent(title=f"Due now: {summary}"))

    def _on_notification_acted(self, entry_id: str, action: str) -> None:
        """A reminder's button: done, snoozed 10 minutes or to tomorrow (each undoable), or shown."""
        if action == "done":
            self.edit(lambda service: service.complete([entry_id]))
        elif action in SNOOZES:
            self.edit(lambda service: service.snooze([entry_id], SNOOZES[action]))
        else:
            self.window.show_entry(entry_id)

    def open_runs(self) -> None:
        """Murmur → Recent runs, read afresh each time it is opened."""
        if self.runs is None:
            self.runs = RunsDialog(self.window, lambda: self.service.recent_runs(), lambda: self.service.clock())
        self.runs.show()
        self.runs.raise_()
        self.runs.activateWindow()
        self.runs.reload()

    def open_settings(self, page: str = "") -> None:
        """The settings dialog, at `page` (its tab's title) when one is named."""
        from app.ui.settings.dialog import SettingsDialog

        dialog = SettingsDialog(
            self.settings, self.window, model_test(self.service), self.sync.words(), words=self.service
        )
        dialog.general_page.show_backend(self.hotkey.backend_words())
        titles = [dialog.tabs.tabText(index) for index in range(dialog.tabs.count())]
        if page in titles:
            dialog.tabs.setCurrentIndex(titles.index(page))
        self.hotkey.paused = True  # recording a new hotkey must not start dictation with the old one
        try:
            accepted = dialog.exec()
        finally:
            self.hotkey.paused = self.conductor.paused
        if accepted:
            self.apply_settings(dialog.result_settings(), new_key=dialog.key_changed)
        dialog.deleteLater()  # the window owns it: without this every opening would stay in memory

    def _show_theme(self) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, self.settings.ui.theme)

    def _on_color_scheme_changed(self) -> None:
        if self.settings.ui.theme == "system":  # the desktop went dark or light: so does the app
            self._show_theme()

    def apply_settings(self, settings: Settings, new_key: bool = False) -> None:
        """Save `settings` and make each take effect now; `new_key`: the API key in the keyring changed. A settings
        file that cannot be read is never written over: nothing changes, and the user is told which line to fix."""
        try:
            save_settings(settings)
        except SettingsFileError as error:
            self._show_error(str(error))
            return
        old, self.settings = self.settings, settings
        if settings.speech.model or settings.speech.whisper_model:
            self._drop_bundled_note()
        if settings.ui.theme != old.ui.theme:
            self._show_theme()
        self.toast.set_seconds(settings.ui.toast_seconds)
        self.hotkey_switch.mode = TalkMode.from_setting(settings.ui.hotkey_mode)
        if settings.ui.hotkey != old.ui.hotkey:
            self.hotkey.stop()
            self.hotkey.combination = settings.ui.hotkey
            self.listen_for_hotkey()
        self._arm_if_listening()
        if settings.ui.start_at_login != old.ui.start_at_login:
            if problem := set_autostart(settings.ui.start_at_login):
                self._show_error(problem)
        if settings.sync != old.sync:
            self.service.sync_source = sync_source_for(settings)
            self.sync.start()
            self._show_sync_problem()  # set up no more: its failure goes with it
        self._update_state()
        if not new_key and pipeline_settings(settings) == pipeline_settings(old):
            self.refresh()  # the budget left follows the new budget
            return
        # The next utterance goes to the new model, and the window is read again (the budget too) once it is taken.
        self._shown.changed(None)
        self.worker.put(jobs.SettingsJob(self.service, settings.llm.monthly_budget, self._shown, settings=settings))


def display_problem() -> str | None:
    """Why no window can be shown here (Qt would abort), or None."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return "no display to show the app on (DISPLAY is not set); the commands work without one: see `murmur --help`"


def run(db_path: Path | None = None, argv: list[str] | None = None) -> int:
    """`murmur` with no command: start the app, or raise the one already running."""
    setup_logging()
    secure_files_at_start()
    if problem := display_problem():
        print(f"murmur: error: {problem}", file=sys.stderr)
        return 1
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    assert isinstance(app, QApplication)
    collector = GuiThreadCollector(app)  # noqa: F841 (lives as long as the app, its parent)
    app.setApplicationName("Murmur")
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)
    try:
        server = InstanceServer() if COMMAND_SOCKET_SUPPORTED else None
        if server is not None and not server.listen():
            send_command(AppCommand.SHOW, server.path)
            print("Murmur is already running; its window was raised.")
            return 0
        settings, settings_problems = read_settings()
        service = build_service(db_path, settings)
    except MurmurError as error:
        print(f"murmur: error: {error}", file=sys.stderr)
        return 1
    murmur = Murmur(service, settings)
    watchdog = murmur.watchdog = QuitWatchdog(service.close)
    QuitOnSignals(murmur.quit, app)
    if server is not None:
        server.commanded.connect(murmur.handle_command, Qt.ConnectionType.QueuedConnection)
    app.lastWindowClosed.connect(_quit_without_tray(murmur))
    murmur.start()
    if settings_problems:  # the app runs on the defaults for what the file got wrong; the user hears why
        murmur.toast.show_content(
            ToastContent(title="Some settings were not used", message="\n".join(settings_problems), error=True)
        )
    code = app.exec()
    if engine_threads.running():  # the interpreter's teardown under it would crash or hang: none is made
        watchdog.end_now("a speech engine is still working; the process ends without its teardown", code)
    watchdog.last_step("ending the process", 0)  # Qt's teardown, the interpreter's, native libraries'
    return code


def _quit_without_tray(murmur: Murmur) -> Callable[[], None]:
    def quit_if_no_tray() -> None:
        if murmur.tray is None:
            murmur.quit()

    return quit_if_no_tray
