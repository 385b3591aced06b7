"""Quit ends the process, every time: the real app on Xvfb with its tray, after a dictation through a PulseAudio
microphone, while it speaks its reply (Piper) and while a sync hangs on a server that never answers, quit through
the tray's menu, `murmur quit` or SIGTERM; and quit while Whisper writes the final text. A quit that hangs or
crashes once in a few is the fault this guards against: MURMUR_QUIT_TRIES=N tries each way N times (the suite
tries each once, to keep its time)."""

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.config import SyncSettings
from app.secrets import SYNC_PASSWORD
from app.ui.application import ENGINE_WAIT_SECONDS
from tests.support.desktop_app import DesktopApp, dentist_entries, desktop_settings
from tests.support.pulse import PulseAudio
from tests.support.silent_server import silent_server
from tests.support.speech import flite_wav, joe_voice
from tests.support.xserver import end, wait_for, xdotool

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

# From the quit asked to the process gone: the sync's bounded wait (2 s), the speaker's and the database's
# closing, the process's own exit (about 1.5 s), and the slack of a machine busy with other tests. Before each
# wait was bounded, a hung sync alone held the quit 10 s.
QUIT_SECONDS = 8.0
TRIES = int(os.environ.get("MURMUR_QUIT_TRIES", "1"))


def tray_icon(display: str) -> str:
    """The window of Murmur's tray icon: the one named Murmur nested in trayer's panel."""
    tree = subprocess.run(
        ["xwininfo", "-root", "-tree"], env={**os.environ, "DISPLAY": display}, capture_output=True, text=True
    ).stdout
    panel = tree.split('"panel"', 1)[-1] if '"panel"' in tree else ""
    return next((line.split()[0] for line in panel.splitlines() if '"Murmur"' in line), "")


def quit_from_the_tray(app: DesktopApp) -> None:
    icon = tray_icon(app.display)
    assert icon, "no tray icon"
    xdotool(app.display, "mousemove", "--window", icon, "5", "5", "click", "3")
    time.sleep(0.5)  # the menu takes keys once mapped with the keyboard grabbed; it has no name to wait for
    xdotool(app.display, "key", "Up", "Return")  # the last item: Quit


def quit_with_the_command(app: DesktopApp) -> None:
    done = app.murmur("quit")
    assert done.returncode == 0, done.stderr


def quit_with_sigterm(app: DesktopApp) -> None:
    app.process.send_signal(signal.SIGTERM)


WAYS: dict[str, Callable[[DesktopApp], None]] = {
    "tray": quit_from_the_tray,
    "command": quit_with_the_command,
    "sigterm": quit_with_sigterm,
}


@pytest.fixture(scope="module")
def hung_sync_port() -> Iterator[int]:
    with silent_server() as port:
        yield port


@pytest.mark.parametrize("attempt", range(TRIES))
@pytest.mark.parametrize("way", WAYS)
def test_quit_ends_the_process_while_it_speaks_and_a_sync_hangs(
    tmp_path: Path, display: str, pulse_audio: PulseAudio, hung_sync_port: int, way: str, attempt: int
) -> None:
    settings = desktop_settings(pulse_audio, reply="always", output_device=pulse_audio.device, voice=str(joe_voice()))
    settings = replace(settings, sync=SyncSettings(url=f"http://127.0.0.1:{hung_sync_port}/", username="alice"))
    app = DesktopApp(tmp_path, display, settings, **{SYNC_PASSWORD.env: "secret"})
    try:
        app.wait_until_listening()
        app.say_with_hotkey(pulse_audio, flite_wav("remind me to call the dentist on thursday", tmp_path / "said.wav"))
        wait_for("an entry about the dentist", lambda: bool(dentist_entries(app.db)), 60)
        wait_for("the reply to be spoken", lambda: "speaking on" in app.log(), 30)
        asked = time.monotonic()
        WAYS[way](app)
        try:
            app.process.wait(QUIT_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {QUIT_SECONDS:.0f} s after quit ({way}); its log:\n{app.log()[-3000:]}")
        took = time.monotonic() - asked
        print(f"quit ({way}) while speaking and syncing: the process ended after {took:.1f} s")
        log = app.log()
        assert app.process.returncode == 0, log[-3000:]
        assert "quit: ending the process" in log  # the orderly way, every step in time
        assert "did not end in time" not in log, log[-3000:]
        assert "quit during a sync" in log  # the hung sync was left behind, its changes still queued
        assert dentist_entries(app.db)  # what was said is kept
    finally:
        end(app.process)


@pytest.mark.parametrize("attempt", range(max(TRIES, 2)))  # at the release, and once a little later
def test_quit_during_a_whisper_final_pass_ends_the_process_cleanly(
    tmp_path: Path, display: str, pulse_audio: PulseAudio, whisper_model: Path, attempt: int
) -> None:
    """Quit as the key is let go, while Whisper (CTranslate2, on threads of its own) writes the final text: the
    process used to crash or hang in the libraries' teardown under the still running decode."""
    settings = desktop_settings(pulse_audio, whisper_model=str(whisper_model), final_engine="whisper")
    app = DesktopApp(tmp_path, display, settings)
    try:
        app.wait_until_listening()
        app.say_with_hotkey(pulse_audio, flite_wav("remind me to call the dentist on thursday", tmp_path / "said.wav"))
        time.sleep(0.6 * attempt)  # at the key's release, and a little later: the final pass is under way
        asked = time.monotonic()
        quit_from_the_tray(app)
        try:
            app.process.wait(QUIT_SECONDS + ENGINE_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running after quit during a final pass; its log:\n{app.log()[-3000:]}")
        print(f"quit during a Whisper final pass: the process ended after {time.monotonic() - asked:.1f} s")
        log = app.log()
        assert app.process.returncode == 0, log[-3000:]  # not killed by a signal (SIGSEGV, SIGABRT)
        assert "quit: leaving the event loop" in log and "did not end in time" not in log, log[-3000:]
        # Whisper done within its wait, the process ends as usual; still decoding, it ends without the teardown.
        assert ("quit: ending the process" in log) != ("the process ends without its teardown" in log), log[-3000:]
    finally:
        end(app.process)
