"""The final pass at release: the utterance (already in memory) decoded again, inside a latency budget.

Partials stream live while the user talks; when they let go, a full-utterance pass (the live engine's own,
or Whisper's) usually reads the words better than the streaming decoder did. A dictation has had its finished
stretches of speech decoded while the user spoke (app/speech_in/stretch_decoding.py), so its pass is what is
left (`run_work`). Its text is handed on when it comes within the budget; on an error, or when it would take
too long, the live words stand for what it did not decode. The
decision is made before starting (from the engine's measured speed); Whisper's is also enforced by a
deadline. A deadline can only cut short an engine that lets go of Python's GIL while it works (Whisper does);
pocketsphinx holds it for a whole full-utterance call, so for the live engine's own pass the prediction alone
keeps the budget, and a pass once started is waited for: cut at the deadline, it would have cost its time for
nothing.
"""

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.domain.hints import NO_HINTS, Hints
from app.speech_in import engine_threads
from app.speech_in.audio import seconds_of
from app.speech_in.transcriber import Engine, EngineResult

log = logging.getLogger("murmur.speech")

# The live engine's own pass reads the whole utterance as `murmur transcribe` reads a file (for pocketsphinx, one
# cepstral mean over all of it, where the streaming decoder of a fresh process guesses it from the first second):
# what makes a dictation as good as the same audio from a file. About a quarter of a second per second of speech
# on two cores, so it gets Whisper's budget: up to about ten seconds of speech.
LIVE_ENGINE_BUDGET_SECONDS = 2.5
# Whisper was chosen for accuracy; its encoder reads a window fitted to the speech in the utterance, so a 5 s
# dictation takes about a quarter of a second on two cores. Its deadline only guards against a machine too slow
# (or too busy) for it.
WHISPER_BUDGET_SECONDS = 2.5
# ... and more for more audio left to read: what stands if Whisper is cut short is the live engine's text, which on
# real voices is mostly wrong (bench/real_voice_bench.py: the bundled engine 69% of words, Whisper 10%), so a
# loaded machine waits for Whisper rather than keep that. Half a second per second of audio is ten times what
# Whisper base takes on two quiet cores: past it the machine is too slow for Whisper, not merely busy.
WHISPER_SECONDS_PER_SECOND = 0.5


class LiveWords:
    """The live engine's words for the whole recording, asked for only if the final pass does not stand: a
    streaming engine's end of utterance (pocketsphinx's best path, its N-best rescored) costs a second on a busy
    machine, all of it at release."""

    def __init__(self, make: Callable[[], EngineResult]) -> None:
        self._make = make
        self.value: EngineResult | None = None

    def __call__(self) -> EngineResult:
        if self.value is None:
            self.value = self._make()
        return self.value


@dataclass(frozen=True)
class FinalPassOutcome:
    result: EngineResult
    used_final_pass: bool
    seconds: float  # spent waiting for the pass (0 when it was skipped)
    note: str | None = None  # why the live text stands, for the log and --json


class SpeedMeter:
    """Seconds of compute per utterance, as `fixed + per_second * audio seconds`, learned per engine."""

    def __init__(self, fixed: float, per_second: float) -> None:
        self.fixed, self.per_second = fixed, per_second
        self._prior = per_second
        self._lock = threading.Lock()

    def predict(self, audio_seconds: float) -> float:
        with self._lock:
            return self.fixed + self.per_second * audio_seconds

    def record(self, audio_seconds: float, seconds: float) -> None:
        """Move the per-second rate toward what was seen (an exponential average: recent load counts most)."""
        if audio_seconds <= 0:
            return
        with self._lock:
            seen = max(0.0, seconds - self.fixed) / audio_seconds
            self.per_second = 0.7 * self.per_second + 0.3 * seen

    def relax(self) -> None:
        """A pass was skipped, so nothing was measured: drift back toward the first guess, so a load spike
        that made the engine look slow does not keep the final pass off for the rest of the session."""
        with self._lock:
            self.per_second = 0.7 * self.per_second + 0.3 * self._prior


def default_meter(engine: Engine) -> SpeedMeter:
    """First guesses, measured on two cores: Whisper base ~0.1 s + 0.05 s per second, pocketsphinx 0.25 s per second."""
    if engine.kind == "whisper":
        return SpeedMeter(fixed=0.1, per_second=0.05)
    return SpeedMeter(fixed=0.02, per_second=0.25)


def budget_for(engine: Engine) -> float:
    return WHISPER_BUDGET_SECONDS if engine.kind == "whisper" else LIVE_ENGINE_BUDGET_SECONDS


class FinalPass:
    """Decodes with `engine` after release when that fits `budget` seconds; one per engine, kept."""

    def __init__(self, engine: Engine, *, budget: float | None = None, meter: SpeedMeter | None = None) -> None:
        self.engine = engine
        self.budget = budget_for(engine) if budget is None else budget
        self._grows = budget is None and engine.kind == "whisper"  # with the audio left to read
        self.meter = meter or default_meter(engine)

    def seconds_allowed(self, audio_seconds: float) -> float:
        """The seconds this pass may take for `audio_seconds` of audio left to read."""
        return max(self.budget, WHISPER_SECONDS_PER_SECOND * audio_seconds) if self._grows else self.budget

    def run(self, pcm: bytes, live: EngineResult, hints: Hints = NO_HINTS) -> FinalPassOutcome:
        if not pcm:
            return FinalPassOutcome(live, False, 0.0, "no audio")
        return self.run_work(seconds_of(pcm), lambda: self.engine.decode(pcm, hints), lambda: live)

    def run_work(
        self,
        audio: float,
        work: Callable[[], EngineResult],
        fallback: Callable[[], EngineResult],
        give_up: Callable[[], None] = lambda: None,
    ) -> FinalPassOutcome:
        """`work` (decoding `audio` seconds) when it fits the budget; else `fallback()`, asked after the wait, so
        it holds whatever exists by then. `give_up` tells a `work` that will not be waited for to stop early."""
        budget = self.seconds_allowed(audio)
        predicted = self.meter.predict(audio)
        if predicted > budget:
            self.meter.relax()
            give_up()
            note = f"final pass skipped: {self.engine.kind} would take ~{predicted:.2f} s (budget {budget:.2f} s)"
            log.info(note)
            return FinalPassOutcome(fallback(), False, 0.0, note)
        box: list[EngineResult] = []
        failure: list[BaseException] = []
        began = time.monotonic()

        def run() -> None:
            try:
                box.append(work())
            except Exception as error:  # reported below as a fallback, never raised into the dictation
                failure.append(error)
            finally:
                self.meter.record(audio, time.monotonic() - began)

        worker = engine_threads.start(run, "murmur-final-pass")
        worker.join(budget if self.engine.kind == "whisper" else None)
        waited = time.monotonic() - began
        if failure:
            log.warning("the final pass failed, the live text stands: %r", failure[0])
            return FinalPassOutcome(fallback(), False, waited, f"final pass failed: {failure[0]}")
        if not box:  # still running: its result is dropped when it comes, its time still teaches the meter
            give_up()
            note = f"final pass too slow (over {budget:.2f} s); the live text stands"
            log.warning(note)
            return FinalPassOutcome(fallback(), False, waited, note)
        result = box[0]
        if not result.text.strip() and (live := fallback()).text.strip():
            return FinalPassOutcome(live, False, waited, "final pass heard nothing; the live text stands")
        return FinalPassOutcome(result, True, waited)


_passes: dict[int, FinalPass] = {}
_passes_lock = threading.Lock()


def final_pass_for(engine: Engine) -> FinalPass:
    """The one FinalPass of a loaded engine (engines live as long as the process), so its speed is learned."""
    with _passes_lock:
        found = _passes.get(id(engine))
        if found is None or found.engine is not engine:
            found = _passes[id(engine)] = FinalPass(engine)
        return found
