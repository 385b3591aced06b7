"""Sounds that are not speech, made with sox as a microphone hears them (16 kHz mono): five seconds of each."""

import subprocess
from pathlib import Path

FORMAT = ["-r", "16000", "-c", "1", "-b", "16"]
# name -> sox effects after `sox -n FORMAT out.wav`
RECIPES: dict[str, list[str]] = {
    "digital silence": ["trim", "0", "5"],  # a muted microphone: Whisper writes "you" over it
    "silence": ["synth", "5", "whitenoise", "vol", "0.0005"],  # a quiet room: the microphone's own hiss
    "pink noise": ["synth", "5", "pinknoise", "vol", "0.05"],  # soft pink noise (a fan, traffic far off)
    "breath": ["synth", "5", "brownnoise", "vol", "0.3", "tremolo", "0.4", "100", "lowpass", "1500"],
    "cough": [
        *("synth", "0.35", "whitenoise", "lowpass", "2500", "fade", "q", "0.02", "0.35", "0.3", "vol", "0.6"),
        *("pad", "1.5", "0.4", "repeat", "1", "pad", "0", "0.5"),  # two bursts in five seconds
    ],
    "keyboard": ["synth", "0.008", "whitenoise", "highpass", "1000", "vol", "0.4", "pad", "0", "0.135", "repeat", "34"],
}


def noise_wav(name: str, path: Path) -> Path:
    """The sound `name` (a key of RECIPES) in a WAV file."""
    subprocess.run(["sox", "-V1", "-n", *FORMAT, str(path), *RECIPES[name]], check=True, timeout=60)
    return path


def around(speech: Path, before: Path, after: Path, path: Path) -> Path:
    """`speech` (resampled to 16 kHz mono) with the sound `before` it and the sound `after` it."""
    middle = path.with_name(path.stem + "-speech.wav")
    subprocess.run(["sox", str(speech), *FORMAT, str(middle)], check=True, timeout=60)
    subprocess.run(["sox", str(before), str(middle), str(after), str(path)], check=True, timeout=60)
    return path
