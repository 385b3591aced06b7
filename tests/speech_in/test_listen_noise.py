"""`murmur listen --add` over the real microphone path (a private PulseAudio): noise never becomes an entry, with
the bundled engine alone or with the Whisper final pass; speech between noises still does, and a whisper waits for
the user's yes."""

import subprocess
import sys
import wave
from pathlib import Path

import pytest

from app.cli import main
from app.cli.exits import ExitCode
from tests.speech_in.faint_material import WHISPERED, whispers
from tests.speech_in.noises import RECIPES, around, noise_wav
from tests.support.pulse import PulseAudio
from tests.support.speech import word_error_rate

pytestmark = pytest.mark.pulse


@pytest.fixture(scope="module")
def noises(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("noises")
    return {name: noise_wav(name, folder / f"{name.replace(' ', '-')}.wav") for name in RECIPES}


def listen_add(pulse_audio: PulseAudio, wav: Path, db: Path, final_engine: str) -> tuple[int, str, str]:
    """`murmur listen --add` in a new process while `wav` plays into its microphone: exit status, stdout, stderr."""
    command = [sys.executable, "-m", "app", "listen", "--seconds", "6", "--device", "pulse", "--add"]
    command += ["--engine", "pocketsphinx", "--final-engine", final_engine, "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    while "listening" not in (line := process.stderr.readline()) and line:  # recording has started
        pass
    pulse_audio.play(wav)
    out, err = process.communicate(timeout=90)
    return process.returncode, out, err


def the_log(home: Path) -> str:
    """What the process logged (the dictation's engines, its final pass and why), for a failure's message."""
    return "".join(p.read_text() for p in (home / "logs").glob("*.log"))


@pytest.fixture
def with_whisper(whisper_model: Path) -> None:
    assert main(["config", "set", "speech.whisper_model", str(whisper_model)]) == 0


# Every noise meets the detector and both engines in test_vad.py; through the real microphone, the ones that fooled
# a dictation before (soft pink noise became "If"; breath, Whisper's "Thank you.") with each final engine.
@pytest.mark.parametrize(
    ("name", "final_engine"),
    [("pink noise", "whisper"), ("breath", "whisper"), ("pink noise", "live"), ("pink noise", "off")],
)
def test_noise_dictated_with_listen_add_becomes_no_entry(
    pulse_audio: PulseAudio, noises: dict[str, Path], tmp_path: Path, with_whisper: None, name: str, final_engine: str
) -> None:
    db = tmp_path / "murmur.db"
    status, out, err = listen_add(pulse_audio, noises[name], db, final_engine)
    assert status == ExitCode.NOTHING_APPLIED, (out, err)
    assert "nothing was heard; nothing added" in err and "heard:" not in out, (out, err)
    assert not db.exists()  # no entry, no utterance: the pipeline never ran


@pytest.mark.parametrize("final_engine", ["whisper", "live"])
def test_a_sentence_between_noises_dictated_with_listen_add_is_kept(
    pulse_audio: PulseAudio,
    flite_corpus: dict[str, list[tuple[str, Path]]],
    noises: dict[str, Path],
    tmp_path: Path,
    with_whisper: None,
    final_engine: str,
) -> None:
    text, wav = flite_corpus["rms"][1]  # "buy milk and bread"
    short = {name: tmp_path / f"{name}-2s.wav" for name in ("cough", "keyboard")}
    for name, path in short.items():  # two seconds of each, so the whole fits the six seconds recorded
        subprocess.run(["sox", str(noises[name]), str(path), "trim", "0", "2"], check=True, timeout=60)
    noisy = around(wav, short["keyboard"], short["cough"], tmp_path / "noisy.wav")
    status, out, err = listen_add(pulse_audio, noisy, tmp_path / "murmur.db", final_engine)
    assert status == ExitCode.OK, err
    heard = out.splitlines()[0]
    assert heard.startswith("heard: ") and word_error_rate(text, heard.removeprefix("heard: ")) <= 0.25, (
        out,
        the_log(tmp_path),
    )
    assert "milk" in out.lower() and "created" in out.lower()


@pytest.mark.slow
def test_a_whisper_dictated_with_listen_add_waits_in_the_inbox_for_a_yes(
    pulse_audio: PulseAudio, tmp_path: Path, with_whisper: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Silero hears no speech in a whisper; Whisper reads it past the detector, and what it reads is only asked."""
    [whisper] = whispers(WHISPERED[3:4], {"soft": -30.0})  # "Add batteries to the shopping list"
    wav, db = tmp_path / "whisper.wav", tmp_path / "murmur.db"
    with wave.open(str(wav), "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(16000)
        file.writeframes(whisper.pcm)
    status, out, err = listen_add(pulse_audio, wav, db, "whisper")
    assert status == ExitCode.WAITS_FOR_YES, (out, err, the_log(tmp_path))
    assert "heard faintly: “" in err and "Is that what you said?" in err and "retry 1 --confirm" in err, err
    capsys.readouterr()
    assert main(["list", "--db", str(db)]) == ExitCode.OK and "shopping" not in capsys.readouterr().out.lower()
    assert main(["retry", "1", "--db", str(db)]) == ExitCode.WAITS_FOR_YES  # asked again, not guessed
    assert main(["retry", "1", "--confirm", "--db", str(db)]) == ExitCode.OK
    assert "created" in (applied := capsys.readouterr().out.lower()) and "shopping list" in applied
