"""Words wrong on real human voices, per engine and mode, beside the same sentences in a synthetic voice.

The real voices are the frozen set in bench/real_voices/ (52 clips, 266 s, recordings that ship inside public
packages, with their packages' own transcripts); the synthetic ones are the same transcripts spoken by flite (slt).
Each engine reads each clip:

- bundled, file: the bundled pocketsphinx engine as `murmur transcribe` reads a file (pieces between pauses);
- whisper, file: Whisper base as `murmur transcribe` reads a file (beam of five, Whisper's 30 s window);
- whisper, release: the pass a dictation's release runs (greedy, a window fitted to the speech);
- whisper, hints: the same with a list's words as hints (a list about other things: hints must not hurt);
- whisper, live: the clip played in real time into a dictation (Whisper's live words, its stretches decoded while
  the clip plays), with release-to-text times;
- whisper, live + hints (`--modes live-hints`): the same with the list's words as hints, as a dictation has them by
  default (speech.vocabulary_hints).

Scoring: lower case, no punctuation, numerals spelt out, and the fillers "uh"/"um" left out on both sides (the
spontaneous clips' transcripts write them; nobody dictates them). The "std" column scores the same reads after
Whisper's English normaliser (the one published word error rates use: "Mr." is "mister", "gonna" is "going to",
"twenty twenty" is "2020"), so that figures from elsewhere compare. Prints the words-wrong share per engine and mode,
per style of speech, and the decode time per second of audio (the machine's load is printed too: times on a busy
machine are not comparable).

    python bench/real_voice_bench.py [--limit N] [--modes file,release,hints,live,live-hints] [--no-synthetic]
"""

import argparse
import importlib.util
import os
import statistics
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from whisper_normalizer.english import EnglishTextNormalizer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import SpeechSettings  # noqa: E402
from app.domain.hints import NO_HINTS, Hints  # noqa: E402
from app.speech_in.engines import EngineChoice, load_engine  # noqa: E402
from app.speech_in.faint_speech import faint_reader  # noqa: E402
from app.speech_in.files import transcribe_file  # noqa: E402
from app.speech_in.vad import find_speech  # noqa: E402
from app.speech_in.wavfile import read_audio  # noqa: E402
from tests.support.speech import edit_distance, flite_wav, have, whisper_base_model, words_of  # noqa: E402

HERE = Path(__file__).resolve().parent
CACHE = Path.home() / ".cache" / "murmur-bench"
FILLERS = frozenset({"uh", "um", "uhm", "erm", "hmm", "mm"})
STANDARD = EnglishTextNormalizer()
# A list about other things than the clips say: what a user's hints are, most of the time.
LIST_HINTS = Hints(
    terms=("Dr. Okafor", "Zumba", "Kowalski"),
    phrases=("Buy oat milk", "Call the dentist", "Pay the water bill", "Book the MOT", "Pick up the dry cleaning"),
)


@dataclass(frozen=True)
class Clip:
    id: str
    path: Path
    transcript: str
    style: str
    seconds: float


@dataclass(frozen=True)
class Read:
    clip: Clip
    text: str
    seconds: float  # spent decoding (or, live: from release to the final text)


def _fetcher() -> ModuleType:
    spec = importlib.util.spec_from_file_location("real_voices_fetch", HERE / "real_voices" / "fetch.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def real_clips() -> list[Clip]:
    """The frozen set, fetched once into the cache."""
    fetched = _fetcher().fetch(CACHE / "real-voices")
    styles = {
        row["id"]: row.get("style", "")
        for row in tomllib.loads((HERE / "real_voices" / "manifest.toml").read_text())["clip"]
    }
    return [Clip(c.id, c.path, c.transcript, styles.get(c.id, ""), c.seconds) for c in fetched]


def synthetic_clips(clips: Sequence[Clip]) -> list[Clip]:
    """The same transcripts in flite's slt voice."""
    folder = CACHE / "real-voices-flite"
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for clip in clips:
        path = folder / f"{clip.id}.wav"
        if not path.exists():
            flite_wav(clip.transcript, path)
        made.append(Clip(clip.id, path, clip.transcript, clip.style, read_audio(path).seconds))
    return made


def scored_words(text: str) -> list[str]:
    return [word for word in words_of(text) if word not in FILLERS]


def standard_words(text: str) -> list[str]:
    return [word for word in STANDARD(text).split() if word not in FILLERS]


def words_wrong(reads: Sequence[Read], words: Callable[[str], list[str]] = scored_words) -> float:
    edits = sum(edit_distance(words(r.clip.transcript), words(r.text)) for r in reads)
    return edits / max(1, sum(len(words(r.clip.transcript)) for r in reads))


Reader = Callable[[Clip], Read]


def file_reader(engine: str, model: Path) -> Reader:
    settings = SpeechSettings(whisper_model=str(model)) if engine == "whisper" else SpeechSettings()
    final = "whisper" if engine == "whisper" else "off"

    def read(clip: Clip) -> Read:
        done = transcribe_file(clip.path, settings, engine="pocketsphinx", final_engine=final)
        return Read(clip, done.transcript.text, done.transcript.elapsed_seconds)

    return read


def release_reader(model: Path, hints: Hints) -> Reader:
    whisper = load_engine(EngineChoice("whisper", model, "en"))

    def read(clip: Clip) -> Read:
        pcm = read_audio(clip.path).pcm
        began = time.perf_counter()
        faint = faint_reader(whisper, pcm, find_speech(pcm))  # a whisper the detector missed, as a dictation reads it
        text = (faint.read_faint(pcm, hints) if faint is not None else whisper.decode(pcm, hints)).text
        return Read(clip, text, time.perf_counter() - began)

    return read


def live_reader(model: Path, hints: Hints) -> Reader:
    """Each clip played in real time into a dictation whose live words and final text are Whisper's
    (bench/live_whisper_bench.py's paced player in place of the microphone), with `hints` as the user's."""
    from bench.live_whisper_bench import dictate

    settings = SpeechSettings(engine="pocketsphinx", whisper_model=str(model), vocabulary_hints=bool(hints))

    def read(clip: Clip) -> Read:
        _, text, release_seconds, _ = dictate(settings, "whisper", read_audio(clip.path).pcm, hints)
        return Read(clip, text, release_seconds)

    return read


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} / {five:.1f} on {os.cpu_count()} cores"


def row(name: str, reads: Sequence[Read], styles: Sequence[str]) -> str:
    audio = sum(r.clip.seconds for r in reads)
    speed = sum(r.seconds for r in reads) / max(audio, 1e-9)
    by_style = [
        f"{words_wrong([r for r in reads if r.clip.style == style]):6.1%}"
        if any(r.clip.style == style for r in reads)
        else "     -"
        for style in styles
    ]
    standard = words_wrong(reads, standard_words)
    return f"{name:<28} {words_wrong(reads):7.1%} {standard:6.1%}  {' '.join(by_style)}  {speed:6.2f} s/s"


def release_times(reads: Sequence[Read]) -> str:
    spans = sorted(r.seconds * 1000 for r in reads if 3 <= r.clip.seconds <= 8)
    if not spans:
        return "no 3-8 s clips"
    p95 = spans[min(len(spans) - 1, round(0.95 * (len(spans) - 1)))]
    return (
        f"release to text, 3-8 s clips: median {statistics.median(spans):.0f} ms, p95 {p95:.0f} ms ({len(spans)} clips)"
    )


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="only the first N clips")
    parser.add_argument("--modes", default="file,release,hints,live,live-hints")
    parser.add_argument("--no-synthetic", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print each clip read with a word wrong")
    args = parser.parse_args(argv)
    modes = set(args.modes.split(","))
    clips = real_clips()[: args.limit or None]
    sets = {"real": clips}
    if not args.no_synthetic and have("flite"):
        sets["flite"] = synthetic_clips(clips)
    model = whisper_base_model(CACHE / "whisper-base")
    styles = sorted({clip.style for clip in clips})
    print(f"{len(clips)} real clips, {sum(c.seconds for c in clips):.0f} s; {load()}")
    header = f"{'engine, mode (voices)':<28} {'wrong':>7} {'std':>6}  {' '.join(f'{s[:6]:>6}' for s in styles)}"
    print(f"{header}  {'decode':>8}")
    readers: list[tuple[str, Reader]] = []
    if "file" in modes:
        readers += [
            ("bundled, file", file_reader("pocketsphinx", model)),
            ("whisper, file", file_reader("whisper", model)),
        ]
    if "release" in modes:
        readers.append(("whisper, release", release_reader(model, NO_HINTS)))
    if "hints" in modes:
        readers.append(("whisper, release + hints", release_reader(model, LIST_HINTS)))
    if "live" in modes:
        readers.append(("whisper, live", live_reader(model, NO_HINTS)))
    if "live-hints" in modes:
        readers.append(("whisper, live + hints", live_reader(model, LIST_HINTS)))
    for name, reader in readers:
        live = ", live" in name
        for voices, chosen in sets.items():
            if live and voices != "real":
                continue  # real time: the real voices only
            reads = [reader(clip) for clip in chosen]
            print(row(f"{name} ({voices})", reads, styles), flush=True)
            if args.misses:
                for read in reads:
                    if scored_words(read.text) != scored_words(read.clip.transcript):
                        print(f"    {read.clip.id}: {read.clip.transcript!r} -> {read.text!r}")
            if live:
                print(f"  {release_times(reads)}")
    print(load())


if __name__ == "__main__":
    main(sys.argv[1:])
