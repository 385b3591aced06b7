"""Text to speech behind one small interface: Piper (neural, a downloaded voice) or espeak-ng (the system's).

A synthesizer yields the reply phrase by phrase, so playback starts after the first phrase is made rather than
the whole reply: the first sentence is cut at its first pause (a comma, a colon) to make that phrase short.
"""

import functools
import logging
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from app.errors import VoiceError

log = logging.getLogger("murmur.voice")

ESPEAK = "espeak-ng"
ESPEAK_WORDS_PER_MINUTE = 175  # espeak-ng's own default speed
ESPEAK_SAMPLE_RATE = 22_050  # its own voices' rate
_SENTENCES = re.compile(r"[^.!?]+(?:[.!?]+|$)")
_FIRST_PAUSE = re.compile(r"^(.*?[,;:])\s+(.+)$", re.DOTALL)
MIN_PHRASE_WORDS = 2  # "Which milk," alone is worth saying first; "So," is not


@dataclass(frozen=True)
class Sound:
    """A stretch of speech: 16-bit mono PCM at `rate` Hz."""

    pcm: bytes
    rate: int

    @property
    def seconds(self) -> float:
        return len(self.pcm) / 2 / self.rate


class Synthesizer(Protocol):
    @property
    def name(self) -> str: ...  # what the user chose, in messages: "Piper (en_US-joe-medium)"

    @property
    def sample_rate(self) -> int: ...  # of every Sound it makes

    def phrase_sounds(self, phrase: str) -> Sound: ...


def phrases(text: str) -> list[str]:
    """`text` in the pieces it is spoken in: sentences, the first one cut at its first pause."""
    sentences = [match.group().strip() for match in _SENTENCES.finditer(text) if match.group().strip()]
    if not sentences:
        return []
    head = _FIRST_PAUSE.match(sentences[0])
    if head and min(len(head.group(1).split()), len(head.group(2).split())) >= MIN_PHRASE_WORDS:
        sentences[:1] = [head.group(1), head.group(2)]
    return sentences


def speak(synthesizer: Synthesizer, text: str, volume: float = 1.0) -> Iterator[Sound]:
    """The sounds of `text`, phrase by phrase, at `volume` (0..1)."""
    for phrase in phrases(text):
        sound = synthesizer.phrase_sounds(phrase)
        if volume < 1.0:
            samples = (np.frombuffer(sound.pcm, dtype=np.int16) * volume).astype(np.int16)
            sound = Sound(samples.tobytes(), sound.rate)
        yield sound


class PiperSynthesizer:
    """A Piper voice (a .onnx file and its .onnx.json) run by piper-tts on the CPU."""

    def __init__(self, model: Path, rate: float = 1.0) -> None:
        self.model, self.rate = model, rate
        self.name = f"Piper ({model.stem})"
        self._voice = _piper_voice(model)  # loaded here: a corrupt file is found before anything is to be said
        self.sample_rate = int(self._voice.config.sample_rate)

    def phrase_sounds(self, phrase: str) -> Sound:
        from piper import SynthesisConfig

        config = SynthesisConfig(length_scale=1.0 / self.rate)
        chunks = list(self._voice.synthesize(phrase, config))
        pcm = b"".join(chunk.audio_int16_bytes for chunk in chunks)
        return Sound(pcm, self.sample_rate)


@functools.lru_cache(maxsize=2)  # loading takes about 0.4 s; a reply should not wait for it twice
def _piper_voice(model: Path) -> Any:
    try:
        from piper import PiperVoice
    except ImportError:
        raise VoiceError(
            "Piper is not installed (pip install 'murmur-desktop[piper]'); espeak-ng speaks instead"
        ) from None
    config = model.with_name(model.name + ".json")
    if not model.is_file() or not config.is_file():
        raise VoiceError(f"the Piper voice {model} is incomplete: it needs {model.name} and {config.name}")
    try:
        return PiperVoice.load(model, config)
    except Exception as error:  # onnxruntime and json have many ways to say "not a voice"
        log.warning("cannot load the Piper voice %s: %r", model, error)
        raise VoiceError(
            f"the Piper voice {model.stem} cannot be read (the file may be damaged; download it again)"
        ) from None


class EspeakSynthesizer:
    """The system's espeak-ng command: robotic but always there, in about a hundred languages."""

    def __init__(self, voice: str = "en-us", rate: float = 1.0) -> None:
        if shutil.which(ESPEAK) is None:
            raise VoiceError("espeak-ng is not installed (Debian: apt install espeak-ng)")
        self.voice, self.rate = voice, rate
        self.name = f"espeak-ng ({voice})"
        self.sample_rate = ESPEAK_SAMPLE_RATE

    def phrase_sounds(self, phrase: str) -> Sound:
        speed = str(round(ESPEAK_WORDS_PER_MINUTE * self.rate))
        command = [ESPEAK, "-v", self.voice, "-s", speed, "--stdout", "--", phrase]
        try:
            done = subprocess.run(command, capture_output=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise VoiceError(f"espeak-ng failed: {error}") from None
        if done.returncode != 0 or not done.stdout.startswith(b"RIFF"):
            why = done.stderr.decode(errors="replace").strip().splitlines()
            raise VoiceError(f"espeak-ng cannot speak with voice {self.voice!r}: {why[0] if why else 'no audio'}")
        sound = _streamed_wav(done.stdout)
        if sound.rate == self.sample_rate:
            return sound
        import soxr  # an MBROLA voice speaks at 16 kHz

        samples = soxr.resample(np.frombuffer(sound.pcm, dtype=np.int16), sound.rate, self.sample_rate)
        return Sound(samples.astype(np.int16).tobytes(), self.sample_rate)


def _streamed_wav(data: bytes) -> Sound:
    """A WAV written to a pipe: its sizes are placeholders, so the samples are everything after the data header."""
    rate = int.from_bytes(data[24:28], "little")
    start = data.find(b"data", 12)
    pcm = data[start + 8 :] if start >= 0 else b""
    return Sound(pcm[: len(pcm) - len(pcm) % 2], rate)
