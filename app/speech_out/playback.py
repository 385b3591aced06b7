"""Playing a reply on a speaker, stoppable at once from any thread (the user talks over it: barge-in).

The PortAudio callback takes the next block from a buffer the synthesizer fills phrase by phrase; `stop()`
makes the next callback (at most one 20 ms block away) abort the stream, dropping what is queued. `play()`
returns only when the speaker has gone quiet, so a microphone opened after it does not hear Murmur.
"""

import logging
import threading
import time
import wave
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import AudioDeviceError, VoiceError
from app.speech_in.capture import AudioDevice, find_device, sounddevice_module
from app.speech_out.synthesis import Sound

log = logging.getLogger("murmur.voice")

BLOCK_SECONDS = 0.02
_SAMPLE_BYTES = 2


@dataclass(frozen=True)
class Played:
    seconds: float  # of speech played
    first_audio_seconds: float | None  # from play() to the first sample handed to the speaker; None: none was
    stopped: bool  # cut short by stop()


class Playback:
    """One reply played on the output device `device` ("" the default, an index, or part of a name)."""

    def __init__(self, device: str = "") -> None:
        self.device_spec = device
        self._buffer = bytearray()
        self._lock = threading.Lock()
        self._all_queued = False
        self._stopping = threading.Event()
        self._wake = threading.Event()  # set when all is queued or stop() is called: play() goes on
        self._finished = threading.Event()
        self._started_at = 0.0
        self._first_audio_at: float | None = None
        self._played_bytes = 0

    def stop(self) -> None:
        """Silence it now (from any thread); `play()` then returns with `stopped` set, without waiting for the
        phrase being made."""
        self._stopping.set()
        self._wake.set()

    @property
    def stopped(self) -> bool:
        return self._stopping.is_set()

    def play(self, sounds: Iterable[Sound], rate: int) -> Played:
        """Play `sounds` (all at `rate` Hz) as they are made, and return when the last one has been heard (or
        `stop()` was called). The speaker opens while the first phrase is being made."""
        self._started_at = time.monotonic()
        failure: list[BaseException] = []
        maker = threading.Thread(target=self._queue, args=(sounds, rate, failure), name="murmur-voice", daemon=True)
        maker.start()
        try:
            stream = self._open(rate)
        except BaseException:
            self.stop()  # the maker ends after the phrase it is making: nobody waits for it
            raise
        try:
            self._wake.wait()  # everything is queued, or stop() came
            if self._stopping.is_set():
                stream.abort()  # what PortAudio still holds is dropped, not played out
            elif failure:
                raise failure[0]
            else:
                self._wait_for_end(stream, rate)
        finally:
            stream.close()
        first = None if self._first_audio_at is None else self._first_audio_at - self._started_at
        return Played(round(self._played_bytes / _SAMPLE_BYTES / rate, 3), first, self._stopping.is_set())

    def _queue(self, sounds: Iterable[Sound], rate: int, failure: list[BaseException]) -> None:
        try:
            for sound in sounds:
                if self._stopping.is_set():
                    break
                if sound.rate != rate:
                    raise VoiceError(f"the voice changed its sample rate ({sound.rate} Hz, not {rate} Hz)")
                with self._lock:
                    self._buffer.extend(sound.pcm)
        except BaseException as error:  # handed to play(): the reply cannot be finished
            failure.append(error)
        finally:
            with self._lock:
                self._all_queued = True
            self._wake.set()

    def _open(self, rate: int) -> Any:
        sd = sounddevice_module()
        device = _output_device(self.device_spec)
        try:
            stream = sd.RawOutputStream(
                samplerate=rate,
                channels=1,
                dtype="int16",
                device=device.index,
                blocksize=round(rate * BLOCK_SECONDS),
                callback=self._callback,
                finished_callback=self._finished.set,
            )
            stream.start()
        except (sd.PortAudioError, ValueError) as error:
            raise VoiceError(f"cannot play on the speaker {device.name!r}: {error}") from None
        log.info("speaking on %s (%d Hz)", device.name, rate)
        return stream

    def _callback(self, out: Any, frames: int, when: Any, status: Any) -> None:
        sd = sounddevice_module()
        if self._stopping.is_set():
            raise sd.CallbackAbort
        wanted = frames * _SAMPLE_BYTES
        with self._lock:
            block = bytes(self._buffer[:wanted])
            del self._buffer[:wanted]
            last = self._all_queued and not self._buffer
        if block and self._first_audio_at is None:
            self._first_audio_at = time.monotonic()
        self._played_bytes += len(block)
        out[: len(block)] = block
        out[len(block) :] = b"\0" * (wanted - len(block))  # the next phrase is still being made: silence
        if last:
            raise sd.CallbackStop  # PortAudio plays what it holds, then calls finished

    def _wait_for_end(self, stream: Any, rate: int) -> None:
        with self._lock:
            left = len(self._buffer) / _SAMPLE_BYTES / rate
        if not self._finished.wait(left + float(stream.latency) + 2.0):
            log.warning("the speaker did not finish playing; stopping it")
            stream.abort()


def _output_device(spec: str) -> AudioDevice:
    try:
        return find_device(spec, "output")
    except AudioDeviceError as error:
        raise VoiceError(str(error), error.remedy) from None


def write_wav(sounds: Iterable[Sound], path: Path) -> float:
    """`sounds` into a 16-bit mono WAV file at `path`; returns its length in seconds."""
    pcm, rate = bytearray(), 22_050
    for sound in sounds:
        pcm.extend(sound.pcm)
        rate = sound.rate
    try:
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(_SAMPLE_BYTES)
            out.setframerate(rate)
            out.writeframes(bytes(pcm))
    except OSError as error:
        raise VoiceError(f"cannot write {path}: {error.strerror or error}") from None
    return len(pcm) / _SAMPLE_BYTES / rate
