"""A private PulseAudio daemon with a null sink, so programs really record what `play()` plays.

The sink is 16 kHz mono (no resampling losses on the way to a speech engine). Recording goes through
ALSA's pulse plugin (libasound2-plugins): PortAudio (sounddevice) opens the ALSA device "pulse", the
plugin connects to this daemon (PULSE_SERVER) and records its default source, the sink's monitor.

    with private_pulseaudio(tmp_path) as pulse:      # or the `pulse_audio` fixture
        ... open input device pulse.device ...
        pulse.play(wav_path)                         # or pulse.play_async(wav_path)

A silent stream plays into the sink all the time: an idle null sink renders in 2-second blocks, so
without it the first recording would get nothing for up to 2 s. Works as root (as in CI) and as a
normal user. The daemon, its socket and its files live in a temp dir and are gone afterwards.
"""

import os
import shutil
import subprocess
import time
import wave
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.speech_in.capture import sounddevice_module

SINK = "murmur_test"
ALSA_PULSE_PLUGIN_DIRS = [Path("/usr/lib/x86_64-linux-gnu/alsa-lib"), Path("/usr/lib/aarch64-linux-gnu/alsa-lib")]


def missing() -> str | None:
    """Why a private PulseAudio can't run here, or None if it can."""
    for program in ("pulseaudio", "pactl", "paplay"):
        if shutil.which(program) is None:
            return f"{program} is not installed (Debian: pulseaudio, pulseaudio-utils)"
    if not any((d / "libasound_module_pcm_pulse.so").exists() for d in ALSA_PULSE_PLUGIN_DIRS):
        return "the ALSA pulse plugin is not installed (Debian: libasound2-plugins)"
    return None


@dataclass
class PulseAudio:
    runtime_dir: Path
    process: "subprocess.Popen[bytes]"
    sink: str = SINK
    device: str = "pulse"  # the ALSA (and so sounddevice) input device that records the sink's monitor

    @property
    def server(self) -> str:
        return f"unix:{self.runtime_dir / 'native'}"

    @property
    def monitor(self) -> str:
        return f"{self.sink}.monitor"

    @property
    def env(self) -> dict[str, str]:
        """The variables a client process needs (merged into os.environ by the fixture)."""
        return {"PULSE_SERVER": self.server, "XDG_RUNTIME_DIR": str(self.runtime_dir), "PULSE_SOURCE": self.monitor}

    def _client_env(self) -> dict[str, str]:
        return {**os.environ, **self.env}

    def play_async(self, wav: Path) -> "subprocess.Popen[bytes]":
        return subprocess.Popen(["paplay", f"--device={self.sink}", str(wav)], env=self._client_env())

    def play(self, wav: Path) -> None:
        """Play `wav` into the sink; returns when it has been played."""
        subprocess.run(["paplay", f"--device={self.sink}", str(wav)], env=self._client_env(), check=True, timeout=120)

    def pactl(self, *args: str) -> str:
        done = subprocess.run(
            ["pactl", *args], env=self._client_env(), capture_output=True, text=True, timeout=30, check=True
        )
        return done.stdout


@contextmanager
def private_pulseaudio(
    folder: Path, *, rate: int = 16_000, channels: int = 1, idle_sink: bool = False
) -> Iterator[PulseAudio]:
    """Start a PulseAudio daemon with a `rate` Hz `channels` null sink; stop it and its files afterwards.
    `idle_sink`: nothing plays into it until `play()`, so a recording of it gets no sound for up to 2 s, as from a
    microphone slow to start."""
    runtime = folder / "pulse-runtime"
    runtime.mkdir(parents=True, exist_ok=True)
    runtime.chmod(0o700)
    home = folder / "pulse-home"  # the daemon writes its cookie and state under HOME: keep them here
    home.mkdir(exist_ok=True)
    socket = runtime / "native"
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(home), "PULSE_RUNTIME_PATH": str(runtime)}
    sink = f"module-null-sink sink_name={SINK} rate={rate} channels={channels} format=s16le"
    command = [
        "pulseaudio",
        "-n",  # no default.pa: only the modules named here
        "--daemonize=no",
        "--exit-idle-time=-1",
        "--use-pid-file=no",
        "--disable-shm=yes",
        f"--log-target=file:{runtime / 'pulse.log'}",
        "-L",
        f"module-native-protocol-unix auth-anonymous=1 socket={socket}",
        "-L",
        sink,
    ]
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)
    pulse = PulseAudio(runtime_dir=runtime, process=process)
    try:
        deadline = time.monotonic() + 20
        while True:
            if process.poll() is not None:
                log = (
                    (runtime / "pulse.log").read_text(errors="replace")[-2000:]
                    if (runtime / "pulse.log").exists()
                    else ""
                )
                raise RuntimeError(f"pulseaudio exited with {process.returncode}: {log}")
            if socket.exists():
                try:
                    pulse.pactl("set-default-source", pulse.monitor)
                    break
                except subprocess.CalledProcessError:
                    pass
            if time.monotonic() > deadline:
                raise RuntimeError("pulseaudio did not start within 20 s")
            time.sleep(0.05)
        if idle_sink:
            yield pulse
            return
        keepalive = _keep_sink_rendering(pulse, rate, channels)
        try:
            yield pulse
        finally:
            keepalive.terminate()
            keepalive.wait(timeout=10)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _keep_sink_rendering(pulse: PulseAudio, rate: int, channels: int) -> "subprocess.Popen[bytes]":
    """Play silence into the sink (low latency) and wait until recording its monitor starts at once."""
    with open("/dev/zero", "rb") as zeros:
        keepalive = subprocess.Popen(
            ["pacat", "--playback", "--raw", f"--device={pulse.sink}", f"--rate={rate}", f"--channels={channels}"]
            + ["--format=s16le", "--latency-msec=30"],
            stdin=zeros,
            env=pulse._client_env(),
        )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        started = time.monotonic()
        record = subprocess.Popen(
            ["parecord", "--raw", f"--device={pulse.monitor}", f"--rate={rate}", "--channels=1", "--format=s16le"],
            stdout=subprocess.PIPE,
            env=pulse._client_env(),
        )
        assert record.stdout is not None
        record.stdout.read(rate // 5)  # 100 ms
        record.terminate()
        record.wait()
        record.stdout.close()
        if time.monotonic() - started < 0.5:
            break
    return keepalive


@contextmanager
def slow_speakers(pulse: PulseAudio, latency_msec: int) -> Iterator[None]:
    """What programs play to the default output (a sound cue) is heard `latency_msec` later than they are told it
    was played, as through Bluetooth speakers: it goes into a sink of its own, whose sound a loopback with that
    latency brings into the sink the microphone records."""
    speakers = "slow_speakers"
    sink = f"sink_name={speakers} rate=16000 channels=1 format=s16le"
    modules = [pulse.pactl("load-module", "module-null-sink", *sink.split()).strip()]
    try:
        loopback = [f"source={speakers}.monitor", f"sink={pulse.sink}", f"latency_msec={latency_msec}"]
        modules.append(pulse.pactl("load-module", "module-loopback", *loopback).strip())
        pulse.pactl("set-default-sink", speakers)
        yield
    finally:
        pulse.pactl("set-default-sink", pulse.sink)
        for module in reversed(modules):
            pulse.pactl("unload-module", module)


@contextmanager
def room_recording(pulse: PulseAudio, wav: Path) -> Iterator[Path]:
    """Record the sink's monitor (what a listener in the room hears) while the block runs, into `wav` (16 kHz);
    a margin of 0.3 s before and after."""
    raw = wav.with_suffix(".raw")
    command = ["parecord", "--raw", f"--device={pulse.monitor}", "--rate=16000", "--channels=1", "--format=s16le"]
    recording = subprocess.Popen([*command, str(raw)], env=pulse._client_env())
    time.sleep(0.3)
    try:
        yield wav
    finally:
        time.sleep(0.3)
        recording.terminate()
        recording.wait()
        with wave.open(str(wav), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(16_000)
            out.writeframes(raw.read_bytes())


@pytest.fixture(scope="session")
def pulse_audio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PulseAudio]:
    """A private PulseAudio for the whole session, its variables in os.environ; skipped where it can't run."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    with private_pulseaudio(tmp_path_factory.mktemp("pulse")) as pulse, pytest.MonkeyPatch.context() as patch:
        for name, value in pulse.env.items():
            patch.setenv(name, value)
        rescan_portaudio()
        yield pulse


def rescan_portaudio() -> None:
    """PortAudio lists the devices once, when first used: an earlier test (a cue played, Settings listing the
    microphones) may have done that before this private PulseAudio ran, leaving it blind to the daemon; so
    the daemon's start re-scans. sounddevice has no public re-scan; these two are its own recipe. Never while
    a cue plays."""
    from app.ui import sound_cues

    sounddevice = sounddevice_module()
    with sound_cues._playing:
        sounddevice._terminate()
        sounddevice._initialize()
