"""A recording's sound as a file: 16 kHz mono int16 PCM to FLAC (lossless, about half the size of WAV) and back.

numpy and soundfile load on the first sound, so a typed `murmur add` never pays for them.
"""

import os
from pathlib import Path

from app.private_files import PRIVATE_FILE

RATE = 16_000  # what the capture hands on (app/speech_in/capture.py)
_SAMPLE_BYTES = 2


def seconds_of(pcm: bytes) -> float:
    return len(pcm) / (RATE * _SAMPLE_BYTES)


def write_sound(path: Path, pcm: bytes, format: str = "FLAC", subtype: str | None = None) -> int:
    """`pcm` into a new file at `path`, owner-only from its first byte; returns its size in bytes."""
    import numpy as np
    import soundfile

    samples = np.frombuffer(pcm, dtype=np.int16)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))  # owner-only before a byte is in it
    try:
        # libsndfile writes the file itself: through a Python file object, a full disk is an AssertionError
        soundfile.write(str(path), samples, RATE, format=format, subtype=subtype)
    except (RuntimeError, AssertionError, OSError) as error:
        path.unlink(missing_ok=True)  # half a sound is no sound
        raise OSError(f"could not write {path.name}: {error or type(error).__name__}") from None
    return path.stat().st_size


def read_sound(path: Path) -> bytes:
    """The 16 kHz mono int16 PCM of a file `write_sound` made."""
    import soundfile

    samples, _ = soundfile.read(str(path), dtype="int16")
    return bytes(samples.tobytes())


def write_wav(path: Path, pcm: bytes) -> None:
    """`pcm` as a WAV file any player opens (`murmur play --out`)."""
    import numpy as np
    import soundfile

    soundfile.write(str(path), np.frombuffer(pcm, dtype=np.int16), RATE, format="WAV", subtype="PCM_16")
