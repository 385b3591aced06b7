"""Reading any audio file a user has (WAV of any rate, channel count and sample width) as engine PCM."""

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from app.bounds.limits import MAX_AUDIO_CHANNELS, MAX_AUDIO_SECONDS
from app.errors import AudioFileError
from app.speech_in.audio import StreamResampler, as_pcm16, seconds_of, to_mono

if TYPE_CHECKING:
    import soundfile

log = logging.getLogger("murmur.speech")

BLOCK_FRAMES = 1 << 18  # about five seconds at 48 kHz


@dataclass(frozen=True)
class AudioClip:
    """16 kHz mono int16 PCM."""

    pcm: bytes

    @property
    def seconds(self) -> float:
        return seconds_of(self.pcm)


def read_audio(path: Path) -> AudioClip:
    """The file's audio as 16 kHz mono int16; AudioFileError (one line) if it is not readable audio."""
    import soundfile  # loaded by what reads a file, not by every command

    if not path.exists():
        raise AudioFileError(f"no such file: {path}")
    if path.is_dir():
        raise AudioFileError(f"{path} is a folder, not an audio file")
    try:
        with soundfile.SoundFile(str(path)) as audio:
            rate, channels, subtype = audio.samplerate, audio.channels, f"{audio.format}/{audio.subtype}"
            _within_bounds(path, channels, audio.frames / rate)
            pcm = _read_mono(path, audio)
    except PermissionError:
        raise AudioFileError(f"cannot read {path}: permission denied") from None
    except (soundfile.LibsndfileError, RuntimeError, OSError) as error:
        log.info("cannot read %s as audio: %s", path, error)
        raise AudioFileError(f"{path} is not an audio file Murmur can read (WAV, FLAC, OGG)") from None
    log.debug("read %s: %s Hz x %s channels (%s) -> %.2f s", path, rate, channels, subtype, seconds_of(pcm))
    return AudioClip(pcm=pcm)


def _within_bounds(path: Path, channels: int, seconds: float) -> None:
    """A file's header read before its sound: a small compressed file can hold hours of many channels."""
    if channels > MAX_AUDIO_CHANNELS:
        raise AudioFileError(f"{path} has {channels} channels; Murmur reads files of up to {MAX_AUDIO_CHANNELS}")
    if seconds > MAX_AUDIO_SECONDS:
        hours = MAX_AUDIO_SECONDS / 3600
        raise AudioFileError(f"{path} is {seconds / 3600:.1f} hours long; Murmur transcribes up to {hours:g} hours")


def _read_mono(path: Path, audio: "soundfile.SoundFile") -> bytes:
    """The sound as 16 kHz mono int16, a block at a time: memory for the result, not for every channel of it."""
    resampler = StreamResampler(audio.samplerate)
    pcm = bytearray()
    for block in audio.blocks(blocksize=BLOCK_FRAMES, dtype="float32", always_2d=True):
        pcm += resampler.convert(as_pcm16(to_mono(np.asarray(block, dtype=np.float32))))
        if seconds_of(pcm) > MAX_AUDIO_SECONDS:  # a header that understates the length
            _within_bounds(path, audio.channels, seconds_of(pcm))
    pcm += resampler.convert(b"", last=True)
    return bytes(pcm)
