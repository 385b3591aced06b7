"""`murmur doctor` as a user runs it for a bug report: versions, the desktop, audio, engines, the model server and
the database, each failing check with what to do; never the API key."""

import json
import re
import sqlite3
import time
from pathlib import Path

import pytest

from app import __version__
from app.config import SpeechSettings
from app.speech_in.models import models_dir
from app.store.migrations import MIGRATIONS
from tests.support.fake_models import whisper_folder
from tests.support.murmur_cli import Murmur
from tests.support.xserver import display  # noqa: F401 (a fixture: a private X server with a tray)

SECRET = "sk-test-do-not-print-4f9a1c"


@pytest.fixture
def murmur(tmp_path: Path) -> Murmur:
    return Murmur(tmp_path / "murmur.db", tmp_path, DISPLAY="", WAYLAND_DISPLAY="", XDG_SESSION_TYPE="")


def _checks(report: dict[str, object]) -> dict[str, dict[str, object]]:
    return {check["name"]: check for check in report["checks"]}  # type: ignore[attr-defined, index]


def test_a_report_with_what_to_do_and_never_the_key(murmur: Murmur) -> None:
    murmur.env.update(MURMUR_LLM_API_KEY=SECRET, MURMUR_LLM_BASE_URL="https://example.invalid/v1", MURMUR_LLM_MODEL="m")
    murmur.run("add", "--offline", "buy milk")

    done = murmur.run("doctor", "--json")
    text = murmur.run("doctor")

    assert SECRET not in done.stdout + done.stderr + text.stdout + text.stderr
    report = json.loads(done.stdout)
    facts, checks = report["facts"], _checks(report)
    assert facts["versions"]["murmur"] == __version__ and facts["display"] == "none"
    assert facts["llm"] == {
        "preset": "none",
        "base_url": "https://example.invalid/v1",
        "model": "m",
        "key": "environment",
    }
    assert facts["database"] == str(murmur.db_path) and facts["schema"].startswith(f"{len(MIGRATIONS)} ")
    assert checks["database"]["ok"] and checks["backups"]["ok"]  # the day's backup, taken by `add`
    # the run `add` made, kept without its words: how it ended and how long interpreting took
    assert re.fullmatch(
        r"1 kept, 0 failed; median interpret \d+ ms, reply \d+ ms; newest \S+, cli, 1 changed \(offline\)",
        facts["last_runs"],
    ), facts["last_runs"]
    assert "milk" not in facts["last_runs"]
    rough = (
        "the built-in engine is rough on real voices: `murmur models download whisper-base.en` gets Whisper, "
        "which gets far more words right"
    )
    assert checks["speech engine"] == {"name": "speech engine", "ok": True, "detail": "pocketsphinx (en)", "fix": rough}
    assert f"ok    speech engine: pocketsphinx (en)\n      better: {rough}\n" in text.stdout
    assert checks["tray"]["ok"] is False and "desktop session" in checks["tray"]["fix"]
    assert done.returncode == 1  # a check failed
    assert "FAIL  tray: no display\n      what to do: start Murmur from a desktop session" in text.stdout


def test_a_newer_database_is_a_failing_check_not_a_crash(murmur: Murmur) -> None:
    murmur.run("add", "--offline", "buy milk")
    with sqlite3.connect(murmur.db_path) as db:
        db.execute("PRAGMA user_version = 99")
    checks = _checks(murmur.json("doctor", code=1))
    assert checks["database"] == {"name": "database", "ok": False, "detail": "schema 99", "fix": "upgrade Murmur"}


def test_the_tray_is_found_on_a_desktop_that_has_one(murmur: Murmur, display: str) -> None:  # noqa: F811
    murmur.env["DISPLAY"] = display
    # On a busy machine trayer shows its window (what the fixture waits for) a moment before it owns the tray: the
    # doctor is asked again until then (and fails on the microphone anyway: there is none here)
    deadline = time.monotonic() + 10
    while (checks := _checks(murmur.json("doctor", code=1)))["tray"]["ok"] is False and time.monotonic() < deadline:
        time.sleep(0.5)
    assert checks["tray"] == {"name": "tray", "ok": True, "detail": "a system tray is there", "fix": ""}


def test_with_a_whisper_model_the_speech_engine_needs_no_advice(murmur: Murmur) -> None:
    whisper_folder(models_dir(SpeechSettings()), "whisper-base.en")
    checks = _checks(json.loads(murmur.run("doctor", "--json").stdout))
    assert checks["speech engine"] == {"name": "speech engine", "ok": True, "detail": "pocketsphinx (en)", "fix": ""}
