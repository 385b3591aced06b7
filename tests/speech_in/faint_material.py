"""Blind material for whispered speech: sounds that must never become words in the list, and whispers that should be
heard. Everything is made at test time from fixed seeds (numpy) and espeak-ng's whisper voice, as 16 kHz mono int16
PCM, so a run is the same on every machine; the two real whispered clips come from the real-voice set when it is
fetched (bench/real_voices/).

The noises are the ones a dictation meets or that mimic speech: white, pink and brown noise; breath (band-passed
noise in bursts, with and without a breathing rhythm, and the sox recipe of tests/speech_in/noises.py that became
"I'm not sure if I can get a car or a car"); noise swelling at syllable rates (3-6 Hz tremolo, and bursts timed like
syllables); keys typed; a fan; mains hum; tones coming and going; a quiet room.
"""

import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.speech_in.audio import SAMPLE_RATE, as_pcm16
from app.speech_in.wavfile import read_audio

Samples = npt.NDArray[np.float64]
SECONDS = 5.0
ROOM_DBFS = -65.0  # a quiet room's own sound under every whisper
REAL_CLIPS = Path.home() / ".cache" / "murmur-bench" / "real-voices" / "clips"
REAL_WHISPERS = {
    "mfa-whisper": "This is all very whispered.",
    "mfa-whisper2": "There's gonna be no voiced speech whatsoever here.",
}
# Sentences said to a list, written for this set (none is in the interpreter's corpus).
WHISPERED = [
    "Remind me to water the plants on Sunday",
    "Buy oat milk and coffee filters",
    "Call the dentist tomorrow morning",
    "Add batteries to the shopping list",
    "Pay the electricity bill by Friday",
    "Book a table for dinner on Saturday",
    "Return the library books next week",
    "Email Sarah about the project budget",
    "Pick up the parcel from the post office",
    "Cancel the gym membership",
    "Renew my passport before June",
    "Take out the recycling tonight",
]
# Peak levels of a whisper: the real whispered clips' (about -27 to -32 dBFS), and a whisper close to the microphone.
WHISPER_PEAKS_DBFS = {"soft": -30.0, "close": -18.0}
WHISPER_WORDS_PER_MINUTE = 150  # people whisper slower than they speak (espeak-ng speaks 175 a minute)


@dataclass(frozen=True)
class Clip:
    name: str
    pcm: bytes
    text: str = ""  # what was said; "" for a noise


def _times(seconds: float = SECONDS) -> Samples:
    return np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE


def _shaped(rng: np.random.Generator, seconds: float, gain: Callable[[Samples], Samples]) -> Samples:
    """Gaussian noise whose spectrum is multiplied by `gain(frequency in Hz)`, at unit RMS."""
    white = rng.standard_normal(round(seconds * SAMPLE_RATE))
    spectrum = np.fft.rfft(white)
    frequencies = np.fft.rfftfreq(white.size, 1 / SAMPLE_RATE)
    shaped = np.fft.irfft(spectrum * gain(frequencies), white.size)
    return np.asarray(shaped / max(1e-12, float(np.sqrt(np.mean(shaped**2)))))


def _band(low: float, high: float) -> Callable[[Samples], Samples]:
    return lambda f: ((f >= low) & (f <= high)).astype(np.float64)


def _power_law(exponent: float) -> Callable[[Samples], Samples]:
    """1/f^exponent in power, from 20 Hz (pink: 1, brown: 2)."""
    return lambda f: np.where(f >= 20.0, 1.0 / np.maximum(f, 20.0) ** (exponent / 2), 0.0)


def _at(samples: Samples, rms_dbfs: float) -> Samples:
    return samples * 10 ** (rms_dbfs / 20) / max(1e-12, float(np.sqrt(np.mean(samples**2))))


def _bursts(rng: np.random.Generator, shortest: float, longest: float, gap: tuple[float, float]) -> Samples:
    """An envelope of raised-cosine bursts of random length, with random gaps between them."""
    envelope = np.zeros(round(SECONDS * SAMPLE_RATE))
    at = rng.uniform(*gap)
    while at < SECONDS:
        length = rng.uniform(shortest, longest)
        start, count = round(at * SAMPLE_RATE), round(length * SAMPLE_RATE)
        shape = np.sin(np.linspace(0, np.pi, count)) ** 2
        end = min(envelope.size, start + count)
        envelope[start:end] = shape[: end - start]
        at += length + rng.uniform(*gap)
    return envelope


def _breath(rng: np.random.Generator) -> Samples:
    return _shaped(rng, SECONDS, lambda f: _band(150, 2500)(f) / np.maximum(f, 150) ** 0.5)


def _tones(frequencies: list[float], on: float, off: float) -> Samples:
    t = _times()
    chord = sum(np.sin(2 * np.pi * f * t) for f in frequencies)
    return np.asarray(chord * ((t % (on + off)) < on))


def _clicks(rng: np.random.Generator) -> Samples:
    """Keys typed: 8 ms high-passed clicks, about seven a second, unevenly."""
    clicks = np.zeros(round(SECONDS * SAMPLE_RATE))
    at = 0.1
    while at < SECONDS - 0.01:
        start = round(at * SAMPLE_RATE)
        click = rng.standard_normal(128) * np.exp(-np.arange(128) / 30)
        clicks[start : start + 128] += np.diff(click, prepend=0.0) * rng.uniform(0.5, 1.0)
        at += rng.uniform(0.08, 0.22)
    return clicks


def _sox_breath(seed: int) -> Samples:
    """The breath of tests/speech_in/noises.py ("brownnoise tremolo 0.4 100 lowpass 1500"), seeded."""
    rng = np.random.default_rng(seed)
    t = _times()
    brown = _shaped(rng, SECONDS, _power_law(2.0))
    swell = 1 - (1 + np.sin(2 * np.pi * 0.4 * t)) / 2  # sox's tremolo at depth 100
    low = np.fft.irfft(np.fft.rfft(brown * swell) * _band(0, 1500)(np.fft.rfftfreq(t.size, 1 / SAMPLE_RATE)), t.size)
    return np.asarray(low)


def _syllable_bursts(rng: np.random.Generator) -> Samples:
    """Noise of one shape in bursts as long as syllables (0.1-0.3 s), as close together."""
    return _shaped(rng, SECONDS, _band(300, 6000)) * _bursts(rng, 0.1, 0.3, (0.05, 0.2))


def _noise_recipes() -> dict[str, Callable[[np.random.Generator], tuple[Samples, float]]]:
    """name -> (samples, RMS level in dBFS) from a seeded generator."""
    t = _times()
    return {
        "white noise": lambda rng: (rng.standard_normal(t.size), -40.0),
        "pink noise": lambda rng: (_shaped(rng, SECONDS, _power_law(1.0)), -35.0),
        "brown noise": lambda rng: (_shaped(rng, SECONDS, _power_law(2.0)), -30.0),
        "breath bursts": lambda rng: (_breath(rng) * _bursts(rng, 0.6, 1.4, (0.3, 1.0)), -38.0),
        "breathing 0.3 Hz": lambda rng: (_breath(rng) * np.sin(np.pi * 0.3 * t) ** 2, -38.0),
        "breathing 0.5 Hz": lambda rng: (_breath(rng) * np.sin(np.pi * 0.5 * t) ** 2, -38.0),
        "sox breath": lambda rng: (_sox_breath(int(rng.integers(1 << 31))), -32.0),
        "tremolo 3 Hz": lambda rng: (_shaped(rng, SECONDS, _band(300, 4000)) * np.sin(np.pi * 3 * t) ** 2, -38.0),
        "tremolo 4.5 Hz": lambda rng: (_breath(rng) * np.sin(np.pi * 4.5 * t) ** 2, -38.0),
        "tremolo 6 Hz": lambda rng: (_shaped(rng, SECONDS, _power_law(1.0)) * np.sin(np.pi * 6 * t) ** 2, -35.0),
        "syllable bursts": lambda rng: (_syllable_bursts(rng), -38.0),
        "keyboard": lambda rng: (_clicks(rng), -40.0),
        "fan": lambda rng: (
            _shaped(rng, SECONDS, _power_law(2.0)) + 0.3 * _tones([118.0, 236.0], SECONDS, 0.0),
            -35.0,
        ),
        "mains hum": lambda rng: (_tones([50.0, 100.0, 150.0, 250.0], SECONDS, 0.0), -35.0),
        "hum coming and going": lambda rng: (_tones([120.0, 240.0], 1.0, 0.7), -30.0),
        "chords": lambda rng: (_tones([220.0, 277.0, 330.0], 1.5, 0.5), -30.0),
        "quiet room": lambda rng: (rng.standard_normal(t.size), -70.0),
    }


NOISE_SEEDS = (11, 12)  # two takes of each noise


def noises() -> list[Clip]:
    """Every noise of the set, in two seeded takes, five seconds each, over a quiet room."""
    clips = []
    for number, (name, recipe) in enumerate(_noise_recipes().items()):
        for seed in NOISE_SEEDS:
            rng = np.random.default_rng([seed, number])
            samples, level = recipe(rng)
            room = _at(rng.standard_normal(samples.size), ROOM_DBFS)
            clips.append(Clip(f"{name} #{seed}", as_pcm16((_at(samples, level) + room).astype(np.float32))))
    return clips


def whispered(text: str, peak_dbfs: float, seed: int = 7) -> bytes:
    """`text` whispered by espeak-ng at `peak_dbfs`, with half a second of a quiet room before and after."""
    with tempfile.TemporaryDirectory() as folder:
        raw = Path(folder) / "whisper.wav"
        subprocess.run(
            ["espeak-ng", "-v", "en-us+whisper", "-s", str(WHISPER_WORDS_PER_MINUTE), "-w", str(raw), text],
            check=True,
            timeout=60,
        )
        speech = np.frombuffer(read_audio(raw).pcm, dtype="<i2").astype(np.float64) / 32768.0
    speech *= 10 ** (peak_dbfs / 20) / max(1e-12, float(np.max(np.abs(speech))))
    pad = np.zeros(SAMPLE_RATE // 2)
    voice = np.concatenate([pad, speech, pad])
    room = _at(np.random.default_rng(seed).standard_normal(voice.size), ROOM_DBFS)
    return as_pcm16((voice + room).astype(np.float32))


def whispers(texts: list[str] = WHISPERED, peaks: dict[str, float] = WHISPER_PEAKS_DBFS) -> list[Clip]:
    """Each of `texts` whispered at each of `peaks`."""
    return [Clip(f"{level}: {text}", whispered(text, peak), text) for level, peak in peaks.items() for text in texts]


def real_whispers() -> list[Clip]:
    """The real whispered clips of the real-voice set, where it has been fetched."""
    paths = {name: REAL_CLIPS / f"{name}.wav" for name in REAL_WHISPERS}
    return [Clip(name, read_audio(path).pcm, REAL_WHISPERS[name]) for name, path in paths.items() if path.is_file()]
