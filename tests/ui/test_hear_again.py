"""Play and Hear again in the Inbox, through the whole app: dictations saved with their sound by the real service
(flite's speech), the worker, Whisper (the real base model) hearing them again, the toast's Undo."""

import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.config import Settings, SpeechSettings
from app.domain.enums import Status, UtteranceSource
from app.presentation.edits import sentence
from app.speech_in.files import transcribe_file
from app.store.models import Utterance
from app.ui.application import Murmur
from app.ui.icons import AppState
from app.ui.inbox_view import InboxView
from app.ui.microphone import real_dictation
from tests.support.pulse import PulseAudio, room_recording
from tests.support.speech import captured_speech, word_error_rate
from tests.ui.conftest import started_murmur

WAIT_MS = 15_000
HEARING_MS = 120_000  # Whisper's base model loads, then reads a second and a half of speech on a shared core
QUIET = Settings().ui  # no start and stop cues: nothing here is about them


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """'buy milk and bread' said by flite, 16 kHz mono int16 with silence around it, as the capture hands it on."""
    return captured_speech("buy milk and bread", tmp_path_factory.mktemp("said"))


@pytest.fixture
def with_whisper(qtbot: QtBot, db_path: Path, whisper_model: Path) -> Iterator[Murmur]:
    speech_settings = replace(SpeechSettings(), whisper_model=str(whisper_model))
    settings = Settings(ui=replace(QUIET, audio_cues=False), speech=speech_settings)
    yield from started_murmur(qtbot, db_path, real_dictation, arm=False, settings=settings)


def misheard(qtbot: QtBot, murmur: Murmur, speech: bytes, *typed: str) -> int:
    """'eggs are done' as the live engine misheard 'buy milk and bread' (nothing matches: it waits in the inbox),
    its sound kept; `typed`: more that waits, without a sound. The window shows them all."""
    said = murmur.service.submit("eggs are done", UtteranceSource.VOICE, audio=speech).utterance_id
    for text in typed:
        murmur.service.submit(text, UtteranceSource.TYPED)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    return said


def select(inbox: InboxView, utterance_id: int) -> None:
    inbox.tree.clearSelection()
    for row in range(inbox.tree.topLevelItemCount()):
        item = inbox.tree.topLevelItem(row)
        assert item is not None
        if item.data(0, Qt.ItemDataRole.UserRole + 1) == utterance_id:
            item.setSelected(True)
            return
    raise AssertionError(f"utterance {utterance_id} is not listed")


def test_play_and_hear_again_wait_for_a_recording_and_say_why_not(qtbot: QtBot, murmur: Murmur, speech: bytes) -> None:
    inbox = murmur.window.inbox
    buttons = inbox.recording
    assert [b.accessibleName() for b in (buttons.play_button, buttons.hear_button)] == ["Play", "Hear again"]
    said = misheard(qtbot, murmur, speech, "socks are done")
    assert not buttons.play_button.isEnabled() and not buttons.hear_button.isEnabled()  # nothing chosen
    select(inbox, said)
    assert buttons.play_button.isEnabled() and buttons.hear_button.isEnabled()
    [typed] = [u.id for u in murmur.service.inbox() if u.id != said]
    assert typed is not None
    select(inbox, typed)
    assert not buttons.play_button.isEnabled() and not buttons.hear_button.isEnabled()
    assert buttons.play_button.toolTip() == buttons.hear_button.toolTip() == "No recording kept"

    later = replace(murmur.service.clock(), now=murmur.service.clock().now + timedelta(days=31))
    murmur.service.clock = lambda: later
    assert murmur.service.prune_recordings() == 1
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    select(inbox, said)
    assert not buttons.play_button.isEnabled() and not buttons.hear_button.isEnabled()
    assert buttons.play_button.toolTip() == "Recording removed after 30 days"


@pytest.mark.slow  # Whisper reads the recording again
def test_hear_again_runs_what_whisper_hears_keeps_the_first_words_and_undo_takes_it_back(
    qtbot: QtBot, with_whisper: Murmur, speech: bytes
) -> None:
    murmur = with_whisper
    said = misheard(qtbot, murmur, speech)
    inbox = murmur.window.inbox
    select(inbox, said)
    qtbot.mouseClick(inbox.recording.hear_button, Qt.MouseButton.LeftButton)
    assert murmur.window.activity.status.text() == "Hearing it again…"
    qtbot.waitUntil(lambda: inbox.tree.topLevelItemCount() == 0, timeout=HEARING_MS)
    [entry] = murmur.service.entries([Status.ACTIVE])
    assert word_error_rate("buy milk and bread", entry.source_text) == 0, entry.source_text
    with murmur.service.store.read() as session:
        utterance = session.get(Utterance, said)
        assert utterance is not None and utterance.heard_text == "eggs are done"
    toast = murmur.toast
    assert toast.content is not None and not toast.content.error and toast.undo_button.isVisible()
    assert murmur.window.activity.status.text() != "Hearing it again…"

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(toast.undo_button, Qt.MouseButton.LeftButton)
    assert murmur.service.entries([Status.ACTIVE]) == []


@pytest.mark.slow  # Whisper reads two recordings again
def test_the_inbox_offers_whisper_for_what_waits_and_hears_each_again(
    qtbot: QtBot, with_whisper: Murmur, speech: bytes
) -> None:
    murmur = with_whisper
    first = misheard(qtbot, murmur, speech, "socks are done")
    second = misheard(qtbot, murmur, speech)
    offer = murmur.window.inbox.offer
    assert not offer.isHidden()
    assert offer.line.whole_text() == "2 waiting items can be heard again with Whisper (whisper-base) —"
    qtbot.mouseClick(offer.button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(offer.button, Qt.MouseButton.LeftButton)  # impatient: what is queued is not queued twice
    inbox = murmur.window.inbox.tree
    qtbot.waitUntil(lambda: inbox.topLevelItemCount() == 1 and murmur.state() is AppState.IDLE, timeout=2 * HEARING_MS)
    assert murmur.toast.content is not None and not murmur.toast.content.error, murmur.toast.content
    assert [u.text for u in murmur.service.inbox()] == ["socks are done"]  # no sound: not offered, left as it was
    qtbot.waitUntil(offer.isHidden, timeout=WAIT_MS)  # nothing left that Whisper could hear again
    with murmur.service.store.read() as session:
        heard = [session.get(Utterance, utterance_id) for utterance_id in (first, second)]
        assert [(u.heard_text, word_error_rate("buy milk and bread", u.text)) for u in heard if u] == [
            ("eggs are done", 0),
            ("eggs are done", 0),
        ]


def test_play_on_a_speaker_that_is_not_there_says_so(qtbot: QtBot, murmur: Murmur, speech: bytes) -> None:
    murmur.settings = replace(murmur.settings, speech=replace(murmur.settings.speech, output_device="no such speaker"))
    said = misheard(qtbot, murmur, speech)
    inbox = murmur.window.inbox
    select(inbox, said)
    with qtbot.waitSignal(murmur.player.failed, timeout=WAIT_MS) as failed:
        qtbot.mouseClick(inbox.recording.play_button, Qt.MouseButton.LeftButton)
    # Where PortAudio lists speakers, it names the one missing; where it lists none (no sound server), it says so.
    assert "no such speaker" in failed.args[0] or failed.args[0].startswith("no speaker found"), failed.args[0]
    assert murmur.toast.title.text() == sentence(failed.args[0])
    assert murmur.toast.content is not None and murmur.toast.content.error
    assert inbox.recording.play_button.text() == "Play"


@pytest.fixture
def on_the_speaker(qtbot: QtBot, db_path: Path, pulse_audio: PulseAudio) -> Iterator[Murmur]:
    """The app playing on a private PulseAudio's speaker, whose room the test records."""
    settings = Settings(ui=replace(QUIET, audio_cues=False), speech=SpeechSettings(output_device=pulse_audio.device))
    yield from started_murmur(qtbot, db_path, real_dictation, arm=False, settings=settings)


@pytest.mark.pulse
def test_play_says_the_recording_in_the_room(
    qtbot: QtBot,
    on_the_speaker: Murmur,
    pulse_audio: PulseAudio,
    speech: bytes,
    tmp_path: Path,
) -> None:
    murmur = on_the_speaker
    said = misheard(qtbot, murmur, speech)
    buttons = murmur.window.inbox.recording
    select(murmur.window.inbox, said)
    with room_recording(pulse_audio, tmp_path / "room.wav") as room:
        with qtbot.waitSignal(murmur.player.playing_changed, timeout=WAIT_MS, check_params_cb=lambda u: u is None):
            qtbot.mouseClick(buttons.play_button, Qt.MouseButton.LeftButton)
            assert buttons.play_button.text() == "Stop"
    assert buttons.play_button.text() == "Play"
    heard = transcribe_file(room, SpeechSettings(engine="pocketsphinx", final_engine="live")).transcript.text
    assert word_error_rate("buy milk and bread", heard) <= 0.25, heard


@pytest.mark.pulse
def test_a_second_press_stops_it_at_once(qtbot: QtBot, on_the_speaker: Murmur, speech: bytes) -> None:
    murmur = on_the_speaker
    said = misheard(qtbot, murmur, speech)
    buttons = murmur.window.inbox.recording
    select(murmur.window.inbox, said)
    qtbot.mouseClick(buttons.play_button, Qt.MouseButton.LeftButton)
    qtbot.wait(300)  # the speaker has opened, and plays
    pressed = time.monotonic()
    with qtbot.waitSignal(murmur.player.playing_changed, timeout=WAIT_MS, check_params_cb=lambda u: u is None):
        qtbot.mouseClick(buttons.play_button, Qt.MouseButton.LeftButton)
    assert time.monotonic() - pressed < 0.5 * len(speech) / 32_000  # long before the sound's end
    assert buttons.play_button.text() == "Play"


def test_the_details_pane_plays_what_was_said_and_hears_again_only_what_waits(
    qtbot: QtBot, murmur: Murmur, speech: bytes
) -> None:
    murmur.service.submit("buy milk and bread", UtteranceSource.VOICE, audio=speech)  # applied: an entry
    murmur.service.submit("call the dentist", UtteranceSource.TYPED)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    recorded, typed = (e for e in sorted(murmur.service.entries([Status.ACTIVE]), key=lambda e: e.summary))
    details = murmur.window.details.recording
    assert murmur.window.select_entry(typed.id)
    assert details.isHidden()  # typed: nothing was recorded
    assert murmur.window.select_entry(recorded.id)
    assert not details.isHidden() and details.play_button.isEnabled() and not details.hear_button.isEnabled()
    assert details.hear_button.toolTip() == "Already applied: only what waits in the Inbox is heard again"
    with qtbot.waitSignal(murmur.player.playing_changed, timeout=WAIT_MS) as started:
        qtbot.mouseClick(details.play_button, Qt.MouseButton.LeftButton)
    assert started.args == [recorded.utterance_id]


def test_hear_again_of_a_sound_forgotten_meanwhile_says_what_brings_it_back(
    qtbot: QtBot, murmur: Murmur, speech: bytes
) -> None:
    said = misheard(qtbot, murmur, speech)
    inbox = murmur.window.inbox
    select(inbox, said)
    murmur.service.forget_audio(said)  # from a terminal, after the window showed it
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.mouseClick(inbox.recording.hear_button, Qt.MouseButton.LeftButton)
    toast = murmur.toast.content
    assert toast is not None and toast.error
    assert toast.message.startswith(
        f"the recording of utterance {said} was forgotten; the History's undo brings it back"
    )
    assert [u.id for u in murmur.service.inbox()] == [said]  # it still waits, its words as they were


@pytest.mark.pulse
def test_stopped_the_speaker_closes_before_the_quit_goes_on(
    qtbot: QtBot, on_the_speaker: Murmur, speech: bytes
) -> None:
    murmur = on_the_speaker
    said = misheard(qtbot, murmur, speech)
    select(murmur.window.inbox, said)
    qtbot.mouseClick(murmur.window.inbox.recording.play_button, Qt.MouseButton.LeftButton)
    qtbot.wait(300)  # the speaker has opened, and plays
    assert not murmur.player.wait(0.1)  # still playing: the quit would wait for it
    assert murmur.player.stop()
    assert murmur.player.wait(2.0)  # as the quit waits: closed long before the sound's end
