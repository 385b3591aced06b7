"""The real app on a real X server: Xvfb with a tray (trayer), the global hotkey pressed with xdotool
(pynput hears it through the X RECORD extension), flite speech played into a private PulseAudio
null sink that the app records as its microphone, and the offline rules (no LLM configured).

Every process started here is ended by its PID when the test ends, pass or fail.
"""

import os
import sqlite3
import subprocess
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.support.desktop_app import HOTKEY, DesktopApp, dentist_entries, desktop_settings
from tests.support.llm_server import FakeLlmServer, Reply, Step, call
from tests.support.pulse import PulseAudio
from tests.support.speech import REPLIES, flite_wav, joe_voice, pad_with_silence
from tests.support.xserver import end, wait_for, xdotool

pytestmark = pytest.mark.desktop

SENTENCE = "remind me to call the dentist on thursday"
QUESTION = "Which milk, the oat milk or the regular one?"


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
