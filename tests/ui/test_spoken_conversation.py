"""A spoken conversation end to end, with real parts: the app (in this process), a scripted chat server on
127.0.0.1 that asks which milk, Piper saying the question on a private PulseAudio null sink, the microphone
recording that sink's monitor (so it hears Murmur too: the window must open only after the question ends),
flite answering during the window, pocketsphinx hearing the answer, and the entry changed in the same
conversation. Then barge-in: the talk key while Murmur speaks silences it at once."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.agent.loop import LlmAgent
from app.config import PrivacySettings, Settings, SpeechSettings, UiSettings
from app.domain.enums import Status, UtteranceSource
from app.domain.events import ReplyFinished, ReplyInterrupted, ReplyStarted
from app.service import MurmurService
from app.speech_out.reply import SpokenReply
from app.store import Store
from app.ui.application import Murmur
from app.ui.icons import AppState
from app.ui.microphone import real_dictation
from tests.support.agent_service import add_entries, all_entries
from tests.support.bridge_events import BridgeEvents
from tests.support.llm_server import FakeLlmServer, Reply, Step, call, provider_for
from tests.support.pulse import PulseAudio
from tests.support.run_events import of_kind
from tests.support.speech import REPLIES, flite_wav, joe_voice, pad_with_silence

pytestmark = [pytest.mark.pulse, pytest.mark.slow]

QUESTION = "Which milk, the oat milk or the regular one?"


@pytest.fixture
def spoken_murmur(
    qtbot: QtBot, tmp_path: Path, pulse_audio: PulseAudio
) -> Iterator[tuple[Murmur, FakeLlmServer, list[str]]]:
    store = Store.open(tmp_path / "murmur.db")
    agent = LlmAgent(provider_for("http://127.0.0.1:9/v1"), PrivacySettings())  # not asked: entries made by hand
    oat, regular = add_entries(MurmurService(store=store, interpreter=agent), "Buy oat milk", "Buy milk")

    def model(body: dict[str, Any]) -> Step:
        said = [m["content"] for m in body["messages"] if m["role"] == "user"]
        if len(said) == 1:
            return Reply(QUESTION)
        if body["messages"][-1]["role"] == "user":  # whatever the answer was heard as, the oat one is meant
            return Reply(tool_calls=[call("complete_entries", {"entries": [{"id": oat[:6], "reason": "the oat one"}]})])
        return Reply("Ticked off the oat milk.")

    server = FakeLlmServer(model).__enter__()
    agent.close()
    agent = LlmAgent(provider_for(server.base_url), PrivacySettings())
    speech = SpeechSettings(
        engine="pocketsphinx",
        final_engine="off",
        device=pulse_audio.device,
        output_device=pulse_audio.device,
        voice=str(joe_voice()),
        followup_seconds=8.0,
    )
    settings = Settings(speech=speech, ui=UiSettings(audio_cues=False))
    app = Murmur(MurmurService(store=store, interpreter=agent), settings, real_dictation, use_tray=False)
    qtbot.addWidget(app.window)
    qtbot.addWidget(app.toast)
    with qtbot.waitSignal(app.entries_shown):
        app.start(listen_for_hotkey=False, arm_microphone=True, offer_models=False, check_setup=False)
    yield app, server, [oat, regular]
    app.reply_voice.stop()
    app.voice.disarm()
    app.voice.cancel()
    app.notifications.close()
    assert app.worker.close(timeout=10)
    agent.close()
    server.__exit__(None, None, None)
    store.close()


def test_a_spoken_question_is_answered_hands_free_in_the_same_conversation(
    qtbot: QtBot, spoken_murmur: tuple[Murmur, FakeLlmServer, list[str]], pulse_audio: PulseAudio, tmp_path: Path
) -> None:
    murmur, server, (oat, regular) = spoken_murmur
    answer = pad_with_silence(flite_wav("the oat one", tmp_path / "answer.wav"), tmp_path / "answer-padded.wav")
    reported = BridgeEvents(murmur.bridge)
    murmur.conductor.submit("milk is done", UtteranceSource.VOICE)  # as the talk key's recording hands it over
    reported.first(qtbot, of_kind(ReplyStarted), 30_000)
    assert murmur.state() is AppState.SPEAKING
    qtbot.waitUntil(murmur.voice.is_listening_for_answer, timeout=30_000)
    assert murmur.state() is AppState.LISTENING and "Listening for your answer" in murmur.window.activity.status.text()
    played = pulse_audio.play_async(answer)
    qtbot.waitUntil(
        lambda: {e.id: e.status for e in all_entries(murmur.service.store)}[oat] is Status.COMPLETED, timeout=60_000
    )
    played.wait(timeout=30)
    statuses = {e.id: e.status for e in all_entries(murmur.service.store)}
    assert statuses == {oat: Status.COMPLETED, regular: Status.ACTIVE}
    follow_up = server.requests[1]["messages"]
    assert any(m["role"] == "assistant" and m["content"] == QUESTION for m in follow_up)  # the same conversation
    heard = [m["content"] for m in follow_up if m["role"] == "user"][-1]
    assert "milk" not in heard.lower() and heard.strip(), heard  # the answer, not Murmur's own question


def test_the_talk_key_while_murmur_speaks_silences_it_at_once(
    qtbot: QtBot, spoken_murmur: tuple[Murmur, FakeLlmServer, list[str]]
) -> None:
    murmur, _, _ = spoken_murmur
    reported = BridgeEvents(murmur.bridge)
    murmur.reply_voice.say(SpokenReply(" ".join(REPLIES), question=True))
    reported.first(qtbot, of_kind(ReplyStarted))
    qtbot.wait(1500)  # well into the reply
    assert murmur.reply_voice.is_speaking() and murmur.state() is AppState.SPEAKING
    ended = (ReplyFinished, ReplyInterrupted)
    murmur.hotkey_switch.press()
    # talked over: no answer window (how soon the speaker is quiet, goal 0.1 s: bench/voice_bench.py)
    assert isinstance(reported.first(qtbot, of_kind(ended)), ReplyInterrupted)
    assert murmur.voice.is_held() and murmur.state() is AppState.RECORDING  # the user's turn, at once
    murmur.voice.cancel()
