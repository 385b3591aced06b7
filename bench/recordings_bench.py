"""The audio store: its size per minute of speech, FLAC against Opus, and what keeping a recording adds at release.

Speech is the dictation corpus said by flite (tests/support/speech.py), with silence around each utterance as a
microphone hears it, 16 kHz mono int16 as the capture hands it on. Prints, per format, kilobytes per minute of
speech, the milliseconds to write one utterance and whether it decodes to the same samples; then the time the
service takes to keep one with its utterance (the file, its row and the pruning, in one write) on a real SQLite
file: what a dictation's release-to-text path pays for it. Run: .venv/bin/python bench/recordings_bench.py
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.domain.enums import UtteranceSource  # noqa: E402
from app.offline import OfflineInterpreter  # noqa: E402
from app.recordings.sound import read_sound, seconds_of, write_sound  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from tests.support.speech import DICTATION, captured_speech  # noqa: E402

FORMATS = [("FLAC", "FLAC", None), ("Opus (OGG)", "OGG", "OPUS")]


def corpus(folder: Path) -> list[bytes]:
    said = []
    for number, text in enumerate(DICTATION):
        place = folder / f"said-{number}"
        place.mkdir()
        said.append(captured_speech(text, place))
    return said


def format_row(name: str, container: str, subtype: str | None, said: list[bytes], folder: Path) -> str:
    size, times, same = 0, [], True
    for number, pcm in enumerate(said):
        path = folder / f"{name[:4]}-{number}.snd"
        began = time.perf_counter()
        size += write_sound(path, pcm, container, subtype)
        times.append(time.perf_counter() - began)
        same = same and read_sound(path) == pcm
    minutes = sum(seconds_of(pcm) for pcm in said) / 60
    return (
        f"| {name} | {size / 1000 / minutes:.0f} | {statistics.median(times) * 1000:.1f} | {'yes' if same else 'no'} |"
    )


def keeping(said: list[bytes], folder: Path) -> list[float]:
    """Seconds the service took to keep each recording with its saved utterance."""
    service = MurmurService(store=Store.open(folder / "murmur.db"), interpreter=OfflineInterpreter())
    took = []
    for pcm in said:
        utterance_id = service._save("buy milk", UtteranceSource.VOICE)[0]
        began = time.perf_counter()
        service._keep_recording(utterance_id, pcm)
        took.append(time.perf_counter() - began)
    service.close()
    return took


def main() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        said = corpus(folder)
        seconds = sum(seconds_of(pcm) for pcm in said)
        print(f"{len(said)} utterances, {seconds:.0f} s of speech ({seconds / len(said):.1f} s each)\n")
        print("| format | KB per minute | write ms | same samples |")
        print("|---|---:|---:|---|")
        print("| raw PCM (16 kHz, 16 bit) | 1920 | | yes |")
        for name, container, subtype in FORMATS:
            print(format_row(name, container, subtype, said, folder))
        took = sorted(keeping(said, folder))
        median, slowest = statistics.median(took) * 1000, took[-1] * 1000
        print(
            f"\nkept with its utterance (file, row, pruning: one write): median {median:.1f} ms, "
            f"slowest {slowest:.1f} ms"
        )


if __name__ == "__main__":
    main()
