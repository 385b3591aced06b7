"""One spoken run's event stream, written out: the talk key's recording (the microphone a fake that hears
"buy oat milk"), the real service with the offline rules and a real SQLite file, and the reply it cannot say
(no voice on PATH). From the key press to the reply, every event carries the one run's ID."""

from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.domain.clock import Clock
from app.domain.enums import Status
from app.ui.application import Murmur
from tests.support.bridge_events import BridgeEvents
from tests.support.fake_dictation import FakeMicrophone
from tests.support.run_events import not_spoken, reduced

WAIT_MS = 15_000
NO_VOICE = "espeak-ng is not installed (Debian: apt install espeak-ng)"

SPOKEN_RUN = [
    ("listen", "RunStart", ("voice",)),
    ("listen", "ListeningStarted", ()),
    ("transcribe", "PartialTranscript", ("buy oat",)),
    ("listen", "ListeningStopped", ()),
    ("transcribe", "FinalTranscript", ("buy oat milk",)),
    ("interpret", "TranscriptEvent", ("buy oat milk", "voice")),
    ("interpret", "ThinkingEvent", (1, "offline")),
    ("apply", "AppliedEvent", (1, 0)),
    ("apply", "RunEnd", ("1 created", 1, 0, True, ("Buy oat milk",))),
    ("reply", "ReplyStarted", ("I added Buy oat milk.",)),
    ("reply", "ErrorEvent", (NO_VOICE, "speech")),
]


def test_a_spoken_run_reports_from_the_key_press_to_the_reply_under_one_id(
    qtbot: QtBot,
    murmur_with_microphone: Murmur,
    microphone: FakeMicrophone,
    clock: Clock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    murmur = murmur_with_microphone
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng, and no Piper voice installed
    speech = replace(murmur.settings.speech, voice="espeak-ng", reply="always")
    murmur.settings = replace(murmur.settings, speech=speech, ui=replace(murmur.settings.ui, audio_cues=False))
    murmur.service.clock = lambda: clock
    reported = BridgeEvents(murmur.bridge)
    murmur.hotkey_switch.press()
    microphone.made[-1].on_partial("buy oat")  # the recording's (the new settings armed a new microphone)
    murmur.hotkey_switch.release()
    reported.first(qtbot, not_spoken, WAIT_MS)
    events = reported.events
    names = {entry.id: entry.summary for entry in murmur.service.entries(list(Status))}
    assert reduced(events, names.__getitem__) == SPOKEN_RUN
    # the one run object went from the key press to the reply: it timed each stage it was driven through
    [kept] = murmur.service.recent_runs()
    assert kept.id == events[0].run_id and kept.source == "voice" and kept.applied == 1
    assert list(kept.ms) == ["listen", "transcribe", "interpret", "reply"]
