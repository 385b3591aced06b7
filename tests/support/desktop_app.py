"""The real app as a process of its own on the test's X server (tests/support/xserver.py), with its settings, log
and database in the test's folders, driven as a user would: the hotkey with xdotool, speech into a PulseAudio
microphone, `murmur` commands."""

import os
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from app.config import Settings, SpeechSettings, save_settings
from tests.support.in_process import run_in_process
from tests.support.pulse import PulseAudio
from tests.support.xserver import wait_for, xdotool

ROOT = Path(__file__).parents[2]
HOTKEY = "ctrl+alt+space"  # xdotool's name for the default <ctrl>+<alt>+<space>


def dentist_entries(db: Path) -> list[str]:
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
        try:
            rows = connection.execute("SELECT summary FROM entries WHERE summary LIKE '%dentist%'").fetchall()
        except sqlite3.OperationalError:  # the app has not made its tables yet
            return []
    return [summary for (summary,) in rows]


def log_text(folder: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in folder.glob("*.log*")) if folder.is_dir() else ""


class DesktopApp:
    """`python -m app` on the test's X server with `settings`, its log and database in the test's dirs; `extra_env`:
    more variables for it."""

    def __init__(self, tmp_path: Path, display: str, settings: Settings, **extra_env: str) -> None:
        save_settings(settings)
        self.display, self.db, self.logs = display, tmp_path / "murmur.db", Path(os.environ["MURMUR_LOG_DIR"])
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("OPENAI_", "MURMUR_LLM_", "QT_QPA_")) and key != "WAYLAND_DISPLAY"
        }
        self.env = (
            env
            | {
                "DISPLAY": display,
                "MURMUR_DB": str(self.db),
                "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",  # no LLM key in the user's keyring
                "XDG_SESSION_TYPE": "x11",
            }
            | extra_env
        )
        with (tmp_path / "app.out").open("wb") as output:
            command = [sys.executable, "-m", "app"]
            self.process = subprocess.Popen(command, env=self.env, cwd=ROOT, stdout=output, stderr=output)

    def murmur(self, *args: str) -> "subprocess.CompletedProcess[str]":
        """`murmur args` with the app's environment, run in this process (tests/support/in_process.py): a command
        for the running app is a message on its socket, whoever sends it; waiting for the app to answer polls
        with it, and a process per poll took a second of the core the app was starting on."""
        return run_in_process(args, self.env, None)

    def log(self) -> str:
        return log_text(self.logs)

    def wait_until_listening(self) -> None:
        """The window is up and the microphone armed (it stays open for the moment before the hotkey)."""
        wait_for("the app to answer `murmur show`", lambda: self.murmur("show").returncode == 0, 60)
        wait_for("the window", lambda: xdotool(self.display, "search", "--name", "^Murmur$").returncode == 0, 30)
        wait_for("the microphone to be armed", lambda: "microphone open" in self.log(), 30)

    def say_with_hotkey(self, pulse_audio: PulseAudio, wav: Path) -> None:
        """Hold the hotkey, play `wav` into the microphone, let go."""
        started = self.log().count("recording started")
        xdotool(self.display, "keydown", HOTKEY)
        wait_for("the hotkey to start a recording", lambda: self.log().count("recording started") > started, 30)
        pulse_audio.play(wav)
        xdotool(self.display, "keyup", HOTKEY)


def desktop_settings(pulse_audio: PulseAudio, **speech: object) -> Settings:
    settings = Settings()
    return replace(
        settings,
        speech=replace(SpeechSettings(engine="pocketsphinx", device=pulse_audio.device), **speech),
        ui=replace(settings.ui, hotkey="<ctrl>+<alt>+<space>", hotkey_mode="hold", audio_cues=False),
    )
