"""Listening for the answer after a spoken question, hands-free: real speech (flite) fed through the app's
voice activity detection, which ends the recording at the pause after it, or closes it when nobody speaks.
The microphone is a fake that hears what the test feeds it (tests/support/fake_dictation.py)."""

import wave

import pytest
from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceSource
from app.ui.application import Murmur
from app.ui.icons import AppState
from tests.support.fake_dictation import FakeDictation, FakeMicrophone
from tests.support.speech import flite_wav, sox_convert

WAIT_MS = 15_000
BLOCK = 3_200  # 100 ms of 16 kHz int16 mono, as the microphone delivers it
SILENCE = b"\0" * BLOCK


@pytest.fixture(scope="module")
def answer_pcm(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    folder = tmp_path_factory.mktemp("answer")
    wav = sox_convert(flite_wav("the oat one", folder / "answer.wav"), folder / "answer16.wav", "-r", "16000")
    with wave.open(str(wav)) as audio:
        return audio.readframes(audio.getnframes())


def feed(dictation: FakeDictation, pcm: bytes) -> None:
    for start in range(0, len(pcm), BLOCK):
        dictation.on_audio(pcm[start : start + BLOCK])


def listening(murmur: Murmur, microphone: FakeMicrophone) -> FakeDictation:
    murmur.voice.listen_for_answer(6.0)
    assert murmur.voice.is_listening_for_answer() and murmur.state() is AppState.LISTENING
    [dictation] = [d for d in microphone.made if d.started]
    return dictation


def utterances(murmur: Murmur) -> list[tuple[str, UtteranceSource]]:
    with murmur.service.store.read() as session:
        from sqlmodel import select

        from app.store.models import Utterance

        return [(u.text, u.source) for u in session.exec(select(Utterance)).all()]


def test_the_answer_ends_at_the_pause_after_it_and_goes_in_as_said(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone, answer_pcm: bytes
) -> None:
    murmur, microphone.text = murmur_with_microphone, "the oat one"
    dictation = listening(murmur, microphone)
    assert not dictation.preroll  # the moment before holds the end of Murmur's own question
    feed(dictation, SILENCE * 10 + answer_pcm)
    assert murmur.voice.is_recording()  # still speaking, as far as anyone can tell
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        feed(dictation, SILENCE * 12)  # 1.2 s of quiet: the answer is over
    assert dictation.stopped and not dictation.cancelled
    assert utterances(murmur) == [("the oat one", UtteranceSource.VOICE)]
    assert murmur.state() is AppState.IDLE


def test_nobody_answering_closes_the_window_without_an_utterance(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur = murmur_with_microphone
    dictation = listening(murmur, microphone)
    with qtbot.waitSignal(murmur.voice.answer_window_closed, timeout=WAIT_MS):
        feed(dictation, SILENCE * 59)
        assert murmur.voice.is_listening_for_answer()  # 5.9 s: still open
        feed(dictation, SILENCE * 2)
    assert dictation.cancelled and not dictation.stopped
    assert utterances(murmur) == [] and murmur.state() is AppState.IDLE


def test_a_press_during_the_window_makes_the_recording_the_users(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur = murmur_with_microphone
    dictation = listening(murmur, microphone)
    murmur.hotkey_switch.press()
    assert murmur.voice.is_held() and murmur.state() is AppState.RECORDING
    feed(dictation, SILENCE * 80)  # silence past the window no longer closes it: the key does
    # Fed on this thread, the audio is handled as it comes (its signals reach the microphone directly): a window
    # the silence closed would be closed by now.
    assert murmur.voice.is_recording()
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.hotkey_switch.release()
    assert utterances(murmur) == [("buy oat milk", UtteranceSource.VOICE)]


def test_the_answer_window_follows_a_reply_heard_to_its_end(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    """The reply's end, heard to the end and asking something, opens the window; talked over, it does not."""
    murmur = murmur_with_microphone  # audio cues on: the window opens after the answer cue
    murmur.conductor.reply_said(False)
    assert not murmur.voice.is_recording()
    murmur.conductor.reply_said(True)
    qtbot.waitUntil(murmur.voice.is_listening_for_answer, timeout=WAIT_MS)
    [dictation] = [d for d in microphone.made if d.started]
    assert not dictation.preroll


def test_sounds_that_are_no_words_close_the_window_quietly(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone, answer_pcm: bytes
) -> None:
    murmur, microphone.text = murmur_with_microphone, ""  # the engine made no words of it (a cough)
    dictation = listening(murmur, microphone)
    with qtbot.waitSignal(murmur.voice.answer_window_closed, timeout=WAIT_MS):
        feed(dictation, answer_pcm + SILENCE * 12)
    assert utterances(murmur) == [] and murmur._error == ""


def test_pausing_closes_the_answer_window(
    qtbot: QtBot, murmur_with_microphone: Murmur, microphone: FakeMicrophone
) -> None:
    murmur = murmur_with_microphone
    dictation = listening(murmur, microphone)
    murmur.set_paused(True)
    assert dictation.cancelled and not murmur.voice.is_recording() and murmur.state() is AppState.PAUSED
    murmur.conductor.reply_said(True)  # a question heard to its end while paused: no window opens
    qtbot.wait(400)
    assert not murmur.voice.is_recording()
