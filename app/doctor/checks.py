"""The doctor: facts about this installation and the checks that fail, each with what to do.

Everything is read, nothing is changed: the database is opened read-only, no model is loaded, no audio is played.
The API key is never shown, only where one was found. The tray is asked about in a child process, since Qt ends a
process that has no display to talk to.
"""

import os
import platform
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Literal

import httpx2 as httpx

from app import __version__
from app.agent.provider import ProviderConfig, resolve_provider
from app.config import Settings
from app.doctor.advice import NO_TRAY
from app.errors import Command, MurmurError, Remedy, Setting, Words, command
from app.paths import config_dir, data_dir, log_dir
from app.presentation.runs import runs_summary
from app.secrets import SYNC_PASSWORD, Secret, in_file, keyring_problem, saved_secret
from app.shortcuts.choice import BACKEND_WORDS, choose_backend
from app.speech_in.capture import list_devices
from app.speech_in.engines import bundled_hint, choose_engine, choose_final_engine, live_words_source
from app.speech_in.speech_models import SpeechModels
from app.speech_out.choice import choose_voice
from app.store.backups import list_backups
from app.store.kept_runs import KeptRuns
from app.store.migrations import MIGRATIONS, is_murmurs, schema_version

TRAY_PROBE_SECONDS = 15.0
MODEL_SERVER_SECONDS = 3.0
# What to do, said once each; the window says the words, the command line the `murmur` command.
_NO_DISPLAY = "start Murmur from a desktop session; the command line works as is"
_LOG = "~/.local/state/murmur/log/murmur.log"
_READ_THE_LOG = command(instead=Words(f"start Murmur and read {_LOG}"), phrase=f"run {{}} and read {_LOG}")
_PICK_ONE = {
    "input": command("devices", instead=Setting("speech.device"), phrase="plug one in, or pick one with {}"),
    "output": command(
        "devices", "--output", instead=Setting("speech.output_device"), phrase="plug one in, or pick one with {}"
    ),
}
_DOWNLOAD_MODELS = "Settings → Speech downloads the recommended models"
_INSTALL_A_VOICE = "install espeak-ng, or a Piper voice in Settings → Voice"
_RULES_MEANWHILE = "; until then the built-in rules file what you say"
_THEN_TEST = "fix the model or the server, then {}"
_TEST_IT_AGAIN = "fix the model or the server, then press Test in Settings → Language model" + _RULES_MEANWHILE
_RESTORE = Command(
    (("backups",), ("restore",)), Words("restore the newest backup from the backups folder"), "{}, then {}"
)
_BACK_UP = command("backup", instead=Words("File → Export saves everything in a Murmur backup"))
_SYNC_NOW = "Settings → Sync tests the server and says what is wrong"
_SHOW_SETTINGS = command("config", "show", instead=Words("correct the settings file, or save Settings again"))
_PACKAGES = ("PySide6-Essentials", "vosk", "pocketsphinx", "faster-whisper", "piper-tts", "openai", "icalendar")


@dataclass(frozen=True)
class Check:
    """One thing that must work; `fix` says what to do when it does not (or, where it works, how to do better)."""

    name: str
    ok: bool
    detail: str
    fix: Remedy | None = None


@dataclass
class Diagnosis:
    facts: dict[str, object] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)

    @property
    def failed(self) -> list[Check]:
        return [check for check in self.checks if not check.ok]


def _versions() -> dict[str, str]:
    found = {"murmur": __version__, "python": platform.python_version()}
    for name in _PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def display_server() -> str:
    if os.environ.get("WAYLAND_DISPLAY") or os.environ.get("XDG_SESSION_TYPE", "").lower() == "wayland":
        return "wayland"
    if os.environ.get("DISPLAY"):
        return "x11"
    return "none"


def _tray() -> Check:
    """Asked of Qt in a child process (app.ui.tray_probe)."""
    if display_server() == "none":
        return Check("tray", False, "no display", Words(_NO_DISPLAY))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "app.ui.tray_probe"], capture_output=True, text=True, timeout=TRAY_PROBE_SECONDS
        )
    except subprocess.TimeoutExpired:
        return Check("tray", False, "Qt did not answer", _READ_THE_LOG)
    if done.returncode != 0 or done.stdout.strip() not in ("yes", "no"):
        why = (done.stderr.strip().splitlines() or ["Qt could not start"])[-1]
        return Check("tray", False, why, Words("install Qt's platform libraries (see the README's Install section)"))
    if done.stdout.strip() == "no":
        return Check("tray", False, "no system tray on this desktop", NO_TRAY)
    return Check("tray", True, "a system tray is there")


def _hotkey() -> Check:
    """What hears the talk key, chosen as the app chooses at start (app/shortcuts/choice.py)."""
    if display_server() == "none":
        return Check("hotkey", False, "no display", Words(_NO_DISPLAY))
    choice = choose_backend(os.environ)
    if choice.problem:
        return Check("hotkey", False, str(choice.problem), choice.problem.remedy)
    return Check("hotkey", True, BACKEND_WORDS[choice.backend])


def _audio(diagnosis: Diagnosis) -> None:
    directions: tuple[tuple[Literal["input", "output"], str], ...] = (("input", "microphone"), ("output", "speaker"))
    for direction, noun in directions:
        try:
            devices = list_devices(direction)
        except MurmurError as error:
            diagnosis.checks.append(Check(noun, False, str(error), Words("install PortAudio (libportaudio2)")))
            continue
        diagnosis.facts[f"{noun}s"] = [device.name for device in devices]
        fix = None if devices else _PICK_ONE[direction]
        diagnosis.checks.append(Check(noun, bool(devices), f"{len(devices)} found", fix))


def _attempt(diagnosis: Diagnosis, name: str, look: Callable[[], str], fix: Remedy) -> None:
    try:
        diagnosis.checks.append(Check(name, True, look()))
    except MurmurError as error:
        diagnosis.checks.append(Check(name, False, str(error), fix))


def _speech(diagnosis: Diagnosis, settings: Settings) -> None:
    models = SpeechModels.from_settings(settings.speech)
    diagnosis.facts["models"] = [f"{m.kind} {m.name} ({m.size_text})" for m in models.installed()]
    diagnosis.facts["models_dir"] = str(models.folder)

    def engine() -> str:
        choice = choose_engine(settings.speech)
        return f"{choice.kind} ({choice.language})" + (f", {choice.model_path.name}" if choice.model_path else "")

    def live_words() -> str:
        choice = choose_engine(settings.speech)
        return live_words_source(choice, choose_final_engine(settings.speech, choice))

    recommended = command("models", "recommended", instead=Words(_DOWNLOAD_MODELS), phrase="{} lists what to download")
    _attempt(diagnosis, "speech engine", engine, recommended)
    if hint := bundled_hint(settings.speech):  # it works, so no failure; but the user should hear how to do better
        diagnosis.checks[-1] = replace(diagnosis.checks[-1], fix=hint)
    _attempt(diagnosis, "live words", live_words, recommended)

    def voice() -> str:
        return choose_voice(settings.speech).name

    piper = command(
        "voices", "download", instead=Words(_INSTALL_A_VOICE), phrase="install espeak-ng, or {} a Piper voice"
    )
    _attempt(diagnosis, "voice", voice, piper)


def _model_server(diagnosis: Diagnosis, settings: Settings, db_path: Path) -> None:
    preset = settings.llm.preset or "none"
    try:
        provider = resolve_provider(settings.llm)
    except MurmurError as error:
        fix = Words("fix it, or choose the built-in rules in Settings; until then the rules file what you say")
        diagnosis.checks.append(Check("model server", False, str(error), fix))
        return
    if provider is None:
        diagnosis.facts["llm"] = {"preset": preset, "in use": "the offline rules"}
        return
    key = "environment" if os.environ.get("MURMUR_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") else "keyring"
    found = "" if provider.api_key == "not-needed" else key  # where a key came from; never the key
    diagnosis.facts["llm"] = {"preset": preset, "base_url": provider.server, "model": provider.model, "key": found}
    if problem := keyring_problem():
        diagnosis.facts["keyring"] = problem
    diagnosis.checks.append(_reach(provider))
    try:
        set_aside = _set_aside(db_path, provider.server, provider.model)
    except sqlite3.Error as error:
        set_aside = f"cannot be read: {error}"
    if set_aside:
        test_again = command("config", "test", instead=Words(_TEST_IT_AGAIN), phrase=_THEN_TEST + _RULES_MEANWHILE)
        diagnosis.checks.append(Check("model", False, f"{provider.model!r} is set aside: {set_aside}", test_again))


def _reach(provider: ProviderConfig) -> Check:
    """One look at the server's model list: it answers, and takes the key."""
    headers = {} if provider.api_key == "not-needed" else {"Authorization": f"Bearer {provider.api_key}"}
    fix = Words("start the server or correct `llm.base_url`" + _RULES_MEANWHILE)
    try:
        response = httpx.get(f"{provider.base_url}/models", headers=headers, timeout=MODEL_SERVER_SECONDS)
    except httpx.TimeoutException:
        return Check("model server", False, f"{provider.server} did not answer in {MODEL_SERVER_SECONDS:g} s", fix)
    except httpx.HTTPError as error:
        return Check("model server", False, f"cannot reach {provider.server} ({type(error).__name__})", fix)
    if response.status_code in (401, 403):
        detail = f"{provider.server} refused the API key (HTTP {response.status_code})"
        return Check("model server", False, detail, command("config", "set-key", instead=Setting("llm.api_key")))
    return Check("model server", True, f"{provider.server} answers (HTTP {response.status_code})")


def _set_aside(db_path: Path, base_url: str, model: str) -> str | None:
    """Why the model is set aside (app/agent/ledger.py), read only; None when it is not or there is no record."""
    if not db_path.exists():
        return None
    with closing(sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'model_standings'").fetchone():
            return None
        row = db.execute(
            "SELECT set_aside FROM model_standings WHERE base_url = ? AND model = ?", (base_url, model)
        ).fetchone()
        return row[0] if row else None


def _database(diagnosis: Diagnosis, db_path: Path) -> None:
    diagnosis.facts["database"] = str(db_path)
    if not db_path.exists():
        diagnosis.checks.append(Check("database", True, "not made yet: the first entry added makes it"))
        return
    try:
        with closing(sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)) as db:
            ours, schema = is_murmurs(db), schema_version(db)
    except sqlite3.Error as error:
        diagnosis.checks.append(Check("database", False, str(error), _RESTORE))
        return
    diagnosis.facts["database_size"] = db_path.stat().st_size
    diagnosis.facts["schema"] = f"{schema} (this Murmur knows {len(MIGRATIONS)})"
    if not ours:
        not_ours = Words("point --db at a Murmur database")
        diagnosis.checks.append(Check("database", False, "not a Murmur database", not_ours))
        return
    newer = schema > len(MIGRATIONS)
    diagnosis.checks.append(
        Check("database", not newer, f"schema {schema}", Words("upgrade Murmur") if newer else None)
    )
    try:
        backups = list_backups(db_path)
    except MurmurError as error:
        diagnosis.checks.append(Check("backups", False, str(error), Words("make the backups folder yours")))
        return
    newest = f"; newest {backups[0].taken_at:%Y-%m-%d %H:%M} UTC" if backups else ""
    diagnosis.checks.append(Check("backups", bool(backups), f"{len(backups)}{newest}", None if backups else _BACK_UP))


def _sync_state(db_path: Path) -> tuple[str | None, str | None, int]:
    """The last sync's time and error, and the changes waiting, read only (none before the first sync)."""
    if not db_path.exists():
        return None, None, 0
    with closing(sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sync_state'").fetchone():
            return None, None, 0
        state = db.execute("SELECT last_sync_at, last_error FROM sync_state").fetchone() or (None, None)
        return state[0], state[1], int(db.execute("SELECT COUNT(*) FROM sync_outbox").fetchone()[0])


def _where_saved(secret: Secret) -> str:
    """'keyring', 'credentials file' or '' (not saved)."""
    if in_file(secret):
        return "credentials file"
    return "keyring" if saved_secret(secret) else ""


def _sync(diagnosis: Diagnosis, settings: Settings, db_path: Path) -> None:
    sync = settings.sync
    if not sync.url:
        diagnosis.facts["sync"] = "not set up"
        return
    password = "environment" if os.environ.get(SYNC_PASSWORD.env) else _where_saved(SYNC_PASSWORD)
    diagnosis.facts["sync"] = {"server": sync.url, "user": sync.username, "task list": sync.calendar}
    try:
        last, error, queued = _sync_state(db_path)
    except sqlite3.Error as problem:
        status = command("sync", "status", instead=Words("Settings → Sync shows where sync stands"))
        diagnosis.checks.append(Check("sync", False, str(problem), status))
        return
    if not password:
        setup = command("sync", "setup", instead=Setting("sync.password"), phrase=f"{{}}, or set {SYNC_PASSWORD.env}")
        diagnosis.checks.append(Check("sync", False, "no password", setup))
        return
    detail = f"last sync {last[:16] if last else 'never'} UTC, {queued} waiting, password in the {password}"
    fix = command("sync", instead=Words(_SYNC_NOW), phrase="{} says what is wrong in one line") if error else None
    diagnosis.checks.append(Check("sync", error is None, f"{detail}; last error: {error}" if error else detail, fix))


def diagnose(settings: Settings, db_path: Path, settings_problems: list[str]) -> Diagnosis:
    diagnosis = Diagnosis()
    diagnosis.facts["versions"] = _versions()
    diagnosis.facts["platform"] = platform.platform()
    diagnosis.facts["display"] = display_server()
    diagnosis.facts["folders"] = {"data": str(data_dir()), "settings": str(config_dir()), "logs": str(log_dir())}
    diagnosis.checks.append(
        Check("settings", not settings_problems, "; ".join(settings_problems) or "read", _SHOW_SETTINGS)
    )
    diagnosis.checks.append(_tray())
    diagnosis.checks.append(_hotkey())
    _audio(diagnosis)
    _speech(diagnosis, settings)
    _model_server(diagnosis, settings, db_path)
    _database(diagnosis, db_path)
    _sync(diagnosis, settings, db_path)
    if runs := KeptRuns.beside(db_path).read():
        diagnosis.facts["last_runs"] = runs_summary(runs)
    return diagnosis
