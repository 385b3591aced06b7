"""Finished stretches of speech decoded for good while the user still speaks; Whisper's live words read on the way.

Any engine's full-utterance `decode` reads each stretch (app/speech_in/stretches.py) on one background worker as
soon as the stretch is finished, so at release only the last one is left. The worker also reads the open stretch
again from its start: when a pause begins (if the user lets go in that pause, the read is already the final text
of the stretch), and, for live words (`live`, Whisper), about every `READ_EVERY_SECONDS`, keeping the words two
reads agree on (app/speech_in/agreement.py). Whisper lets go of the GIL while it decodes, so the recording goes
on. When the reads lag the speech by seconds the machine is too slow for them: they stop (`behind`) and the
caller shows another engine's partials; finished stretches are still decoded, and once they all are, at the start
of a new stretch, the reads go on.
"""

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace

from app.domain.hints import NO_HINTS, Hints
from app.speech_in import engine_threads
from app.speech_in.agreement import LocalAgreement
from app.speech_in.audio import BYTES_PER_SAMPLE, SAMPLE_RATE
from app.speech_in.segments import FRAME_BYTES
from app.speech_in.stretches import Cut, FrameReader, StretchCutter, frames_of, min_seconds
from app.speech_in.transcriber import Engine, EngineResult, LiveText

log = logging.getLogger("murmur.speech")

READ_EVERY_SECONDS = 0.6  # UFAL's whisper_streaming reads every 0.5-1 s
# A pause this long after speech starts a read of the stretch; a read that ends this far past the last speech
# frame holds all of it (the detector's frames may miss a soft word ending, so not right at it).
TAIL_SECONDS = 0.21
# Falling behind: more speech heard than this and not yet read (reads taking over ~0.7 s each, where Whisper base
# reads 5 s in ~0.3 s on two quiet cores): the words on screen trail the voice, and the release would wait as long.
BEHIND_SECONDS = 1.5
# Whisper reads its prompt as the text before the audio: the stretches before it, so a sentence cut from its
# neighbours still reads as part of them (20 flite sentences in 13 stretches: 10.5% of words wrong alone, 7.0%
# with this much of the text before; ~0.1 s more per stretch). pocketsphinx's phrases teach its domain model, not this.
PROMPTED_KINDS = ("whisper",)
CONTEXT_CHARACTERS = 200
BYTES_PER_SECOND = SAMPLE_RATE * BYTES_PER_SAMPLE
NO_WORDS = EngineResult("", [])


@dataclass(frozen=True)
class Stretch:
    start: int  # bytes into the recording
    end: int
    speech_end: int  # after its last speech frame (== start: no speech in it)


@dataclass(frozen=True)
class Read:
    start: int  # bytes into the recording: the stretch read
    end: int  # how far it read
    result: EngineResult

    def holds(self, start: int, speech_end: int) -> bool:
        """Did this read cover all the speech of the stretch starting at `start`?"""
        return self.start == start and self.end >= speech_end + frames_of(TAIL_SECONDS) * FRAME_BYTES


def falls_behind(unread_speech_seconds: float) -> bool:
    """Have the reads fallen behind, with this much of the open stretch's speech not yet read?"""
    return unread_speech_seconds > BEHIND_SECONDS


def shifted(result: EngineResult, seconds: float) -> EngineResult:
    """`result` with its word times moved from its stretch's start to the recording's."""
    return replace(result, words=[replace(w, start=w.start + seconds, end=w.end + seconds) for w in result.words])


class StretchDecoder:
    """One recording's audio in; each finished stretch's final text out. Feed it from one thread."""

    def __init__(self, engine: Engine, hints: Hints = NO_HINTS, *, live: bool = False) -> None:
        self.engine = engine
        self.behind = False
        self._hints = hints
        self.reads_live = live  # reads the open stretch for live words
        self._frames = FrameReader()
        self._cutter = StretchCutter(min_seconds(engine.kind))
        self._pcm = bytearray()
        self._stretches: list[Stretch] = []  # finished, in order
        self._decoded: dict[int, EngineResult] = {}  # by stretch start, in the stretch's own time
        self._reads: dict[int, Read] = {}  # the latest read of each stretch, by its start
        self._agreement = LocalAgreement()
        self._ended = False  # no more audio: the open stretch is finished
        self._given_up = False  # nobody waits for more decoding
        self._busy = 0  # decodes under way
        self._claimed: set[int] = set()  # stretches being decoded, by their start
        self._reading: Read | None = None  # the read under way (no words yet)
        self._failure: Exception | None = None  # what stopped the worker
        self._lock = threading.Condition()
        self._worker = engine_threads.start(self._work, "murmur-stretches")

    # -- the feeding side ----------------------------------------------------------------------------

    def feed(self, pcm: bytes) -> None:
        with self._lock:
            self._pcm.extend(pcm)
            for speech in self._frames.feed(pcm):
                cut = self._cutter.push(speech)
                if cut is not None:
                    self._finish_stretch(cut)
            if self.reads_live and not self.behind and falls_behind(self._unread_seconds()):
                self.behind = True
                log.warning(
                    "%s falls behind the speech (over %.1f s not read): no reads until it catches up",
                    self.engine.name,
                    BEHIND_SECONDS,
                )
            elif self.behind and self._caught_up():
                self.behind = False
                log.info("%s has caught up with the speech: its reads go on", self.engine.name)
            self._lock.notify_all()

    def _caught_up(self) -> bool:
        """Behind, has the worker caught up: every finished stretch decoded, nothing under way, and the open stretch
        new (a load spike has passed; a machine too slow falls behind again, a second and a half later)?"""
        return (
            not self._busy
            and all(not self._to_decode(s) for s in self._stretches)
            and self._unread_seconds() < READ_EVERY_SECONDS
        )

    def _unread_seconds(self) -> float:
        """Speech in the open stretch that no finished read has covered."""
        speech_end = self._cutter.speech_end
        if speech_end is None:
            return 0.0
        start = self._cutter.begin * FRAME_BYTES
        read = self._reads.get(start)
        return max(0, speech_end * FRAME_BYTES - (read.end if read is not None else start)) / BYTES_PER_SECOND

    def _finish_stretch(self, cut: Cut) -> None:
        start = self._stretches[-1].end if self._stretches else 0
        self._stretches.append(Stretch(start, cut.end * FRAME_BYTES, cut.speech_end * FRAME_BYTES))
        self._agreement = LocalAgreement()

    @property
    def partial(self) -> str:
        return self.live.text

    @property
    def live(self) -> LiveText:
        """Decoded stretches and the open stretch's agreed words, then what may still change."""
        with self._lock:
            parts = [
                (self._decoded[s.start].text, True) if s.start in self._decoded else (self._read_text(s), False)
                for s in self._stretches
            ]
            open_text = self._agreement.live
            parts += [(open_text.committed, True), (open_text.tentative, False)]
        settled = next((i for i, (_, final) in enumerate(parts) if not final), len(parts))
        return LiveText(_joined(t for t, _ in parts[:settled]), _joined(t for t, _ in parts[settled:]))

    def _read_text(self, stretch: Stretch) -> str:
        read = self._reads.get(stretch.start)
        return read.result.text if read is not None else ""

    def close(self) -> None:
        """No more audio: what is left is the last stretch."""
        with self._lock:
            if not self._ended:
                self._ended = True
                end = len(self._pcm)
                speech_end = self._cutter.speech_end
                start = self._stretches[-1].end if self._stretches else 0
                if end > start:
                    speech = start if speech_end is None else speech_end * FRAME_BYTES
                    self._stretches.append(Stretch(start, end, speech))
                self._lock.notify_all()

    def remaining_seconds(self) -> float:
        """Audio still to decode (finished stretches not decoded, nor read whole)."""
        with self._lock:
            return sum(s.end - s.start for s in self._stretches if self._to_decode(s)) / BYTES_PER_SECOND

    def finish(self) -> EngineResult:
        """Close, decode what is left and return the whole recording's text. This thread decodes too: the worker
        may be busy with a read that the last words came after."""
        self.close()
        while (job := self._wait_for_job(until_done=True)) is not None:
            self._run(job)
        if self._failure is not None:
            raise self._failure
        return self.result()

    def give_up(self) -> None:
        """Nobody waits for more: the worker stops after what it is decoding now."""
        with self._lock:
            self._given_up = True
            self._lock.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until the worker has nothing left to do for the audio fed so far (benches and tests feed faster
        than real time); False if it still had after `timeout` seconds."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._busy and self._next_job() is None, timeout)

    def cancel(self) -> None:
        self.close()
        self.give_up()

    def lacking(self) -> list[tuple[int, int]]:
        """Where (bytes into the recording) stretches with speech are neither decoded nor read whole (yet)."""
        with self._lock:
            return [(s.start, s.end) for s in self._stretches if self._to_decode(s)]

    def result(self, live: EngineResult | None = None) -> EngineResult:
        """The recording's text as it stands: each stretch decoded or read whole, else `live`'s words within it
        (a streaming engine's, timed from the recording's start), else what a read of it heard so far."""
        with self._lock:
            stretches = [(s, self._to_decode(s)) for s in self._stretches]
            decoded, reads = dict(self._decoded), dict(self._reads)
        parts: list[EngineResult] = []
        for stretch, undecoded in stretches:
            read = reads.get(stretch.start)
            if not undecoded:
                found = decoded.get(stretch.start) or (read.result if read is not None else NO_WORDS)
                parts.append(shifted(found, stretch.start / BYTES_PER_SECOND))
            elif live is not None and live.words:
                parts.append(_words_between(live, stretch.start / BYTES_PER_SECOND, stretch.end / BYTES_PER_SECOND))
            elif read is not None:
                parts.append(shifted(read.result, stretch.start / BYTES_PER_SECOND))
        return EngineResult(_joined(p.text for p in parts), [w for p in parts for w in p.words])

    # -- the worker ---------------------------------------------------------------------------------

    def _to_decode(self, stretch: Stretch) -> bool:
        if stretch.start in self._decoded:
            return False
        read = self._reads.get(stretch.start)
        return stretch.speech_end > stretch.start and not (read and read.holds(stretch.start, stretch.speech_end))

    def _work(self) -> None:
        while (job := self._wait_for_job(until_done=False)) is not None:
            self._run(job)

    def _wait_for_job(self, *, until_done: bool) -> tuple[int, int, bool] | None:
        """The next job, claimed; None when there will be none (the worker's), or when every stretch is decoded
        (`until_done`: the finisher's, which also waits for the worker's last stretch)."""
        with self._lock:
            while (job := self._next_job()) is None:
                finished = self._ended and all(s.start in self._decoded for s in self._stretches)
                if self._given_up or finished or (until_done and self._failure is not None):
                    return None
                self._lock.wait()
            self._busy += 1
            if job[2]:
                self._claimed.add(job[0])
            else:
                self._reading = Read(job[0], job[1], NO_WORDS)
            return job

    def _hints_before(self, start: int) -> Hints:
        """The user's hints, and for Whisper the end of the text decoded before `start` as the first phrase."""
        if self.engine.kind not in PROMPTED_KINDS:
            return self._hints
        with self._lock:
            before = _joined(
                self._decoded[s.start].text for s in self._stretches if s.end <= start and s.start in self._decoded
            )
        if not before:
            return self._hints
        context = before[-CONTEXT_CHARACTERS:].split(" ", 1)[-1] if len(before) > CONTEXT_CHARACTERS else before
        return replace(self._hints, phrases=(context, *self._hints.phrases))

    def _run(self, job: tuple[int, int, bool]) -> None:
        start, end, final = job
        began = time.monotonic()
        try:
            result = self._decode(start, end)
        except Exception as error:  # raised by finish(); what was decoded before still counts
            log.warning("decoding a stretch of speech failed: %r", error)
            with self._lock:
                self._failure, self._given_up = error, True
                self._busy -= 1
                self._lock.notify_all()
            return
        with self._lock:
            if final:
                self._decoded[start] = result
            else:
                self._reading = None
                self._heard_read(Read(start, end, result), time.monotonic() - began)
            self._busy -= 1
            self._lock.notify_all()

    def _decode(self, start: int, end: int) -> EngineResult:
        """The stretch from `start` to `end`, read with the text before it as its prompt (a read holding more words
        than the time allows is read again by the engine without any: app/speech_in/whisper_engine.py)."""
        return self.engine.decode(bytes(self._pcm[start:end]), self._hints_before(start))

    def _next_job(self) -> tuple[int, int, bool] | None:
        """(start, end, final): the first finished stretch not yet decoded, else a read of the open one, if due."""
        if self._given_up:
            return None
        for stretch in self._stretches:
            if stretch.start in self._decoded or stretch.start in self._claimed:
                continue
            read = self._reads.get(stretch.start)
            if stretch.speech_end == stretch.start:
                self._decoded[stretch.start] = NO_WORDS
            elif read is not None and read.holds(stretch.start, stretch.speech_end):
                self._decoded[stretch.start] = read.result
            elif self._reading is not None and self._reading.holds(stretch.start, stretch.speech_end):
                continue  # the read under way will be its text: decoding it beside that read would slow both
            else:
                return stretch.start, stretch.end, True
        return self._due_read()

    def _due_read(self) -> tuple[int, int, bool] | None:
        speech_end = self._cutter.speech_end
        if self._ended or self.behind or speech_end is None:
            return None
        start, end = self._cutter.begin * FRAME_BYTES, len(self._pcm)
        speech_end *= FRAME_BYTES
        read = self._reads.get(start)
        if read is not None and read.holds(start, speech_end):
            return None
        read_end = read.end if read is not None else start
        tail = frames_of(TAIL_SECONDS) * FRAME_BYTES
        pause_began = end >= speech_end + tail
        grown = self.reads_live and end - read_end >= READ_EVERY_SECONDS * BYTES_PER_SECOND
        return (start, end, False) if pause_began or grown else None

    def _heard_read(self, read: Read, seconds: float) -> None:
        self._reads[read.start] = read
        if read.start != self._cutter.begin * FRAME_BYTES:
            return  # the stretch finished meanwhile: this read may still stand as its final text
        if self.reads_live:
            self._agreement.read(read.result.text)
        log.debug(
            "read %.1f s of speech in %.2f s (%.1f s behind)",
            (read.end - read.start) / BYTES_PER_SECOND,
            seconds,
            (len(self._pcm) - read.end) / BYTES_PER_SECOND,
        )


def _words_between(result: EngineResult, start: float, end: float) -> EngineResult:
    words = [w for w in result.words if start <= (w.start + w.end) / 2 < end]
    return EngineResult(" ".join(w.text for w in words), words)


def _joined(texts: Iterable[str]) -> str:
    return " ".join(t for t in texts if t)
