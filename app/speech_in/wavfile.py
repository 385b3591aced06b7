"""Reading any audio file a user has (WAV of any rate, channel count and sample width) as engine PCM."""

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.errors import AudioFileError
from app.speech_in.audio import as_pcm16, resample, seconds_of, to_mono

log = logging.getLogger("murmur.speech")


@dataclass(frozen=True)
class AudioClip:
    """16 kHz mono int16 PCM."""

    pcm: bytes

    @property
    def seconds(self) -> float:
        return seconds_of(self.pcm)


def read_audio(path: Path) -> AudioClip:
    """The file's audio as 16 kHz mono int16; AudioFileError (one line) if it is not readable audio."""
    import soundfile

    if not path.exists():
        raise AudioFileError(f"no such file: {path}")
    if path.is_dir():
        raise AudioFileError(f"{path} is a folder, not an audio file")
    try:
        with soundfile.SoundFile(str(path)) as audio:
            rate, channels, subtype = audio.samplerate, audio.channels, f"{audio.format}/{audio.subtype}"
            frames = audio.read(dtype="float32", always_2d=True)
    except PermissionError:
        raise AudioFileError(f"cannot read {path}: permission denied") from None
    except (soundfile.LibsndfileError, RuntimeError, OSError) as error:
        log.info("cannot read %s as audio: %s", path, error)
        raise AudioFileError(f"{path} is not an audio file Murmur can read (WAV, FLAC, OGG)") from None
    mono = to_mono(np.asarray(frames, dtype=np.float32))
    pcm = as_pcm16(resample(mono, rate))
    log.debug("read %s: %s Hz x %s channels (%s) -> %.2f s", path, rate, channels, subtype, seconds_of(pcm))
    return AudioClip(pcm=pcm)
