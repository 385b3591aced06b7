"""Does rescoring pocketsphinx's N-best list with the domain language model (app/speech_in/domain_lm.py) help?

Two corpora, each spoken by flite's slt, awb and rms voices and Piper's neural "joe" voice, padded with
silence as a microphone hears it:
- TUNING: 30 sentences of our own of the app's kind plus 6 outside it (revenue, photosynthesis, ...). The
  mix and N are chosen on it (the grid is printed), and it checks that out-of-domain speech is not hurt.
- BENCHMARK: tests/support/speech.py DICTATION (32 sentences), used only to report the final figure with
  the module's defaults; nothing is tuned on it.
Each recording is decoded twice: one full-utterance pass (how files and the final text are decoded) and
streamed in 3200-byte blocks with full_utt=False from the mean learned on a warm-up sentence of the same
voice (the live path once it knows the microphone). WER before (1-best) and after rescoring, the N-best
oracle, and the cost of a rescoring call (N-best extraction + scoring) on a 5 s utterance. Piper draws new
noise for every synthesis, so its "joe" figures move by a few points from run to run; before/after within
a run are on the same audio. Full-utterance passes use a fresh decoder each: a decoder that has streamed
once keeps live CMN for good (pocketsphinx's feat_cmn switches batch to live).

Run: .venv/bin/python bench/domain_lm_bench.py [--cache FILE]   (the cache keeps the decoded N-best lists)
"""

import argparse
import itertools
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.speech_in.domain_lm import (  # noqa: E402
    MIX,
    N_BEST,
    DomainRescorer,
    GenericModel,
)
from app.speech_in.wavfile import read_audio  # noqa: E402
from tests.support.speech import (  # noqa: E402
    DICTATION,
    corpus_word_error_rate,
    edit_distance,
    flite_wav,
    pad_with_silence,
    piper_wav,
    words_of,
)

VOICES = ("slt", "awb", "rms", "joe")
BLOCK = 3200  # 100 ms of 16 kHz int16, as the microphone delivers it
MAX_N = 200  # hypotheses kept per utterance (tuning looks at the first N of them)
WARM_UP = "this is a short sentence to learn the sound of the microphone"

# The tuning set: our own sentences of the app's kind, none of them in DICTATION or the phrase file.
TUNING_IN_DOMAIN = [
    "remind me to feed the cat at seven tonight",
    "buy cheese butter and tomatoes",
    "the dishes are done",
    "mark the tax return as done",
    "idea a mobile app for tracking recipes",
    "call the plumber on tuesday morning",
    "snooze the car insurance until friday",
    "archive the holiday photos",
    "urgent renew the car insurance today",
    "remind me to walk the dog every evening",
    "we are out of sugar and rice",
    "pick up the kids from school at three",
    "i think the presentation needs more pictures",
    "what is on my list for tomorrow",
    "book a flight to chicago next month",
    "the slides for the conference are finished",
    "clean the bathroom on saturday morning",
    "add shampoo and soap to the shopping list",
    "remind me to stretch every hour",
    "pay the water bill by the fifteenth",
    "email the teacher about the field trip",
    "idea write a short story about a lighthouse",
    "have lunch with sarah on wednesday",
    "the printer needs new ink",
    "go for a run every morning at six thirty",
    "order a new charger for my laptop",
    "remind me to call grandma on her birthday",
    "take the bins out on thursday night",
    "finish the budget before the meeting",
    "snooze this until next week",
]
TUNING_OUT_OF_DOMAIN = [
    "the quarterly revenue grew by four percent",
    "photosynthesis converts light into chemical energy",
    "the committee rejected the proposal after a long debate",
    "she played the violin at the concert last night",
    "interest rates are expected to rise again",
    "the river flooded several villages in the valley",
]
TUNING = TUNING_IN_DOMAIN + TUNING_OUT_OF_DOMAIN
# What a user's list might hold while the tuning sentences are said (entry summaries, as the app keeps them).
TUNING_USER_PHRASES = [
    "Tax return",
    "Car insurance renewal",
    "Holiday photos",
    "Conference slides",
    "Call the plumber",
    "Budget for Q3",
    "Water bill",
]

MIXES = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
NS = (10, 20, 50, 100, 200)


# -- decoding ---------------------------------------------------------------------------------------------


def new_decoder() -> Any:
    from pocketsphinx import Decoder

    return Decoder(samprate=16000, loglevel="FATAL")


def nbest_of(decoder: Any, n: int = MAX_N) -> list[tuple[str, float]]:
    return [(h.hypstr, h.score) for h in itertools.islice(decoder.nbest(), n)]


def decode_full(decoder: Any, pcm: bytes) -> list[tuple[str, float]]:
    """A full-utterance pass on a fresh decoder (`fresh_decoder`): a decoder that has streamed before, even
    with its mean reset by set_cmn, does measurably worse in full-utterance passes (see the report)."""
    decoder.start_utt()
    decoder.process_raw(pcm, False, True)
    decoder.end_utt()
    return nbest_of(decoder)


def decode_stream(decoder: Any, pcm: bytes, mean: str) -> list[tuple[str, float]]:
    decoder.set_cmn(mean)
    decoder.start_utt()
    for i in range(0, len(pcm), BLOCK):
        decoder.process_raw(pcm[i : i + BLOCK], False, False)
    decoder.end_utt()
    return nbest_of(decoder)


def speak(text: str, voice: str, folder: Path, name: str) -> bytes:
    raw = folder / f"{name}-raw.wav"
    if voice == "joe":
        piper_wav(text, raw)
    else:
        flite_wav(text, raw, voice)
    return read_audio(pad_with_silence(raw, folder / f"{name}.wav", 0.3, 0.5)).pcm


def decode_voice(voice: str) -> dict[str, Any]:
    """Every sentence of both corpora in this voice, each recording decoded both ways: {corpus: [utterance]}."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        streaming = new_decoder()
        decode_full(streaming, speak(WARM_UP, voice, folder, "warm"))
        warm = streaming.get_cmn(False)  # this voice's mean, as the app keeps it per microphone
        for corpus, texts in (("tuning", TUNING), ("benchmark", DICTATION)):
            out[corpus] = []
            for i, text in enumerate(texts):
                pcm = speak(text, voice, folder, f"{corpus}-{i}")
                out[corpus].append(
                    {
                        "ref": text,
                        "seconds": len(pcm) / 32000,
                        "full": decode_full(new_decoder(), pcm),
                        "stream": decode_stream(streaming, pcm, warm),
                    }
                )
    return out


def decode_all() -> dict[str, Any]:
    """{voice: {corpus: [utterance]}}"""
    with ProcessPoolExecutor(max_workers=2) as pool:
        return dict(zip(VOICES, pool.map(decode_voice, VOICES), strict=True))


# -- scoring ----------------------------------------------------------------------------------------------


class Scoring:
    """Rescores cached N-best lists with the real generic model (one decoder kept for its LM)."""

    def __init__(self) -> None:
        decoder = new_decoder()
        self.generic = GenericModel(decoder.get_lm())
        self.language_weight = float(decoder.config["lw"])

    def pick(self, rescorer: DomainRescorer | None, nbest: Sequence[Sequence[Any]], n: int) -> str:
        if not nbest:
            return ""
        if rescorer is None:
            return str(nbest[0][0])
        pairs = [(str(text), float(score)) for text, score in nbest[:n]]
        return rescorer.rescore(pairs, self.generic, self.language_weight) or ""


def wer(pairs: list[tuple[str, str]]) -> float:
    return 100 * corpus_word_error_rate(pairs)


def oracle(rows: list[dict[str, Any]], mode: str, n: int) -> float:
    edits = words = 0
    for row in rows:
        ref = words_of(row["ref"])
        words += len(ref)
        edits += min((edit_distance(ref, words_of(text)) for text, _ in row[mode][:n]), default=len(ref))
    return 100 * edits / max(1, words)


def corpus_wer(
    scoring: Scoring, rescorer: DomainRescorer | None, data: dict[str, Any], corpus: str, mode: str, n: int, only: Any
) -> dict[str, float]:
    """WER per voice and over all voices; `only` picks the rows (by reference text)."""
    result, everything = {}, []
    for voice in VOICES:
        pairs = [(r["ref"], scoring.pick(rescorer, r[mode], n)) for r in data[voice][corpus] if only(r["ref"])]
        result[voice] = wer(pairs)
        everything += pairs
    result["all"] = wer(everything)
    return result


def row(label: str, figures: dict[str, float]) -> str:
    return f"  {label:<34}" + "".join(f"{figures[v]:>7.1f}" for v in (*VOICES, "all"))


def header() -> str:
    return f"  {'WER %':<34}" + "".join(f"{v:>7}" for v in (*VOICES, "all"))


# -- cost -------------------------------------------------------------------------------------------------


def cost(rescorer: DomainRescorer) -> tuple[float, float, float]:
    """Median ms for N-best extraction + rescoring of a 5 s utterance, and for the extraction alone; ms to train."""
    text = "remind me to call the insurance company about the broken window on monday at half past nine"
    with tempfile.TemporaryDirectory() as tmp:
        pcm = speak(text, "slt", Path(tmp), "five")
    pcm = pcm[: 5 * 32000].ljust(5 * 32000, b"\0")
    decoder = new_decoder()
    decoder.start_utt()
    decoder.process_raw(pcm, False, True)
    decoder.end_utt()
    whole, extraction = [], []
    for _ in range(20):
        started = time.perf_counter()
        rescorer.best(decoder)
        whole.append(time.perf_counter() - started)
        started = time.perf_counter()
        nbest_of(decoder, rescorer.n_best)
        extraction.append(time.perf_counter() - started)
    started = time.perf_counter()
    DomainRescorer(extra_phrases=[f"entry number {i} about the garden shed" for i in range(200)])
    train = time.perf_counter() - started
    return 1000 * statistics.median(whole), 1000 * statistics.median(extraction), 1000 * train


# -- the report -------------------------------------------------------------------------------------------


def in_domain(text: str) -> bool:
    return text not in TUNING_OUT_OF_DOMAIN


def out_of_domain(text: str) -> bool:
    return text in TUNING_OUT_OF_DOMAIN


def everything(text: str) -> bool:
    return True


def tune(scoring: Scoring, data: dict[str, Any]) -> None:
    print("\nTuning grid (tuning set, all 36 sentences x 4 voices; WER %, full-utterance / streaming):")
    print("  mix  " + "".join(f"{f'N={n}':>14}" for n in NS))
    for mix in MIXES:
        rescorer = DomainRescorer(mix=mix)
        cells = []
        for n in NS:
            full = corpus_wer(scoring, rescorer, data, "tuning", "full", n, everything)["all"]
            stream = corpus_wer(scoring, rescorer, data, "tuning", "stream", n, everything)["all"]
            cells.append(f"{full:5.1f} / {stream:4.1f}")
        print(f"  {mix:.1f}  " + "".join(f"{c:>14}" for c in cells))


def report(scoring: Scoring, data: dict[str, Any], title: str) -> None:
    rescorer = DomainRescorer()
    with_user = DomainRescorer(extra_phrases=TUNING_USER_PHRASES)
    print(f"\n{title} (mix {MIX}, N {N_BEST})")
    print(header())
    for mode, label in (("full", "full utterance"), ("stream", "streaming")):
        print(f" {label}:")
        for corpus, subsets in (
            ("tuning", (("in domain (30)", in_domain), ("out of domain (6)", out_of_domain))),
            ("benchmark", (("DICTATION (32)", everything),)),
        ):
            for name, only in subsets:
                tag = f"{corpus} {name}"
                print(row(f"{tag}: 1-best", corpus_wer(scoring, None, data, corpus, mode, 1, only)))
                print(row(f"{tag}: rescored", corpus_wer(scoring, rescorer, data, corpus, mode, N_BEST, only)))
                if corpus == "tuning" and only is in_domain:
                    figures = corpus_wer(scoring, with_user, data, corpus, mode, N_BEST, only)
                    print(row(f"{tag}: + user list", figures))
            oracle_figures = {v: oracle(data[v][corpus], mode, N_BEST) for v in VOICES}
            oracle_figures["all"] = statistics.mean(oracle_figures.values())
            print(row(f"{corpus}: oracle of {N_BEST}-best", oracle_figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, help="keep the decoded N-best lists in this JSON file")
    args = parser.parse_args()
    data: dict[str, Any] = {}
    if args.cache and args.cache.exists():
        data = json.loads(args.cache.read_text())
    if not data:
        started = time.perf_counter()
        data = decode_all()
        print(f"decoded in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        if args.cache:
            args.cache.write_text(json.dumps(data))
    scoring = Scoring()
    seconds = [r["seconds"] for v in VOICES for c in ("tuning", "benchmark") for r in data[v][c]]
    print(f"{len(seconds)} recordings, {statistics.mean(seconds):.1f} s on average; WER in %, lower is better.")
    tune(scoring, data)
    report(scoring, data, "Before / after rescoring")
    whole, extraction, train = cost(DomainRescorer())
    print(f"\nCost on a 5 s utterance: {whole:.1f} ms per rescoring call ({extraction:.1f} ms of it N-best extraction)")
    print(f"Training the model (phrase file + 200 user phrases): {train:.0f} ms")


if __name__ == "__main__":
    main()
