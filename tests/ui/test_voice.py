"""Around a recording: the microphone armed between recordings (and released on pause), a failing
microphone, quitting without losing anything said, and a tap of the talk key. The microphone is a fake
(tests/support/fake_dictation.py), but where the bundled engine hears a real, silent one."""

import logging
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.domain.events import ErrorEvent, FinalTranscript, PipelineEvent
from app.speech_in.cue_heard import cue_moments
from app.speech_in.cue_notes import START
from app.store.kept_runs import Ending
from app.ui import application
from app.ui.application import Murmur
from app.ui.icons import AppState
from app.ui.microphone import NOTHING_HEARD, TAP_SECONDS, TOO_SHORT
from tests.support.bridge_events import BridgeEvents
from tests.support.fake_dictation import FakeMicrophone
from tests.support.pulse import PulseAudio
from tests.support.run_events import of_kind
from tests.support.speech import flite_wav, pad_with_silence, word_error_rate

WAIT_MS = 15_000


def transcriptions_ended() -> None:
    """Every recording's transcription thread has ended and what it posted to the app has been delivered: what
    a recording's end would still do is done."""
    for thread in threading.enumerate():
        if thread.name == "murmur-transcribe":
            thread.join(timeout=WAIT_MS / 1000)
    QApplication.processEvents()


def entry_summaries(murmur: Murmur) -> list[str]:
    return [entry.summary for entry in murmur.service.entries(list(Status))]


@pytest.fixture
def quits(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The app's calls of QApplication.quit(), which would end every later test's event loops."""
    calls: list[bool] = []
    monkeypatch.setattr(QApplication, "quit", lambda: calls.append(True))
    return calls


def test_a_recording_uses_the_armed_microphone_and_the_next_one_is_armed_after_it(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur = murmur_with_microphone
    [armed] = microphone.made
    assert armed.armed and microphone.open() == [armed]
    with qtbot.waitSignal(murmur.voice.started):
        murmur.conductor.start_recording()
    assert microphone.made == [armed] and armed.started  # the armed one records: it has the 300 ms before
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.conductor.stop_recording()
    assert entry_summaries(murmur) == ["Buy oat milk"]
    qtbot.waitUntil(lambda: len(microphone.made) == 2)
    assert microphone.open() == [microphone.made[1]] and microphone.made[1].armed


def test_pause_releases_the_armed_microphone_and_resuming_arms_it_again(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur = murmur_with_microphone
    murmur.set_paused(True)
    assert microphone.open() == [] and microphone.made[0].cancelled and murmur.hotkey.paused
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):  # the mic button still records while paused
        murmur.conductor.start_recording()
        murmur.conductor.stop_recording()
    transcriptions_ended()  # the recording's end would arm the next one, were it not paused
    assert microphone.open() == [] and len(microphone.made) == 2
    murmur.set_paused(False)
    assert microphone.open() == [microphone.made[2]] and not murmur.hotkey.paused


def test_new_speech_settings_arm_a_new_microphone(murmur_with_microphone: Murmur, microphone: FakeMicrophone) -> None:
    murmur = murmur_with_microphone
    settings = murmur.settings
    murmur.apply_settings(replace(settings, speech=replace(settings.speech, device="USB headset")))
    old, new = microphone.made
    assert old.cancelled and microphone.open() == [new] and new.settings.device == "USB headset"

    murmur.settings = replace(settings, speech=replace(settings.speech, device="Laptop"))  # changed, not applied
    murmur.conductor.start_recording()
    assert new.cancelled and microphone.made[-1].started and microphone.made[-1].settings.device == "Laptop"


def test_a_microphone_that_fails_mid_sentence_ends_the_recording_keeping_what_was_heard(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur = murmur_with_microphone
    murmur.conductor.start_recording()
    recording = microphone.made[0]
    failure = "the microphone 'USB' stopped (unplugged or taken by the system)"
    reported = BridgeEvents(murmur.bridge)
    with qtbot.waitSignal(murmur.voice.stopped):
        threading.Thread(target=recording.on_error, args=(failure,)).start()  # from the dictation's thread
    failed = reported.first(qtbot, of_kind(ErrorEvent))
    assert isinstance(failed, ErrorEvent) and failed.message == failure
    assert recording.stopped and not recording.cancelled
    qtbot.waitUntil(lambda: entry_summaries(murmur) == ["Buy oat milk"], timeout=WAIT_MS)


def test_quit_keeps_the_text_of_a_recording_stopped_just_before(
    murmur_with_microphone: Murmur, microphone: FakeMicrophone, quits: list[bool]
) -> None:
    murmur = murmur_with_microphone
    microphone.transcribing.clear()  # the final text is still being worked out when the user quits
    murmur.conductor.start_recording()
    murmur.conductor.stop_recording()
    threading.Timer(0.3, microphone.transcribing.set).start()
    murmur.quit()
    assert quits and entry_summaries(murmur) == ["Buy oat milk"] and murmur.service.inbox() == []
    assert microphone.open() == []  # nothing was armed again on the way out


def test_quit_stops_and_keeps_a_recording_in_progress(
    murmur_with_microphone: Murmur, microphone: FakeMicrophone, quits: list[bool]
) -> None:
    murmur = murmur_with_microphone
    murmur.conductor.start_recording()
    recording = microphone.made[0]
    murmur.quit()
    assert recording.stopped and not recording.cancelled
    assert quits and entry_summaries(murmur) == ["Buy oat milk"]
    murmur.conductor.start_recording()  # nothing new starts once quitting
    assert not murmur.voice.is_recording()


def test_quit_gives_up_on_a_transcript_after_a_few_seconds_and_says_so(
    murmur_with_microphone: Murmur,
    microphone: FakeMicrophone,
    quits: list[bool],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(application, "TRANSCRIPT_WAIT_SECONDS", 0.2)
    murmur = murmur_with_microphone
    microphone.transcribing.clear()
    murmur.conductor.start_recording()
    with caplog.at_level(logging.WARNING, logger="murmur.ui"):
        murmur.quit()
    microphone.transcribing.set()
    assert quits and "before a recording's text was worked out" in caplog.text
    assert murmur.voice.wait_for_transcripts(5)


def speech_failures(murmur: Murmur) -> list[str]:
    """What the speech failures the bridge reports say, as they come."""
    failed: list[str] = []

    def note_failure(event: PipelineEvent) -> None:
        if isinstance(event, ErrorEvent):
            failed.append(event.message)

    murmur.bridge.progressed.connect(note_failure)
    return failed


def assert_ended_quietly(murmur: Murmur, failed: list[str]) -> None:
    assert failed == [] and murmur.state() is AppState.IDLE
    assert murmur.toast.content is None or not murmur.toast.content.error
    activity = murmur.window.activity
    assert activity.outcome.text() == TOO_SHORT and not activity.outcome.property("error")
    assert murmur.service.inbox() == [] and entry_summaries(murmur) == []


def test_a_tap_of_the_talk_key_that_heard_nothing_ends_quietly(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur, microphone.text = murmur_with_microphone, ""
    failed = speech_failures(murmur)
    with qtbot.waitSignal(murmur.voice.too_short, timeout=WAIT_MS):
        murmur.hotkey_switch.press()
        murmur.hotkey_switch.release()
    transcriptions_ended()  # anything else the tap would post has arrived
    assert_ended_quietly(murmur, failed)


def test_holding_the_key_and_saying_nothing_is_still_worth_a_look_at_the_microphone(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur, microphone.text = murmur_with_microphone, ""
    murmur.hotkey_switch.press()
    qtbot.wait(round(TAP_SECONDS * 1000) + 100)
    reported = BridgeEvents(murmur.bridge)
    murmur.hotkey_switch.release()
    failed = reported.first(qtbot, of_kind(ErrorEvent), WAIT_MS)
    assert isinstance(failed, ErrorEvent) and failed.message == NOTHING_HEARD
    qtbot.waitUntil(lambda: len(murmur.service.recent_runs()) == 1, timeout=WAIT_MS)  # kept, to find what failed
    [kept] = murmur.service.recent_runs()
    assert (kept.source, kept.ending, kept.failed) == ("voice", Ending.FAILED, "speech")
    assert list(kept.ms) == ["listen", "transcribe"]


@pytest.mark.pulse
def test_a_tap_heard_by_the_real_engine_ends_quietly(qtbot: QtBot, murmur: Murmur, pulse_audio: PulseAudio) -> None:
    """The bundled engine on a silent microphone: what a tap hears is near-empty audio, and no words."""
    speech = replace(murmur.settings.speech, engine="pocketsphinx", device=pulse_audio.device)
    ui = replace(murmur.settings.ui, audio_cues=False)  # no cue to play while the test's PortAudio is its own
    murmur.settings = replace(murmur.settings, speech=speech, ui=ui)
    failed = speech_failures(murmur)
    murmur.hotkey_switch.press()
    assert murmur.voice.is_recording(), failed
    ended: list[str] = []  # what a recording can end with, whichever it is: too short, words, a failure
    murmur.voice.too_short.connect(ended.append)

    def note_end(event: PipelineEvent) -> None:
        if isinstance(event, FinalTranscript | ErrorEvent):
            ended.append(event.text if isinstance(event, FinalTranscript) else event.message)

    murmur.bridge.progressed.connect(note_end)
    murmur.hotkey_switch.release()
    qtbot.waitUntil(lambda: bool(ended), timeout=WAIT_MS)
    assert ended == [TOO_SHORT]
    assert_ended_quietly(murmur, failed)


@pytest.mark.pulse
def test_the_start_cue_the_speakers_play_is_not_taken_for_words(
    qtbot: QtBot,
    murmur: Murmur,
    pulse_audio: PulseAudio,
    tmp_path: Path,
) -> None:
    """The cue plays into the sink the microphone records, as laptop speakers into its microphone."""
    speech = replace(murmur.settings.speech, engine="pocketsphinx", device=pulse_audio.device, final_engine="off")
    murmur.settings = replace(murmur.settings, speech=speech, ui=replace(murmur.settings.ui, audio_cues=True))
    text = "buy milk and bread"
    # Played at the press, with the cue: the words begin as the cue has ended.
    said = pad_with_silence(flite_wav(text, tmp_path / "flite.wav"), tmp_path / "said.wav", 0.4, 0.5)
    murmur.hotkey_switch.press()
    pulse_audio.play(said)
    reported = BridgeEvents(murmur.bridge)
    murmur.hotkey_switch.release()
    transcript = reported.first(qtbot, of_kind(FinalTranscript), WAIT_MS)
    assert isinstance(transcript, FinalTranscript)
    # The start cue plays at the press (the stop cue, at the release, may begin as the microphone closes).
    assert [at for at in cue_moments(transcript.audio, START) if at < 1.0] == []
    assert word_error_rate(text, transcript.text) <= 0.25, transcript.text
