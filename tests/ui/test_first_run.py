"""The first run, end to end: a fresh profile (HOME and the XDG folders in the test's temp dir, no settings file, no
models) starts the real app on Xvfb; its first-run dialog offers the Whisper model that fits this machine and a
natural voice, the user accepts with Enter, both come from a local HTTP server standing in for Hugging Face, and
the settings saved use them.

The Whisper model served is model-shaped stand-in files with the real names and the hashes the fake hub lists
(tests/support/fake_models.py): the download, its checks and the settings are what is tested here, and a real
CTranslate2 model is not needed for them (loading one is tested in tests/speech_in). The voice is the real joe test
voice, served under the offered voice's name."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from app.speech_in.speech_models import recommended_whisper
from app.speech_in.speech_models import this_machine as real_machine  # before tests/conftest.py puts in a usual one
from app.speech_out.voice_offer import ENGLISH_VOICE
from tests.support.desktop_app import ROOT
from tests.support.fake_models import publish_english_voice, publish_whisper
from tests.support.model_server import ModelServer
from tests.support.xserver import end, wait_for, xdotool

pytestmark = pytest.mark.desktop

DIALOG = "^Better speech recognition$"


def fresh_profile(tmp_path: Path, display: str) -> dict[str, str]:
    """The environment of a user who never ran Murmur: Murmur's own folder overrides left out, so the app finds
    its folders through HOME and XDG as it does on a real desktop."""
    home = tmp_path / "home"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("MURMUR_DATA_DIR", "MURMUR_CONFIG_DIR", "MURMUR_LOG_DIR", "WAYLAND_DISPLAY")
        and not key.startswith(("OPENAI_", "MURMUR_LLM_", "QT_QPA_"))
    }
    return env | {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "MURMUR_DB": str(tmp_path / "murmur.db"),
        "DISPLAY": display,
        "XDG_SESSION_TYPE": "x11",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }


def saved_speech(env: dict[str, str]) -> dict[str, object]:
    path = Path(env["XDG_CONFIG_HOME"]) / "murmur" / "settings.toml"
    if not path.is_file():
        return {}
    speech: dict[str, object] = tomllib.loads(path.read_text()).get("speech", {})
    return speech


def test_a_fresh_profile_is_offered_whisper_and_a_voice_and_accepting_installs_and_uses_both(
    tmp_path: Path, display: str, server: ModelServer
) -> None:
    whisper = recommended_whisper("en", real_machine()).name  # the app asks about the machine it runs on
    publish_whisper(server, whisper)
    publish_english_voice(server)
    env = fresh_profile(tmp_path, display)
    with (tmp_path / "app.out").open("wb") as output:
        app = subprocess.Popen([sys.executable, "-m", "app"], env=env, cwd=ROOT, stdout=output, stderr=output)
    try:
        wait_for("the first-run dialog", lambda: xdotool(display, "search", "--name", DIALOG).returncode == 0, 60)
        assert saved_speech(env) == {}  # nothing saved before the user answers
        dialog = xdotool(display, "search", "--name", DIALOG).stdout.split()[0]
        xdotool(display, "windowfocus", "--sync", dialog)
        xdotool(display, "key", "--clearmodifiers", "Return")  # Install is the dialog's default button

        def installed() -> bool:
            speech = saved_speech(env)
            return speech.get("whisper_model") == whisper and speech.get("voice") == ENGLISH_VOICE

        wait_for("the settings that use the downloads", installed, 60)  # the app.out file in tmp_path says why not
        models = Path(env["XDG_DATA_HOME"]) / "murmur" / "models"
        assert (models / whisper / "model.bin").is_file() and (models / ENGLISH_VOICE).is_dir()
        assert saved_speech(env).get("offer_models") is False
        fetched = [request["path"] for request in server.requests]
        assert f"/api/models/Systran/faster-{whisper}/tree/main" in fetched
        assert any(path.endswith(f"{ENGLISH_VOICE}.onnx") for path in fetched)
    finally:
        end(app)
