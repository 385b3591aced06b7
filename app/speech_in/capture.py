"""The microphone: a sounddevice input stream whose callback only queues bytes.

The PortAudio callback runs on a real-time thread: it copies the block, stamps when it came and appends both to a
deque (atomic, lock-free, O(1)) and counts overflows, nothing else. Conversion to 16 kHz mono, levels and
recognition happen on the reader's thread. While the microphone is open but not recording ("armed"),
only the last `preroll_seconds` are kept, so a word begun just before the hotkey is not cut. `keep_from()`
drops what was heard before a moment (Murmur's own start cue, played by the speakers).
"""

import collections
import logging
import math
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

import numpy as np

from app.errors import AudioDeviceError, Command, Setting, command
from app.speech_in.audio import SAMPLE_RATE, StreamResampler

log = logging.getLogger("murmur.speech")

BLOCK_SECONDS = 0.1  # 100 ms blocks; ALSA's pulse plugin starves with 50 ms ones
PREROLL_SECONDS = 0.3
STALL_SECONDS = 2.0  # no audio for this long while recording: the device is gone
FIRST_SOUND_SECONDS = 5.0  # some microphones send nothing for a second or two after they open; none, this long
# A reader that was itself held up this long (another thread held Python's GIL: pocketsphinx decoding a stretch)
# finds no audio queued either, as the callback waited for the GIL too: no sign of a dead device.
HELD_UP_SECONDS = 0.5


def sounddevice_module() -> ModuleType:
    """sounddevice, or AudioDeviceError if its PortAudio library is missing."""
    try:
        import sounddevice
    except OSError as error:  # sounddevice raises OSError("PortAudio library not found")
        raise AudioDeviceError(
            f"audio input is not available: {error} (install PortAudio, e.g. `apt install libportaudio2`)"
        ) from None
    module: ModuleType = sounddevice
    return module


@dataclass(frozen=True)
class AudioDevice:
    index: int
    name: str
    channels: int  # of the direction listed: input channels for a microphone, output ones for a speaker
    default_rate: int
    host_api: str
    is_default: bool


_WORDS: dict[str, tuple[str, str, Command]] = {
    "input": ("microphone", "input", command("devices", instead=Setting("speech.device"), phrase="{} lists them")),
    "output": (
        "speaker",
        "output",
        command("devices", "--output", instead=Setting("speech.output_device"), phrase="{} lists them"),
    ),
}


def list_devices(direction: Literal["input", "output"]) -> list[AudioDevice]:
    """The system's audio devices that can record ("input") or play ("output")."""
    sd = sounddevice_module()
    try:
        devices = sd.query_devices()
        default = sd.default.device[0 if direction == "input" else 1]
        apis = [api["name"] for api in sd.query_hostapis()]
    except sd.PortAudioError as error:
        raise AudioDeviceError(f"cannot list audio devices: {error}") from None
    return [
        AudioDevice(
            index=index,
            name=str(info["name"]),
            channels=int(info[f"max_{direction}_channels"]),
            default_rate=int(info["default_samplerate"]),
            host_api=apis[info["hostapi"]] if info["hostapi"] < len(apis) else "?",
            is_default=index == default,
        )
        for index, info in enumerate(devices)
        if info[f"max_{direction}_channels"] > 0
    ]


def list_input_devices() -> list[AudioDevice]:
    return list_devices("input")


def find_device(spec: str, direction: Literal["input", "output"] = "input") -> AudioDevice:
    """The device named by `spec`: "" (the system default), an index, or (part of) a name."""
    devices = list_devices(direction)
    thing, kind, listing = _WORDS[direction]
    if not devices:
        raise AudioDeviceError(f"no {thing} found: the system has no audio {kind} device")
    spec = spec.strip()
    if not spec:
        default = next((d for d in devices if d.is_default), None)
        return default or devices[0]
    if spec.isdigit():
        match = next((d for d in devices if d.index == int(spec)), None)
        if match is None:
            raise AudioDeviceError(f"no {kind} device number {spec}", listing)
        return match
    exact = [d for d in devices if d.name.lower() == spec.lower()]
    partial = exact or [d for d in devices if spec.lower() in d.name.lower()]
    if not partial:
        raise AudioDeviceError(f"no {kind} device named {spec!r}", listing)
    return partial[0]


def no_sound(name: str) -> str:
    """A microphone that opened but never sent a sound, `name` quoted."""
    return (
        f"the microphone {name} sent no sound in {FIRST_SOUND_SECONDS:g} s"
        " (muted, unplugged, or held by another program?)"
    )


def _open_error(device: AudioDevice, error: Exception) -> AudioDeviceError:
    text = str(error)
    if "-9985" in text or "busy" in text.lower() or "unavailable" in text.lower():
        return AudioDeviceError(f"the microphone {device.name!r} is busy or unavailable (another program may hold it)")
    return AudioDeviceError(f"cannot open the microphone {device.name!r}: {text}")


class Microphone:
    """One input stream; `open()` arms it, `begin()` starts keeping everything, `take()` reads 16 kHz mono PCM."""

    def __init__(self, device: str = "", *, preroll_seconds: float = PREROLL_SECONDS) -> None:
        self.device_spec = device
        self.device: AudioDevice | None = None
        self.overflows = 0
        self.rate = SAMPLE_RATE
        self.channels = 1
        self._preroll_blocks = max(1, round(preroll_seconds / BLOCK_SECONDS))
        # Each block with the moment (time.monotonic) its last sample came: the moment it was heard, give or
        # take the input latency, which only makes it look a little later than it was.
        self._blocks: collections.deque[tuple[float, bytes]] = collections.deque()
        self._kept_from = 0.0  # blocks heard before this moment are dropped
        self._recording = False
        self._ended = False  # PortAudio finished the stream (closed by us, or the device went away)
        self._stream: Any = None
        self._resampler: StreamResampler | None = None
        self._last_block_at = 0.0
        self._sent_sound = False  # a block came since the stream opened
        self._last_read_at = 0.0

    # -- the real-time callback: copy, append, count; nothing else -----------------------------

    def _callback(self, indata: Any, frames: int, when: Any, status: Any) -> None:
        if status.input_overflow:
            self.overflows += 1
        self._blocks.append((time.monotonic(), bytes(indata)))
        if not self._recording and len(self._blocks) > self._preroll_blocks:
            self._blocks.popleft()

    def _finished(self) -> None:
        self._ended = True

    # -- control --------------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self._stream is not None

    def open(self) -> None:
        """Open the input stream (16 kHz mono int16 if the device can, else its own rate and channels)."""
        if self._stream is not None:
            return
        sd = sounddevice_module()
        device = find_device(self.device_spec)
        rate, channels = SAMPLE_RATE, 1
        try:
            sd.check_input_settings(device=device.index, samplerate=SAMPLE_RATE, channels=1, dtype="int16")
        except (sd.PortAudioError, ValueError):
            rate, channels = device.default_rate, min(device.channels, 2)
            log.info("%s cannot record 16 kHz mono; recording %d Hz x %d and converting", device.name, rate, channels)
        try:
            stream = sd.RawInputStream(
                samplerate=rate,
                channels=channels,
                dtype="int16",
                device=device.index,
                blocksize=round(rate * BLOCK_SECONDS),
                callback=self._callback,
                finished_callback=self._finished,
            )
            stream.start()
        except (sd.PortAudioError, ValueError) as error:
            raise _open_error(device, error) from None
        self.device, self.rate, self.channels, self._stream = device, rate, channels, stream
        self._resampler = StreamResampler(rate)
        self._last_block_at = time.monotonic()
        log.info("microphone open: %s (%d Hz x %d)", device.name, rate, channels)

    def begin(self, preroll: bool = True) -> None:
        """From now on keep every block; the pre-roll already queued comes first, unless `preroll` is False
        (it may hold Murmur's own voice, just played)."""
        self.open()
        if not preroll:
            self._blocks.clear()
        self._recording = True
        self._last_block_at = time.monotonic()

    def _read_now(self) -> None:
        now = time.monotonic()
        if now - self._last_read_at > HELD_UP_SECONDS:
            self._last_block_at = now
        self._last_read_at = now

    def sends_sound(self) -> bool:
        """Has a block come since the stream opened (read or still queued)? Some microphones take seconds."""
        return self._sent_sound or bool(self._blocks)

    def keep_from(self, moment: float) -> None:
        """Drop what was heard before `moment` (time.monotonic), queued or still to come; call it on the reader's
        thread."""
        self._kept_from = moment

    def take(self) -> bytes:
        """Everything recorded since the last call, as 16 kHz mono int16."""
        self._read_now()
        raw = []
        while self._blocks:
            raw.append(self._since_kept_from(*self._blocks.popleft()))
        if not raw:
            return b""
        self._sent_sound = True
        self._last_block_at = time.monotonic()
        return self._convert(b"".join(raw))

    def _since_kept_from(self, came_at: float, block: bytes) -> bytes:
        """The part of `block` (its last sample heard at `came_at`) heard at or after `keep_from`'s moment."""
        frame = 2 * self.channels
        frames_before = math.ceil((self._kept_from - came_at) * self.rate + len(block) // frame)
        return block[max(0, frames_before) * frame :]

    def _convert(self, pcm: bytes, *, last: bool = False) -> bytes:
        if self.channels > 1:
            frames = np.frombuffer(pcm, dtype=np.int16).reshape(-1, self.channels)
            pcm = frames.mean(axis=1).astype(np.int16).tobytes()
        return self._resampler.convert(pcm, last=last) if self._resampler is not None else pcm

    def failure(self) -> str | None:
        """Why the device stopped delivering audio while recording, or None while it is fine."""
        if self._stream is None:
            return None
        if self._ended or not self._stream.active:
            return f"the microphone {self._name()} stopped (unplugged or taken by the system)"
        self._read_now()
        silent = time.monotonic() - self._last_block_at
        if self._recording and not self._sent_sound and silent > FIRST_SOUND_SECONDS:
            return no_sound(self._name())
        if self._recording and self._sent_sound and silent > STALL_SECONDS:
            return f"the microphone {self._name()} stopped delivering audio"
        return None

    def _name(self) -> str:
        return repr(self.device.name) if self.device else ""

    def close(self, *, abort: bool = False) -> bytes:
        """Stop the stream (PortAudio waits for the callback to finish) and return what was still queued. `abort`:
        the device stopped sending audio, and waiting for it could last forever."""
        stream, self._stream = self._stream, None
        if stream is not None:
            sd = sounddevice_module()
            try:
                stream.abort() if abort else stream.stop()
                stream.close()
            except sd.PortAudioError as error:  # the device is already gone: nothing to stop
                log.info("closing the microphone: %s", error)
            if self.overflows:
                log.warning(
                    "the microphone overflowed %d time(s): audio was lost (the machine was busy)", self.overflows
                )
        rest = self.take() if self._recording else b""
        tail = self._convert(b"", last=True) if self._resampler is not None and self._recording else b""
        self._recording = False
        self._blocks.clear()
        return rest + tail
