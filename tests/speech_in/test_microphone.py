"""The real audio path: flite speech played into a private PulseAudio null sink, recorded by sounddevice
through ALSA's pulse plugin, heard by the bundled engine. Nothing here is mocked."""

import json
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.cli import main
from app.config import SpeechSettings
from app.domain.hints import Hints
from app.errors import AudioDeviceError
from app.recordings.sound import read_sound, seconds_of
from app.speech_in.capture import Microphone
from app.speech_in.dictation import Dictation
from app.speech_in.files import transcribe_file
from app.store.kept_runs import KeptRuns
from tests.support.pulse import PulseAudio, private_pulseaudio
from tests.support.speech import edit_distance, flite_wav, pad_with_silence, word_error_rate, words_of

pytestmark = pytest.mark.pulse

SETTINGS = SpeechSettings(engine="pocketsphinx", device="pulse")


@pytest.fixture(scope="module")
def spoken(
    flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path]:
    """A command as a microphone hears it: with silence before and after."""
    text, wav = flite_corpus["rms"][0]
    return text, pad_with_silence(wav, tmp_path_factory.mktemp("spoken") / "padded.wav", 0.2, 0.6)


def test_devices_lists_the_pulse_input(pulse_audio: PulseAudio, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["devices", "--json"]) == 0
    names = [d["name"] for d in json.loads(capsys.readouterr().out)]
    assert pulse_audio.device in names


def test_a_dictation_hears_speech_with_growing_partials_and_a_final_text(
    pulse_audio: PulseAudio, spoken: tuple[str, Path]
) -> None:
    text, wav = spoken
    stopped = threading.Event()
    partials: list[tuple[str, bool]] = []
    levels: list[float] = []
    dictation = Dictation(
        SETTINGS, on_partial=lambda p: partials.append((p.text, stopped.is_set())), on_level=levels.append
    )
    assert dictation.engine_name == "pocketsphinx (bundled, English only)"
    dictation.start()
    pulse_audio.play(wav)
    stopped.set()
    transcript = dictation.stop()
    during = [p for p, after_stop in partials if not after_stop]
    assert len(during) >= 2, partials  # partials arrived while recording
    assert len(words_of(during[-1])) > len(words_of(during[0]))
    assert len(words_of(transcript.text)) >= len(words_of(partials[-1][0]))
    assert word_error_rate(text, transcript.text) <= 0.35, transcript.text
    assert transcript.audio_seconds >= 2.0 and transcript.notes == []
    assert transcript.words and transcript.engine == dictation.engine_name
    assert max(levels) > -40 and min(levels) < max(levels) - 20  # speech is louder than the silence around it


def test_the_armed_microphone_keeps_only_a_short_pre_roll(pulse_audio: PulseAudio) -> None:
    microphone = Microphone(pulse_audio.device)
    microphone.open()
    time.sleep(1.0)
    microphone.begin()
    kept = microphone.take()
    microphone.close()
    assert 0.2 <= len(kept) / 32_000 <= 0.45


@pytest.mark.slow
def test_a_cancelled_dictation_returns_nothing_and_can_be_followed(
    pulse_audio: PulseAudio, spoken: tuple[str, Path]
) -> None:
    cancelled = Dictation(SETTINGS)
    cancelled.start()
    pulse_audio.play(spoken[1])
    cancelled.cancel()
    dictation = Dictation(SETTINGS)
    dictation.start()
    pulse_audio.play(spoken[1])
    assert word_error_rate(spoken[0], dictation.stop().text) <= 0.35


def test_an_unknown_device_is_one_clear_error(pulse_audio: PulseAudio) -> None:
    dictation = Dictation(SpeechSettings(engine="pocketsphinx", device="no such microphone"))
    with pytest.raises(AudioDeviceError, match="no input device named 'no such microphone'"):
        dictation.start()


def test_a_device_that_dies_mid_recording_keeps_what_was_heard(
    tmp_path: Path, spoken: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    with private_pulseaudio(tmp_path) as pulse:  # its own daemon: this test pulls the sink out
        for name, value in pulse.env.items():
            monkeypatch.setenv(name, value)
        errors: list[str] = []
        dictation = Dictation(SETTINGS, on_error=errors.append)
        dictation.start()
        pulse.play(spoken[1])
        pulse.pactl("unload-module", "module-null-sink")
        deadline = time.monotonic() + 10
        while not errors and time.monotonic() < deadline:
            time.sleep(0.05)
        transcript = dictation.stop()
    assert errors and "stopped" in errors[0]
    assert transcript.notes and "kept what was heard" in transcript.notes[0]
    assert word_error_rate(spoken[0], transcript.text) <= 0.35


def test_murmur_listen_add_runs_what_was_said_through_the_pipeline(
    pulse_audio: PulseAudio, flite_corpus: dict[str, list[tuple[str, Path]]], tmp_path: Path
) -> None:
    text, wav = flite_corpus["rms"][1]  # "buy milk and bread"
    command = [sys.executable, "-m", "app", "listen", "--seconds", "5", "--device", "pulse", "--add"]
    command += ["--engine", "pocketsphinx", "--db", str(tmp_path / "murmur.db")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    first = process.stderr.readline()  # printed once recording has started
    assert first.startswith("engine: pocketsphinx"), first
    pulse_audio.play(wav)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "partial: buy" in err
    heard = out.splitlines()[0]
    assert heard.startswith("heard: ") and word_error_rate(text, heard.removeprefix("heard: ")) <= 0.25
    assert "milk" in out.lower() and "created" in out.lower()
    [kept] = (tmp_path / "recordings").glob("*.flac")  # what the microphone heard, kept with the utterance
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert 4.5 <= seconds_of(read_sound(kept)) <= 5.5  # all five seconds the command listened for
    # one run from the microphone on, kept with the time of each stage it went through
    [run] = KeptRuns.beside(tmp_path / "murmur.db").read()
    assert run.source == "voice" and list(run.ms)[:3] == ["listen", "transcribe", "interpret"]
    assert 4_500 <= run.ms["listen"] and run.applied >= 1


def listen_in_a_fresh_process(
    pulse_audio: PulseAudio, wav: Path, *options: str, seconds: float = 4.5
) -> dict[str, object]:
    """`murmur listen --json` in a new process (a cold engine) while `wav` plays into the microphone."""
    command = [sys.executable, "-m", "app", "listen", "--seconds", f"{seconds:g}", "--device", "pulse", "--json"]
    process = subprocess.Popen([*command, *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    while "listening" not in (line := process.stderr.readline()) and line:  # recording has started
        pass
    pulse_audio.play(wav)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    result: dict[str, object] = json.loads(out)
    return result


@pytest.mark.slow
def test_the_first_utterance_of_a_fresh_process_is_heard_right_and_teaches_the_next(
    pulse_audio: PulseAudio, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.speech import DICTATION, flite_wav

    monkeypatch.setenv("MURMUR_DATA_DIR", str(tmp_path / "fresh"))  # nothing learned about this microphone yet
    said = []
    # Two sentences the bundled engine usually gets right live; "call the dentist on thursday" it does not yet
    # ("tell the dentist and there is he"): the accuracy bench tracks that, this test guards the mechanism.
    for i, text in enumerate([DICTATION[1], DICTATION[3]]):
        wav = pad_with_silence(flite_wav(text, tmp_path / f"{i}.wav", "slt"), tmp_path / f"{i}-padded.wav", 0.3, 0.5)
        heard = listen_in_a_fresh_process(pulse_audio, wav, "--engine", "pocketsphinx", "--final-engine", "off")
        said.append((text, str(heard["text"])))
        learned = json.loads((tmp_path / "fresh" / "speech-channels.json").read_text())
        assert list(learned["pocketsphinx"]) == [pulse_audio.device]
    from tests.support.speech import corpus_word_error_rate

    assert corpus_word_error_rate(said) <= 0.35, said  # loose: the bench reports the exact figure


# Todo-like sentences of about four seconds, each by another flite voice; live, the streaming decoder of a fresh
# process gets words of each wrong ("it remind me", "the cage" for "at eight") that a file's full pass gets right.
LIVE_LIKE_FILES = [
    ("remind me to send the report to my boss until next week", "slt"),
    ("every morning at eight remind me to take the vitamins with breakfast", "rms"),
    ("book a table for four at the italian restaurant on saturday night", "awb"),
]


@pytest.mark.slow
def test_the_first_dictation_of_a_fresh_process_reads_like_the_same_audio_from_a_file(
    pulse_audio: PulseAudio, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = []
    for i, (text, voice) in enumerate(LIVE_LIKE_FILES):
        monkeypatch.setenv("MURMUR_DATA_DIR", str(tmp_path / f"fresh-{i}"))  # nothing learned about the microphone
        wav = pad_with_silence(flite_wav(text, tmp_path / f"{i}.wav", voice), tmp_path / f"{i}-padded.wav", 0.3, 0.5)
        heard = listen_in_a_fresh_process(pulse_audio, wav, seconds=6.0)
        from_file = transcribe_file(wav, SpeechSettings()).transcript.text
        said.append((str(heard["text"]), from_file, heard["final_pass_note"]))
    assert [note for _, _, note in said] == [None] * len(said), said  # the whole utterance was decoded again
    # The recording holds more silence around the speech than the file, and more still when a busy machine starts
    # the playback late: a word or two per sentence may differ (a suite on three workers saw 4 of 34). Without
    # the pass the streaming text alone differs by far more ("it remind me", "the cage" for "at eight").
    assert sum(edit_distance(words_of(from_file), words_of(live)) for live, from_file, _ in said) <= 4, said


def test_a_dictation_with_the_whisper_final_pass_hands_on_whispers_text(
    pulse_audio: PulseAudio, whisper_model: Path, tmp_path: Path
) -> None:
    from tests.support.speech import DICTATION, piper_wav

    text = DICTATION[10]  # "remind me to take the medicine every morning at eight"
    wav = pad_with_silence(piper_wav(text, tmp_path / "joe.wav"), tmp_path / "joe-padded.wav", 0.3, 0.5)
    settings = SpeechSettings(
        engine="pocketsphinx", device="pulse", final_engine="whisper", whisper_model=str(whisper_model)
    )
    dictation = Dictation(settings, hints=lambda: Hints(phrases=("medicine cabinet", "morning run")))
    assert dictation.engine_name == "pocketsphinx (bundled, English only) + Whisper (whisper-base)"
    dictation.start()
    pulse_audio.play(wav)
    transcript = dictation.stop()
    assert transcript.live_text is not None and transcript.final_pass_note is None
    assert word_error_rate(text, transcript.text) <= 0.15, transcript.text
    assert transcript.finalize_seconds > 0  # how long: bench/speech_accuracy_bench.py
