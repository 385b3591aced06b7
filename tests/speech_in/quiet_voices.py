"""Speech the voice activity detectors miss, made as a microphone in a quiet room hears it (16 kHz mono): espeak-ng's
whispering voice, and flite's voice far from the microphone; and noise alone at a level like speech's."""

import subprocess
from pathlib import Path

FORMAT = ["-r", "16000", "-c", "1", "-b", "16"]
# A whisper over the hum of a room (brown noise at about -65 dBFS) that Silero hears no speech in.
WHISPER_VOLUME, WHISPER_ROOM = 0.03, 0.001
WHISPER_WORDS_PER_MINUTE = 150  # people whisper slower than they speak (espeak-ng speaks 175 a minute)
# A voice across the room, near -70 dBFS over a quiet room's hiss: WebRTC hears nothing of it.
QUIET_VOLUME, QUIET_ROOM = 0.003, 0.0001
# Noise alone, as loud as speech: steady, or rising and falling as a voice does (what gets past the level check).
NOISES: dict[str, list[str]] = {
    "fan": ["synth", "5", "brownnoise", "vol", "0.3"],
    "hiss": ["synth", "5", "pinknoise", "vol", "0.1"],
    "fan speeding up and down": ["synth", "5", "brownnoise", "vol", "0.3", "tremolo", "0.5", "90"],
    "gusts": ["synth", "0.8", "brownnoise", "vol", "0.3", "fade", "q", "0.1", "0.8", "0.2", "pad", "0.2", "0.6"]
    + ["repeat", "4"],
    "hum coming and going": ["synth", "1", "sine", "120", "sine", "240", "remix", "-", "vol", "0.2", "pad", "0", "0.7"]
    + ["repeat", "3"],
    "chords": [
        "synth",
        "1.5",
        "sine",
        "220",
        "sine",
        "277",
        "sine",
        "330",
        "remix",
        "-",
        "vol",
        "0.2",
        "pad",
        "0",
        "0.5",
    ]
    + ["repeat", "2"],
}


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


def whispered_wav(text: str, path: Path) -> Path:
    """`text` whispered (espeak-ng's whisper voice) in a room."""
    raw = path.with_name(path.stem + "-espeak.wav")
    subprocess.run(
        ["espeak-ng", "-v", "en+whisper", "-s", str(WHISPER_WORDS_PER_MINUTE), "-w", str(raw), text],
        check=True,
        timeout=60,
    )
    return _in_a_room(raw, WHISPER_VOLUME, WHISPER_ROOM, path)


def quiet_wav(text: str, path: Path) -> Path:
    """`text` said by flite's slt voice far from the microphone."""
    raw = path.with_name(path.stem + "-flite.wav")
    subprocess.run(["flite", "-voice", "slt", "-t", text, "-o", str(raw)], check=True, timeout=60)
    return _in_a_room(raw, QUIET_VOLUME, QUIET_ROOM, path)


def noise_wav(name: str, path: Path) -> Path:
    """The noise `name` (a key of NOISES) in a WAV file."""
    _sox("-n", *FORMAT, str(path), *NOISES[name])
    return path
