"""A reply that cannot be spoken: the text stays on screen (the activity line and the toast), with one calm
line saying why; the app is not in an error state. Real espeak-ng missing from PATH, the real offline rules."""

from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceSource
from app.domain.events import ErrorEvent, PipelineEvent, ReplyStarted
from app.ui.application import Murmur
from app.ui.icons import AppState
from tests.support.bridge_events import BridgeEvents
from tests.support.run_events import not_spoken


def test_without_a_voice_the_answer_is_shown_and_says_why_it_was_not_spoken(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng, and no Piper voice installed
    murmur.settings = replace(murmur.settings, speech=replace(murmur.settings.speech, voice="espeak-ng"))
    reported = BridgeEvents(murmur.bridge)
    murmur.conductor.submit("what is due today", UtteranceSource.VOICE)
    failure = reported.first(qtbot, not_spoken, 15_000)
    assert isinstance(failure, ErrorEvent)
    assert failure.message == "espeak-ng is not installed (Debian: apt install espeak-ng)"
    shown = murmur.window.activity.outcome.text().splitlines()
    assert shown == ["Nothing is due today.", f"Not spoken: {failure.message}"]
    assert murmur.toast.title.text() == "Answer" and "Nothing is due today." in murmur.toast.message.text()
    assert murmur.state() is AppState.IDLE and not murmur.reply_voice.is_speaking()


def test_typed_words_are_answered_on_screen_only(qtbot: QtBot, murmur: Murmur) -> None:
    events: list[PipelineEvent] = []
    murmur.bridge.progressed.connect(events.append)
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        murmur.conductor.submit("what is due today", UtteranceSource.TYPED)
    qtbot.wait(200)
    assert not [e for e in events if isinstance(e, ReplyStarted) or not_spoken(e)]
    assert murmur.window.activity.outcome.text() == "Nothing is due today."
