"""Speech the voice activity detectors miss, made as a microphone in a quiet room hears it (16 kHz mono): flite's
voice far from the microphone."""

import subprocess
from pathlib import Path

FORMAT = ["-r", "16000", "-c", "1", "-b", "16"]
# A voice across the room, near -70 dBFS over a quiet room's hiss: WebRTC hears nothing of it.
QUIET_VOLUME, QUIET_ROOM = 0.003, 0.0001


def _sox(*arguments: str) -> None:
    """sox, repeatable: its noise is the same on every run."""
    subprocess.run(["sox", "-R", "-V1", *arguments], check=True, timeout=60)


def _in_a_room(speech: Path, volume: float, room: float, path: Path) -> Path:
    """`speech` at `volume`, with 0.6 s before and after, over a room's brown noise at `room`."""
    near = path.with_name(path.stem + "-speech.wav")
    _sox(str(speech), *FORMAT, str(near), "vol", str(volume), "pad", "0.6", "0.6")
    seconds = subprocess.run(["soxi", "-D", str(near)], check=True, capture_output=True, text=True).stdout.strip()
    hum = path.with_name(path.stem + "-room.wav")
    _sox("-n", *FORMAT, str(hum), "synth", seconds, "brownnoise", "vol", str(room))
    _sox("-m", "-v", "1", str(near), "-v", "1", str(hum), str(path))
    return path


def quiet_wav(text: str, path: Path) -> Path:
    """`text` said by flite's slt voice far from the microphone."""
    raw = path.with_name(path.stem + "-flite.wav")
    subprocess.run(["flite", "-voice", "slt", "-t", text, "-o", str(raw)], check=True, timeout=60)
    return _in_a_room(raw, QUIET_VOLUME, QUIET_ROOM, path)
