"""The real app on a real X server: Xvfb with a tray (trayer), the global hotkey pressed with xdotool
(pynput hears it through the X RECORD extension), flite speech played into a private PulseAudio
null sink that the app records as its microphone, and the offline rules (no LLM configured).

Every process started here is ended by its PID when the test ends, pass or fail.
"""

import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from app.config import Settings, SpeechSettings, save_settings
from tests.support.llm_server import FakeLlmServer, Reply, Step, call
from tests.support.pulse import PulseAudio
from tests.support.speech import REPLIES, flite_wav, joe_voice, pad_with_silence
from tests.support.xserver import end, wait_for, xdotool

pytestmark = pytest.mark.desktop

ROOT = Path(__file__).parents[2]
SENTENCE = "remind me to call the dentist on thursday"
HOTKEY = "ctrl+alt+space"  # xdotool's name for the default <ctrl>+<alt>+<space>
QUESTION = "Which milk, the oat milk or the regular one?"


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
    """`python -m app` on the test's X server with `settings`, its log and database in the test's dirs."""

    def __init__(self, tmp_path: Path, display: str, settings: Settings) -> None:
        save_settings(settings)
        self.display, self.db, self.logs = display, tmp_path / "murmur.db", Path(os.environ["MURMUR_LOG_DIR"])
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("OPENAI_", "MURMUR_LLM_", "QT_QPA_")) and key != "WAYLAND_DISPLAY"
        }
        self.env = env | {
            "DISPLAY": display,
            "MURMUR_DB": str(self.db),
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",  # no LLM key in the user's keyring
            "XDG_SESSION_TYPE": "x11",
        }
        with (tmp_path / "app.out").open("wb") as output:
            command = [sys.executable, "-m", "app"]
            self.process = subprocess.Popen(command, env=self.env, cwd=ROOT, stdout=output, stderr=output)

    def murmur(self, *args: str) -> "subprocess.CompletedProcess[str]":
        command = [sys.executable, "-m", "app", *args]
        return subprocess.run(command, env=self.env, cwd=ROOT, capture_output=True, text=True, timeout=60)

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


def test_hotkey_speech_into_the_microphone_makes_an_entry(
    tmp_path: Path, display: str, pulse_audio: PulseAudio
) -> None:
    """Hold Ctrl+Alt+Space (xdotool keydown), say the sentence, let go: the reminder is in the database."""
    wav = flite_wav(SENTENCE, tmp_path / "speech.wav")
    app = DesktopApp(tmp_path, display, desktop_settings(pulse_audio))
    try:
        app.wait_until_listening()
        app.say_with_hotkey(pulse_audio, wav)
        # pocketsphinx hears flite's voice roughly ("tell the dentist ..." at times): the dentist is what counts
        wait_for("an entry about the dentist", lambda: bool(dentist_entries(app.db)), 60)
        assert len(dentist_entries(app.db)) == 1, app.log()

        app.murmur("show")  # the window on top, the list refreshed by the time the command is answered
        screenshot = tmp_path / "murmur-e2e.png"
        subprocess.run(
            ["import", "-window", "root", str(screenshot)], env={**os.environ, "DISPLAY": display}, check=True
        )
        print(f"screenshot: {screenshot}")
        assert screenshot.stat().st_size > 0
    finally:
        end(app.process)


def entry_statuses(db: Path) -> dict[str, str]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
        return dict(connection.execute("SELECT summary, status FROM entries").fetchall())


def logged_at(log: str, words: str) -> datetime:
    """When the app logged the first line holding `words` (the log's clock: this machine's local time)."""
    line = next(line for line in log.splitlines() if words in line)
    return datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f")


def test_a_spoken_question_is_answered_hands_free_and_the_hotkey_talks_over_murmur(
    tmp_path: Path, display: str, pulse_audio: PulseAudio
) -> None:
    """The real app on Xvfb, the real microphone path (a PulseAudio null sink), a scripted chat server on
    127.0.0.1: "milk is done" is asked about aloud (Piper, into the same sink the microphone records), the
    answer is said into the window that opens after the question, and the oat milk is ticked off. Then a long
    answer is talked over with the hotkey: Murmur goes quiet at once."""
    long_answers: list[bool] = []

    def model(body: dict[str, Any]) -> Step:
        messages = body["messages"]
        said = [m["content"] for m in messages if m["role"] == "user"]
        if messages[-1]["role"] == "tool":
            return Reply("Ticked off the oat milk.")
        if long_answers:
            return Reply(" ".join(REPLIES))  # an answer, not a question: long enough to talk over
        if len(said) == 1:
            return Reply(QUESTION)
        return Reply(tool_calls=[call("complete_entries", {"entries": [{"id": oat_id(), "reason": "the oat one"}]})])

    def oat_id() -> str:
        with sqlite3.connect(f"file:{app.db}?mode=ro", uri=True, timeout=5) as connection:
            return str(connection.execute("SELECT id FROM entries WHERE summary = 'Buy oat milk'").fetchone()[0])

    with FakeLlmServer(model) as server:
        settings = desktop_settings(pulse_audio, output_device=pulse_audio.device, voice=str(joe_voice()))
        settings = replace(settings, llm=replace(settings.llm, base_url=server.base_url, model="test-model"))
        app = DesktopApp(tmp_path, display, settings)
        try:
            for item in ("buy oat milk", "buy milk"):
                assert app.murmur("add", "--offline", item).returncode == 0
            app.wait_until_listening()
            app.say_with_hotkey(pulse_audio, flite_wav("milk is done", tmp_path / "milk.wav"))
            wait_for("the question to be spoken", lambda: "spoke " in app.log(), 60)
            wait_for("the answer window", lambda: app.log().count("recording started") >= 2, 30)
            answer = pad_with_silence(flite_wav("the oat one", tmp_path / "oat.wav"), tmp_path / "oat-padded.wav")
            pulse_audio.play(answer)
            wait_for("the oat milk ticked off", lambda: entry_statuses(app.db)["Buy oat milk"] == "completed", 60)
            assert entry_statuses(app.db)["Buy milk"] == "active"
            follow_up = server.requests[1]["messages"]
            assert {"role": "assistant", "content": QUESTION} in [
                {"role": m["role"], "content": m.get("content")} for m in follow_up
            ], follow_up  # the same conversation
            heard = [m["content"] for m in follow_up if m["role"] == "user"][-1]
            assert "milk" not in heard.lower(), heard  # the answer, not Murmur's own question heard back

            long_answers.append(True)
            app.say_with_hotkey(pulse_audio, flite_wav("what is due today", tmp_path / "due.wav"))
            wait_for("the long answer to be spoken", lambda: app.log().count("speaking on") >= 2, 60)
            time.sleep(1.0)
            pressed = datetime.now()
            xdotool(display, "keydown", HOTKEY)
            wait_for("the answer to stop", lambda: "(stopped)" in app.log(), 10)
            xdotool(display, "keyup", HOTKEY)
            quiet_after = (logged_at(app.log(), "(stopped)") - pressed).total_seconds()
            print(f"hotkey -> speaker quiet: {quiet_after * 1000:.0f} ms (xdotool, X and pynput included)")
        finally:
            end(app.process)
