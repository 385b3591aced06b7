"""The real app on a real X server: Xvfb with a tray (trayer), the global hotkey pressed with xdotool
(pynput hears it through the X RECORD extension), flite speech played into a private PulseAudio
null sink that the app records as its microphone, and the offline rules (no LLM configured).

Every process started here is ended by its PID when the test ends, pass or fail.
"""

import os
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from app.config import Settings, SpeechSettings, save_settings
from tests.support.pulse import PulseAudio
from tests.support.speech import flite_wav
from tests.support.xserver import end, wait_for, xdotool

pytestmark = pytest.mark.desktop

ROOT = Path(__file__).parents[2]
SENTENCE = "remind me to call the dentist on thursday"
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


def test_hotkey_speech_into_the_microphone_makes_an_entry(
    tmp_path: Path, display: str, pulse_audio: PulseAudio
) -> None:
    """Hold Ctrl+Alt+Space (xdotool keydown), say the sentence, let go: the reminder is in the database."""
    wav = flite_wav(SENTENCE, tmp_path / "speech.wav")
    settings = Settings()
    save_settings(
        replace(
            settings,
            speech=SpeechSettings(engine="pocketsphinx", device=pulse_audio.device),
            ui=replace(settings.ui, hotkey="<ctrl>+<alt>+<space>", hotkey_mode="hold", audio_cues=False),
        )
    )
    db, logs = tmp_path / "murmur.db", Path(os.environ["MURMUR_LOG_DIR"])
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("OPENAI_", "MURMUR_LLM_", "QT_QPA_")) and key != "WAYLAND_DISPLAY"
    }
    env |= {
        "DISPLAY": display,
        "MURMUR_DB": str(db),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",  # no LLM key: the offline rules run
        "XDG_SESSION_TYPE": "x11",
    }

    def murmur(*args: str) -> "subprocess.CompletedProcess[str]":
        command = [sys.executable, "-m", "app", *args]
        return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)

    with (tmp_path / "app.out").open("wb") as output:
        app = subprocess.Popen([sys.executable, "-m", "app"], env=env, cwd=ROOT, stdout=output, stderr=output)
    try:
        wait_for("the app to answer `murmur show`", lambda: murmur("show").returncode == 0, 60)
        wait_for("the window", lambda: xdotool(display, "search", "--name", "^Murmur$").returncode == 0, 30)

        # The microphone is open from the start (armed, for the pre-roll); the hotkey starts the recording.
        wait_for("the microphone to be armed", lambda: "microphone open" in log_text(logs), 30)
        xdotool(display, "keydown", HOTKEY)
        wait_for("the hotkey to start a recording", lambda: "recording started" in log_text(logs), 30)
        pulse_audio.play(wav)
        xdotool(display, "keyup", HOTKEY)
        # pocketsphinx hears flite's voice roughly ("tell the dentist ..." at times): the dentist is what counts
        wait_for("an entry about the dentist", lambda: bool(dentist_entries(db)), 60)
        assert len(dentist_entries(db)) == 1, log_text(logs)

        murmur("show")  # the window on top, the list refreshed by the time the command is answered
        screenshot = tmp_path / "murmur-e2e.png"
        subprocess.run(
            ["import", "-window", "root", str(screenshot)], env={**os.environ, "DISPLAY": display}, check=True
        )
        print(f"screenshot: {screenshot}")
        assert screenshot.stat().st_size > 0
    finally:
        end(app)
