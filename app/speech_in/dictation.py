"""One push-to-talk recording: microphone -> engines, live words while it runs, the final text at the end.

The desktop app codes against this module: `Dictation` (start, stop, cancel) and `preload`.
Recording starts at once, even while the models are still loading (latency first); the audio heard
meanwhile is kept and fed to each engine as soon as it is ready. The final engine decodes each finished
stretch of speech while the user still speaks (app/speech_in/stretch_decoding.py); when it is Whisper and
was ready from the start, it gives the live words too, and the streaming engine (Vosk, pocketsphinx) is
started only if Whisper falls behind, standing in until it catches up. `stop()` always returns a final result
for all the audio, never a partial: what is left decoded when that fits the latency budget, else the live words
for what is not. All callbacks run on the dictation's worker thread, never on the GUI thread. A recording started
with a sound cue (Murmur's own, played by the speakers the microphone hears) keeps nothing heard before the cue has
ended, and its start is held back until the cue's notes, which late speakers sound after that, can be cut off it
(app/speech_in/cue_heard.py).
"""

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from typing import Protocol

from app.config import SpeechSettings
from app.domain.hints import NO_HINTS, Hints
from app.errors import AudioDeviceError, Setting, SpeechError, command
from app.speech_in.audio import rms_dbfs, seconds_of
from app.speech_in.capture import AudioDevice, Microphone
from app.speech_in.cue_heard import CueCutter
from app.speech_in.cue_notes import Notes
from app.speech_in.engines import EngineChoice, as_streaming, choose_engine, choose_final_engine, engine_future, preload
from app.speech_in.faint_speech import FaintReader, faint_reader
from app.speech_in.final_pass import FinalPassOutcome, LiveWords, final_pass_for
from app.speech_in.stretch_decoding import BYTES_PER_SECOND, StretchDecoder, shifted
from app.speech_in.transcriber import Engine, EngineResult, LiveText, Transcriber, Transcript, Word
from app.speech_in.vad import Speech, find_speech, warm_up

__all__ = ["Dictation", "LiveText", "Transcript", "Word", "preload"]

log = logging.getLogger("murmur.speech")

POLL_SECONDS = 0.02
# After the start cue: its last sound may still be in the speakers' buffer or echo in the room. Nobody starts to
# speak within 0.1 s of a cue they wait for, so nothing said after it is lost. Speakers later than that are heard
# by the notes: CueCutter cuts them.
CUE_MARGIN_SECONDS = 0.1
CUE_WAIT_SECONDS = 2.0  # a cue that never tells its end (a stuck output device): kept from then on
# What a streaming engine is fed at a time. One started late (Whisper fell behind) hears the recording so far a piece
# per block of audio, not at once: pocketsphinx holds the GIL while it reads, and a stop waits for the worker.
FEED_BYTES = 16_000  # 0.5 s
LOAD_WAIT_SECONDS = 15.0
NO_WORDS = EngineResult(text="", words=[])
NO_SPEECH = "no speech heard: no words"


def _ignore(_: object) -> None:
    pass


def no_hints() -> Hints:
    return NO_HINTS


class AudioSource(Protocol):
    """What a dictation needs of app.speech_in.capture.Microphone (a bench plays a clip through it instead)."""

    device: AudioDevice | None
    overflows: int

    def open(self) -> None: ...
    def begin(self, preroll: bool = True) -> None: ...
    def sends_sound(self) -> bool: ...
    def keep_from(self, moment: float) -> None: ...
    def take(self) -> bytes: ...
    def failure(self) -> str | None: ...
    def close(self, *, abort: bool = False) -> bytes: ...


class Dictation:
    """One push-to-talk recording: microphone -> engines, live words while it runs."""

    def __init__(
        self,
        settings: SpeechSettings,
        *,
        on_partial: Callable[[LiveText], None] = _ignore,
        on_level: Callable[[float], None] = _ignore,  # dBFS, about 10 times a second
        on_error: Callable[[str], None] = _ignore,
        on_audio: Callable[[bytes], None] = _ignore,  # what was heard, 16 kHz mono int16, as it comes
        engine: str = "",  # overrides settings.engine ("vosk" or "pocketsphinx")
        model: str = "",  # overrides settings.model
        final_engine: str = "",  # overrides settings.final_engine ("whisper", "live", "off")
        # Phrases the user is likely to say (their list), for the final pass; read when the recording stops,
        # on the stopping thread, so a front end never reads its database on its GUI thread for this.
        hints: Callable[[], Hints] = no_hints,
        source: AudioSource | None = None,  # the microphone of settings.device unless given
    ) -> None:
        self.settings = settings
        self._on_partial, self._on_level, self._on_error = on_partial, on_level, on_error
        self._on_audio = on_audio
        self._hints = hints if settings.vocabulary_hints else no_hints
        self._phrases: Hints | None = None  # the hints once read
        self._choice: EngineChoice | None = None
        self._final_choice: EngineChoice | None = None
        self._choice_error: SpeechError | None = None
        try:
            self._choice = choose_engine(settings, engine=engine, model=model)
            self._final_choice = choose_final_engine(settings, self._choice, final_engine=final_engine)
            self.engine_name = self._choice.name
            if self._final_choice is not None and self._final_choice != self._choice:
                self.engine_name += f" + {self._final_choice.name}"
        except SpeechError as error:
            self._choice_error = error
            self.engine_name = "no speech engine"
        self.microphone: AudioSource = source or Microphone(settings.device)
        self._engine: Future[Engine] | None = None
        self._final_engine: Future[Engine] | None = None
        self._transcriber: Transcriber | None = None  # the streaming engine's, when it gives the live words
        self._decoder: StretchDecoder | None = None  # the final engine's, once it is ready
        self._utterance = bytearray()  # everything heard
        self._transcriber_fed = self._decoder_fed = 0  # how much of it each has heard
        self._heard_seconds = 0.0
        self._stopping = threading.Event()
        self._cue: CueCutter | None = None  # a sound cue plays as the recording starts: what is heard of it is cut
        self._cue_ended_at: float | None = None  # set by the thread that played it
        self._audio_came = threading.Event()  # the microphone delivered its first block
        self._device_failure: str | None = None  # why the microphone stopped, if it did
        self._worker: threading.Thread | None = None
        self._worker_error: BaseException | None = None
        self._notes: list[str] = []
        self._started_at = 0.0
        self._partial = LiveText()

    @property
    def partial(self) -> LiveText:
        return self._partial

    def arm(self) -> None:
        """Open the microphone now and keep the last 300 ms, so `start()` does not cut the first word."""
        self._check_choice()
        self.microphone.open()

    def _check_choice(self) -> EngineChoice:
        if self._choice_error is not None:
            raise self._choice_error
        assert self._choice is not None
        return self._choice

    def start(self, preroll: bool = True, *, cue: Notes | None = None) -> None:
        """Start recording; SpeechError (one line) if there is no microphone, PortAudio, or engine. `preroll`:
        keep the armed microphone's moment before the start. `cue`: a sound cue of these notes plays now, and
        `cue_ended()` is called once it has; what is heard before its end (the pre-roll too) is never kept, nor
        its notes heard after it, so the engines never take the cue for a word. Words said over the cue are lost
        with it: the cue is short (0.1 s) and asks the user to speak after it."""
        choice = self._check_choice()
        if self._worker is not None:
            raise SpeechError("this dictation was already started")
        self._engine = engine_future(choice)  # loads in the background unless already loaded
        if self._final_choice is not None:
            self._final_engine = engine_future(self._final_choice)
        self._started_at = time.monotonic()
        self._cue = CueCutter(cue) if cue is not None else None
        self.microphone.begin(preroll)
        self._worker = threading.Thread(target=self._run, name="murmur-dictation", daemon=True)
        self._worker.start()

    def cue_ended(self) -> None:
        """The start cue has been played (called from any thread)."""
        self._cue_ended_at = time.monotonic()

    def wait_for_audio(self) -> None:
        """Return once the microphone has sent sound (opening it is not enough: some take seconds to send any), or
        the recording has ended; AudioDeviceError if the microphone failed first (sending nothing included)."""
        while not self._audio_came.wait(POLL_SECONDS):
            if self._worker is None or not self._worker.is_alive():
                if self._device_failure is not None:
                    listing = command(
                        "devices", instead=Setting("speech.device"), phrase="check it, or pick another: {} lists them"
                    )
                    raise AudioDeviceError(self._device_failure, listing)
                return

    # -- the worker -------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            warm_up()  # the voice activity detector, read at release
            if self._cue is not None:
                self._skip_cue()
            while not self._stopping.is_set():
                pcm = self.microphone.take()
                if pcm:
                    self._audio_came.set()
                    self._hear(self._kept(pcm))
                else:
                    failure = self.microphone.failure()
                    if failure is not None:
                        self._device_failure = failure
                        self._notes.append(f"{failure}; kept what was heard before")
                        log.warning("%s after %.1f s", failure, self._heard_seconds)
                        self._on_error(failure)
                        self._hear(self._kept(self.microphone.close(abort=True), last=True))
                        return
                    self._catch_up()  # Whisper's live words change between blocks of audio
                    self._stopping.wait(POLL_SECONDS)
        except BaseException as error:  # a broken engine or callback: stop() reports it
            log.exception("the dictation worker failed")
            self._worker_error = error

    def _skip_cue(self) -> None:
        """Wait for the start cue to end (or the recording to stop), then keep only what is heard after it. Meanwhile
        `wait_for_audio()` learns when the microphone sends sound: a cue played before that is not heard at all."""
        deadline = time.monotonic() + CUE_WAIT_SECONDS
        while self._cue_ended_at is None and not self._stopping.is_set() and time.monotonic() < deadline:
            if self.microphone.sends_sound():
                self._audio_came.set()
            self._stopping.wait(POLL_SECONDS)
        ended_at = self._cue_ended_at
        if ended_at is None:
            if not self._stopping.is_set():
                log.warning("the start cue did not end within %g s: kept what is heard from now", CUE_WAIT_SECONDS)
            ended_at = time.monotonic()
        self.microphone.keep_from(ended_at + CUE_MARGIN_SECONDS)

    def _kept(self, pcm: bytes, *, last: bool = False) -> bytes:
        """What of the sound just heard is kept now: all of it, unless the start cue is still to be cut off."""
        return pcm if self._cue is None else self._cue.feed(pcm, last=last)

    def _hear(self, pcm: bytes) -> None:
        if not pcm:
            return
        self._heard_seconds += seconds_of(pcm)
        self._utterance.extend(pcm)
        self._on_level(rms_dbfs(pcm))
        self._on_audio(pcm)
        self._catch_up()

    def _catch_up(self, *, wait: bool = False) -> None:
        """Feed each engine that is ready what it has not heard yet, and tell the live words when they changed.
        `wait`: for the streaming engine to load, if it is the one giving the live words."""
        decoder = self._fed_decoder()
        # a stand-in for Whisper's reads while they were behind is not fed once they have caught up (nor shown)
        transcriber = self._ready_transcriber(wait=wait) if self._streaming_wanted() else None
        if transcriber is not None:
            self._feed(transcriber, FEED_BYTES)
            live = LiveText(tentative=transcriber.partial)
        elif decoder is not None:
            live = decoder.live
        else:
            return
        if live != self._partial:
            self._partial = live
            self._on_partial(live)

    def _feed(self, transcriber: Transcriber, most: int | None = None) -> None:
        """Feed the streaming engine what it has not heard, `most` bytes of it at the most."""
        end = len(self._utterance) if most is None else min(len(self._utterance), self._transcriber_fed + most)
        if self._transcriber_fed < end:
            transcriber.feed(bytes(self._utterance[self._transcriber_fed : end]))
            self._transcriber_fed = end

    def _streaming_wanted(self) -> bool:
        """Does the streaming engine give the live words? Unless the final engine's decoder reads them."""
        return self._decoder is None or self._decoder.behind or not self._decoder.reads_live

    def _fed_decoder(self) -> StretchDecoder | None:
        """The final engine's decoder, once that engine is ready, having heard everything so far."""
        if self._decoder is None:
            engine = self._final_engine_loaded()
            if engine is None:
                return None
            # Whisper gives the live words only from the start: words that change engine mid-way would jump.
            live = engine.kind == "whisper" and self._transcriber is None
            self._decoder = StretchDecoder(engine, self._user_phrases(), live=live)
        if self._decoder_fed < len(self._utterance):
            self._decoder.feed(bytes(self._utterance[self._decoder_fed :]))
            self._decoder_fed = len(self._utterance)
        return self._decoder

    def _ready_transcriber(self, *, wait: bool = False) -> Transcriber | None:
        if self._transcriber is None:
            assert self._engine is not None
            if not wait and not self._engine.done():
                return None
            channel = self.microphone.device.name if self.microphone.device is not None else ""
            engine = as_streaming(self._engine.result())
            self._transcriber = engine.start(channel, self._user_phrases())
            if self._decoder is not None and self._decoder.reads_live:
                log.warning("live words from %s until %s catches up", engine.name, self._decoder.engine.name)
        return self._transcriber

    # -- the end ----------------------------------------------------------------------------------

    def _end_recording(self) -> None:
        self._stopping.set()
        if self._worker is not None:
            self._worker.join()
        rest = self._kept(self.microphone.close(), last=True)  # after the join: one thread at a time converts audio
        if rest:
            self._heard_seconds += seconds_of(rest)
            self._utterance.extend(rest)

    def stop(self) -> Transcript:
        """Stop recording and return the FINAL transcript of everything heard (waits for the engine)."""
        if self._worker is None:
            raise SpeechError("this dictation was not started")
        stopped_at = time.monotonic()
        self._end_recording()
        if self._worker_error is not None:
            self._drop_engines()
            if isinstance(self._worker_error, SpeechError):
                raise self._worker_error
            raise SpeechError(f"speech recognition failed: {self._worker_error}") from self._worker_error
        try:
            self._catch_up(wait=True)
        except SpeechError:
            raise
        except Exception as error:  # a bug in loading, reported as one line; the log has the rest
            self._drop_engines()
            log.exception("the speech engine failed to load")
            raise SpeechError(f"the speech engine failed to load: {error}") from error
        utterance = bytes(self._utterance)
        speech = find_speech(utterance)
        live = LiveWords(lambda: speech.words_within(self._live_result()))
        # Where the detector heard no speech, only Whisper can still hear a whisper: the release waits for it to load
        # (the first recording after a start) rather than say nothing was heard
        engine = self._final_engine_loaded(wait=0.0 if speech.heard else LOAD_WAIT_SECONDS)
        reader = faint_reader(engine, utterance, speech) if engine is not None else None
        if engine is not None and reader is not None:  # a whisper: read past the detector, and only ever asked about
            self._drop_engines()
            outcome = self._read_faint(engine, reader, utterance)
        elif speech.heard:
            done = self._final_pass(live, speech)
            outcome = replace(done, result=speech.words_within(done.result))
            if live.value is None and self._transcriber is not None:
                self._transcriber.cancel()  # the final text stands: the live engine's own end is not waited for
        else:  # noise read as words is worse than none, and what the engine would learn of the channel misleads it
            self._drop_engines()
            outcome = FinalPassOutcome(NO_WORDS, False, 0.0, NO_SPEECH)
        result = outcome.result
        now = time.monotonic()
        if self.microphone.overflows:
            self._notes.append(f"{self.microphone.overflows} audio block(s) were lost while the machine was busy")
        log.info(
            "dictation: %.1f s heard, final text in %.2f s after stop (%s)",
            self._heard_seconds,
            now - stopped_at,
            "final pass" if outcome.used_final_pass else outcome.note or "live text",
        )
        return Transcript(
            text=result.text,
            words=result.words,
            engine=self.engine_name,
            audio_seconds=round(self._heard_seconds, 3),
            elapsed_seconds=round(now - self._started_at, 3),
            finalize_seconds=round(now - stopped_at, 3),
            notes=list(self._notes),
            # beside the final pass's text: the live engine's, or the live words shown when it was not asked for
            live_text=(live.value or self._partial).text if outcome.used_final_pass else None,
            final_pass_note=outcome.note,
            audio=utterance,
            faint=reader is not None and bool(result.text),
        )

    def _final_engine_loaded(self, wait: float = 0.0) -> Engine | None:
        """The final engine, when it has loaded (within `wait` seconds)."""
        future = self._final_engine
        if future is None or (not wait and not future.done()):  # asked at every block while it loads
            return None
        try:
            return future.result(timeout=wait)
        except Exception:  # still loading, or it failed to (said where its pass is skipped)
            return None

    def _read_faint(self, engine: Engine, reader: FaintReader, utterance: bytes) -> FinalPassOutcome:
        """`engine`'s words for the whole utterance, past the detector, within the final pass's budget."""
        hints = self._user_phrases()
        return final_pass_for(engine).run_work(
            seconds_of(utterance), lambda: reader.read_faint(utterance, hints), lambda: NO_WORDS
        )

    def _live_result(self) -> EngineResult:
        """The streaming engine's final result, or the live words shown (Whisper's, when it gave them)."""
        if self._transcriber is not None:
            self._feed(self._transcriber)  # the rest: asked for only when the final pass does not stand
            return self._transcriber.finish()
        return EngineResult(self._partial.text, [])

    def _final_pass(self, live: LiveWords, speech: Speech) -> FinalPassOutcome:
        """What is left decoded when the final engine is ready and it fits the budget; else the live words for it."""
        decoder = self._fed_decoder()  # the engine may have become ready since the recording ended
        if decoder is None:
            future = self._final_engine
            if future is None:
                return FinalPassOutcome(live(), False, 0.0)
            why = "still loading" if not future.done() else f"failed to load: {future.exception()}"
            return FinalPassOutcome(live(), False, 0.0, f"final pass skipped: its engine {why}")
        decoder.close()

        def fallback() -> EngineResult:
            """What exists: the stretches decoded, the live engine's words for the others (it reads them now
            if it never ran: Whisper gave the live words, and was too slow)."""
            words = live()
            lacking = decoder.lacking() if not words.words and self._transcriber is None else []
            if lacking:
                log.warning("the final engine did not read all the speech: the live engine reads the rest")
            return decoder.result(speech.words_within(self._read_by_live_engine(lacking)) if lacking else words)

        return final_pass_for(decoder.engine).run_work(
            decoder.remaining_seconds(), decoder.finish, fallback, decoder.give_up
        )

    def _read_by_live_engine(self, spans: list[tuple[int, int]]) -> EngineResult:
        """The streaming engine's words for these spans of the recording (bytes), timed from its start."""
        assert self._engine is not None
        engine = as_streaming(self._engine.result())
        words: list[Word] = []
        for start, end in spans:
            transcriber = engine.start()
            transcriber.feed(bytes(self._utterance[start:end]))
            words += shifted(transcriber.finish(), start / BYTES_PER_SECOND).words
        return EngineResult(" ".join(w.text for w in words), words)

    def _user_phrases(self) -> Hints:
        """The hints, read once per dictation (when the first engine starts, off the GUI thread)."""
        if self._phrases is None:
            try:
                self._phrases = self._hints()
            except Exception as error:  # hints only help; a list that can't be read must not cost the user's words
                log.warning("no vocabulary hints: %r", error)
                self._phrases = NO_HINTS
        return self._phrases

    def _drop_engines(self) -> None:
        if self._transcriber is not None:
            self._transcriber.cancel()
        if self._decoder is not None:
            self._decoder.cancel()

    def cancel(self) -> None:
        """Stop recording and drop everything heard."""
        if self._worker is not None:
            self._end_recording()
        else:
            self.microphone.close()
        self._drop_engines()
        self._utterance.clear()
