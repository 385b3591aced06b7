"""A reply that cannot be spoken: the text stays on screen (the activity line and the toast), with one calm
line saying why; the app is not in an error state. Real espeak-ng missing from PATH, the real offline rules."""

from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceSource
from app.ui.application import Murmur
from app.ui.icons import AppState


def test_without_a_voice_the_answer_is_shown_and_says_why_it_was_not_spoken(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng, and no Piper voice installed
    murmur.settings = replace(murmur.settings, speech=replace(murmur.settings.speech, voice="espeak-ng"))
    with qtbot.waitSignal(murmur.reply_voice.failed, timeout=15_000) as failed:
        murmur.submit("what is due today", UtteranceSource.VOICE)
    assert failed.args == ["espeak-ng is not installed (Debian: apt install espeak-ng)"]
    shown = murmur.window.activity.outcome.text().splitlines()
    assert shown == ["Nothing is due today.", f"Not spoken: {failed.args[0]}"]
    assert murmur.toast.title.text() == "Answer" and "Nothing is due today." in murmur.toast.message.text()
    assert murmur.state() is AppState.IDLE and not murmur.reply_voice.is_speaking()


def test_typed_words_are_answered_on_screen_only(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.assertNotEmitted(murmur.reply_voice.started), qtbot.assertNotEmitted(murmur.reply_voice.failed):
        # A reply is begun (or not) as the report is shown, before the list it is followed by: by entries_shown
        # the voice would have started, and it can fail only once started.
        with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
            murmur.submit("what is due today", UtteranceSource.TYPED)
    assert murmur.window.activity.outcome.text() == "Nothing is due today."
