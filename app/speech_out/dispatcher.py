"""The desktop's own speech service, speech-dispatcher (through its spd-say command): the voice the user set up
for the whole desktop. It plays the speech itself, so Murmur cannot write it to a file or pick the speaker;
`say` returns when it has been heard, and a stop cancels it."""

import shutil
import subprocess
import threading
import time

from app.errors import VoiceError
from app.speech_out.playback import Played

SPD_SAY = "spd-say"
POLL_SECONDS = 0.02


class DispatcherVoice:
    name = "speech-dispatcher"

    def __init__(self, language: str, rate: float = 1.0, volume: float = 1.0) -> None:
        if shutil.which(SPD_SAY) is None:
            raise VoiceError("speech-dispatcher is not installed (Debian: apt install speech-dispatcher)")
        self.language, self.rate, self.volume = language, rate, volume

    def command(self, text: str) -> list[str]:
        # spd-say's rate and volume run from -100 to 100; Murmur's rate 0.5..2 has 1 in the middle.
        rate = round((self.rate - 1) * (200 if self.rate < 1 else 100))
        volume = round(self.volume * 200 - 100)
        return [SPD_SAY, "--wait", "-l", self.language, "-r", str(rate), "-i", str(volume), "--", text]

    def say(self, text: str, stopping: threading.Event) -> Played:
        """Speak `text`; return when it has been heard, or soon after `stopping` is set (then it is cancelled)."""
        started = time.monotonic()
        try:
            process = subprocess.Popen(self.command(text), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as error:
            raise VoiceError(f"speech-dispatcher failed: {error}") from None
        stopped = False
        while process.poll() is None and not stopped:
            stopped = stopping.wait(POLL_SECONDS)
        if stopped:
            subprocess.run([SPD_SAY, "--cancel"], capture_output=True, timeout=10, check=False)
            process.terminate()
        _, errors = process.communicate(timeout=10)
        if not stopped and process.returncode != 0:
            why = errors.decode(errors="replace").strip().splitlines()
            raise VoiceError(f"speech-dispatcher cannot speak: {why[0] if why else f'exit {process.returncode}'}")
        return Played(round(time.monotonic() - started, 3), None, stopped)
