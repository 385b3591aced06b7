"""The audio store: its size per minute of speech, FLAC against Opus, and what keeping a recording adds at release.

Speech is the dictation corpus said by flite (tests/support/speech.py), with silence around each utterance as a
microphone hears it, 16 kHz mono int16 as the capture hands it on. Prints, per format, kilobytes per minute of
speech, the milliseconds to write one utterance and whether it decodes to the same samples; then the time the
service takes to keep one with its utterance (the file, its row and the pruning, in one write) on a real SQLite
file, empty and with 10,000 kept: what a dictation's release-to-text path pays for it.
Run: .venv/bin/python bench/recordings_bench.py
"""

import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.domain.enums import UtteranceSource  # noqa: E402
from app.offline import OfflineInterpreter  # noqa: E402
from app.recordings.sound import read_sound, seconds_of, write_sound  # noqa: E402
from app.service import MurmurService  # noqa: E402
from app.store import Store  # noqa: E402
from tests.support.clock import FIXED_NOW  # noqa: E402
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


def keeping(said: list[bytes], folder: Path, already: int) -> list[float]:
    """Seconds the service took to keep each recording with its saved utterance, `already` kept before them."""
    path = folder / f"murmur-{already}.db"
    service = MurmurService(store=Store.open(path), interpreter=OfflineInterpreter())
    if already:
        earlier = FIXED_NOW.isoformat()
        with closing(sqlite3.connect(path)) as db, db:
            db.executemany(
                "INSERT INTO utterances (id, text, source, created_at, outcome, attempts) VALUES (?, 'x', 'voice', ?,"
                " 'done', 1)",
                [(number, earlier) for number in range(1, already + 1)],
            )
            db.executemany(
                "INSERT INTO recordings (utterance_id, file, bytes, seconds, created_at) VALUES (?, ?, 40000, 3, ?)",
                [(number, f"{number}.flac", earlier) for number in range(1, already + 1)],
            )
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
        print("\n| kept with its utterance (file, row, pruning: one write) | median ms | slowest ms |")
        print("|---|---:|---:|")
        for already in (0, 10_000):
            took = sorted(keeping(said, folder, already))
            median, slowest = statistics.median(took) * 1000, took[-1] * 1000
            print(f"| {already:,} recordings kept before | {median:.1f} | {slowest:.1f} |")


if __name__ == "__main__":
    main()
