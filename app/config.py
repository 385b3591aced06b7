"""Settings: one TOML file in the platform config dir, read into typed dataclasses.

Sections: [llm] the model server, [speech] microphone and engines, [ui] the desktop app, [privacy],
[memory] what Murmur keeps in mind about the user, [locale] the user's country and hours of the day, [sync]
the CalDAV server the list is synced with, [mcp] what other assistants may do through `murmur mcp`,
[recordings] how long the sound of what was said is kept.
What overrides what (flags > environment > this file > defaults) is decided where a setting is used
(e.g. `app.agent.provider`); this module only reads and writes the file. The API key is never here:
it lives in the keyring (`app.secrets`).
"""

import logging
import re
import tomllib
import types
import typing
from dataclasses import Field, dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import tomli_w

from app.errors import UsageError
from app.paths import config_dir
from app.private_files import ensure_private_dir, write_private_text

log = logging.getLogger("murmur.config")


def settings_path() -> Path:
    return config_dir() / "settings.toml"


class SettingsFileError(UsageError):
    """The settings file cannot be read or is not TOML: none of it can be used."""


def _ranged(default: float, low: float, high: float) -> Any:
    """A numeric setting and the values it allows (checked at `config set` and when the file is read)."""
    return field(default=default, metadata={"range": (low, high)})


def _clock(default: str) -> Any:
    """A time of day, "HH:MM" (24-hour)."""
    return field(default=default, metadata={"clock": True})


def _one_of(default: str, *others: str) -> Any:
    """A setting that takes one of a few words (checked like a range)."""
    return field(default=default, metadata={"choices": (default, *others)})


def _guarding(default: Any, **metadata: Any) -> Any:
    """A setting that decides where the user's words go or what others may do: when its value cannot be used,
    what its section guards stays off (no default stands in for it)."""
    return field(default=default, metadata={"guards": True, **metadata})


# What each guarded section keeps off while its settings cannot be trusted, as the user reads it.
GUARDED = {
    "llm": "no language model is asked",
    "sync": "nothing is synced",
    "mcp": "assistants may only read the list",
}


@dataclass(frozen=True)
class LlmSettings:
    preset: str = _guarding("")  # a name from app.agent.provider.PRESETS, or "" for a custom server
    base_url: str = _guarding("", url=True)  # empty: the preset's, or OpenAI's
    model: str = _guarding("")  # empty: the preset's default model
    timeout_seconds: float = _ranged(20.0, 1, 600)  # per wait for the server; with one retry ~40 s at most
    request_seconds: float = _ranged(120.0, 1, 3600)  # the whole request, however slowly the server answers
    max_turns: int = _ranged(8, 1, 50)
    max_mutations: int = _ranged(25, 1, 10_000)  # above this many changes from one utterance, ask before applying
    follow_up_seconds: float = _ranged(120.0, 0, 86_400)  # an answer to the model's question within this continues
    monthly_budget: float = _ranged(0.0, 0, 1_000_000)  # in the pricing currency (USD); 0 means no budget
    context_tokens: int = _ranged(1500, 200, 100_000)  # the entry lines of a request's context, at most
    max_output_tokens: int = _ranged(1024, 16, 65_536)  # what one answer of the model may run to
    deadline_seconds: float = _ranged(45.0, 1, 3600)  # all the requests for one utterance together
    # How the model calls tools: auto (native function calling until the server or the model shows it cannot,
    # then <execute> blocks in its words, remembered per model), native, text.
    tool_protocol: str = _one_of("auto", "native", "text")
    # When the model fails an utterance (an error, the deadline, nothing usable): offline (the built-in rules
    # file it, saying so) or inbox (it waits there for `murmur retry`).
    fallback: str = _one_of("offline", "inbox")
    # More changes than this of one kind (archive, complete, snooze, update, forget) from one utterance wait
    # for the user's yes.
    confirm_over: int = _ranged(5, 1, 10_000)
    # The wait for the first word of an answer: a CPU-only server reads a long prompt for a while first.
    first_token_seconds: float = _ranged(90.0, 1, 3600)
    stream: bool = True
    # Price per million tokens, by model name: {"gpt-4o-mini": {"input": 0.15, "output": 0.6}}.
    pricing: dict[str, dict[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class SpeechSettings:
    engine: str = "auto"  # auto (Vosk if a model is installed, else pocketsphinx), vosk, pocketsphinx
    model: str = ""  # a Vosk model name from the model manager, or a folder; empty: the best installed
    language: str = "en"  # dictation language; also handed to date parsing
    device: str = ""  # input device name or index; empty: the system default
    models_dir: str = ""  # where speech models (Vosk, Whisper) live; empty: <data dir>/models
    # The pass over the whole utterance when the user lets go: auto (Whisper if a Whisper model is installed
    # and faster-whisper importable, else the live engine's own full-utterance pass), whisper, live, off.
    final_engine: str = "auto"
    whisper_model: str = ""  # a Whisper model name from the model manager, or a folder; empty: the best installed
    vocabulary_hints: bool = True  # bias the final pass toward words already in the user's list
    offer_models: bool = True  # offer the recommended models on first use; declining sets it False
    # Replies spoken aloud: off, questions (Murmur's questions and its answers to yours), always (changes too).
    reply: str = _one_of("questions", "off", "always")
    voice: str = ""  # a Piper voice name, a .onnx file, or espeak-ng[:VOICE]; empty: the best installed
    rate: float = _ranged(1.0, 0.5, 2.0)  # speaking speed, 1 is the voice's own
    volume: float = _ranged(1.0, 0.0, 1.0)
    output_device: str = ""  # output device name or index; empty: the system default
    # After a spoken question the microphone listens this long for the answer (0: never); silence closes it.
    followup_seconds: float = _ranged(6.0, 0, 60)
    followup_after: str = _one_of("questions", "replies")  # replies: after every spoken reply, not only questions


@dataclass(frozen=True)
class UiSettings:
    hotkey: str = "<ctrl>+<alt>+<space>"  # pynput's syntax
    hotkey_mode: str = "hold"  # hold (push-to-talk) or toggle
    audio_cues: bool = True
    start_at_login: bool = False
    toast_seconds: float = _ranged(5.0, 1, 120)
    theme: str = _one_of("system", "light", "dark")  # system: follow the desktop's light or dark scheme


@dataclass(frozen=True)
class PrivacySettings:
    redact: bool = True  # mask card numbers, IBANs, keys, passwords before text leaves the machine
    keep_unredacted: bool = False  # entries keep the placeholders; True puts the originals back locally


@dataclass(frozen=True)
class MemorySettings:
    profile_tokens: int = _ranged(300, 50, 5000)  # the user's memories shown in every request, at most
    session_gap_minutes: int = _ranged(30, 1, 1440)  # a pause this long ends a talk session


@dataclass(frozen=True)
class LocaleSettings:
    country: str = ""  # ISO code (US, GB, DE) for the named days ("on Thanksgiving"); empty: the system locale's
    # The hours the day's parts mean: "every morning", "this evening", "tonight".
    morning: str = _clock("08:00")
    afternoon: str = _clock("14:00")
    evening: str = _clock("19:00")
    night: str = _clock("21:00")


@dataclass(frozen=True)
class SyncSettings:
    url: str = _guarding("")  # the CalDAV server (https://...); empty: no sync. The password is in the keyring
    username: str = _guarding("")
    calendar: str = _guarding("Murmur")  # the task list synced, by name; made on the server when missing
    # A certificate authority to trust for this server (one that signs its own certificates); TLS is always verified.
    ca_file: str = _guarding("")
    interval_minutes: int = _ranged(5, 1, 1440)  # the desktop app syncs this often, and after each change
    # The most one answer of the server may hold: a bigger one is refused, not read into memory.
    max_answer_mb: int = _ranged(50, 1, 2000)


@dataclass(frozen=True)
class McpSettings:
    # What other assistants may do through `murmur mcp`: read only (no tool that changes the list is offered),
    # and whether they may read the user's memories (never the model's ledger, the settings or the keys).
    read_only: bool = _guarding(False)
    allow_memories: bool = _guarding(False)


@dataclass(frozen=True)
class RecordingsSettings:
    keep: bool = True  # keep the sound of each dictated utterance, to hear it again (off: none is kept)
    max_days: int = _ranged(30, 1, 36_500)  # older recordings are removed, oldest first
    max_mb: int = _ranged(500, 1, 1_000_000)  # and so are the oldest once all of them take more than this


@dataclass(frozen=True)
class Settings:
    llm: LlmSettings = field(default_factory=LlmSettings)
    speech: SpeechSettings = field(default_factory=SpeechSettings)
    ui: UiSettings = field(default_factory=UiSettings)
    privacy: PrivacySettings = field(default_factory=PrivacySettings)
    memory: MemorySettings = field(default_factory=MemorySettings)
    locale: LocaleSettings = field(default_factory=LocaleSettings)
    sync: SyncSettings = field(default_factory=SyncSettings)
    mcp: McpSettings = field(default_factory=McpSettings)
    recordings: RecordingsSettings = field(default_factory=RecordingsSettings)
    # Sections whose settings could not be used, with why: what they guard (GUARDED) stays off. Never in the file.
    closed: dict[str, str] = field(default_factory=dict, compare=False, metadata={"not_in_file": True})

    def closed_because(self, section: str) -> str | None:
        """Why what `section` guards is off (the settings file's fault, with its line), or None when it is not."""
        return self.closed.get(section)


def url_problem(url: str) -> str | None:
    """Why `url` cannot be a model server's address (said as "<url> ..."), or None when it can be."""
    try:
        parsed = urlparse(url.strip())
        parsed.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return f"{url!r} is not a URL"
    if parsed.scheme not in ("http", "https"):
        return f"{url!r} must start with http:// or https://"
    if not parsed.hostname:
        return f"{url!r} names no server"
    return None


def without_password(url: str) -> str:
    """`url` as it may be kept or shown: a password in its address (``https://me:secret@host``) left out."""
    parsed = urlparse(url)
    if parsed.password is None:
        return url
    host = parsed.netloc.rpartition("@")[2]
    user = parsed.username or ""
    return parsed._replace(netloc=f"{user}@{host}" if user else host).geturl()


def section_names() -> list[str]:
    """The file's tables, in order."""
    return list(_section_types())


def _section_types() -> dict[str, type]:
    return {f.name: f.type for f in fields(Settings) if not f.metadata.get("not_in_file")}  # type: ignore[misc]


def _coerce(value: Any, kind: Any, name: str) -> Any:
    """`value` as the field's type; a wrong type is a UsageError naming the setting."""
    origin = typing.get_origin(kind)
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
            return value.lower() in ("true", "yes", "on", "1")
    elif kind in (int, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return kind(value)
        if isinstance(value, str):
            try:
                return kind(value)
            except ValueError:
                pass
    elif kind is str:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
    elif origin is dict or isinstance(kind, types.GenericAlias):
        if isinstance(value, dict):
            return value
    raise UsageError(f"setting {name} expects {getattr(kind, '__name__', kind)}, got {value!r}")


def _checked(value: Any, setting: Field[Any], kind: Any, name: str) -> Any:
    """`value` coerced to the setting's type and inside its allowed range; a UsageError names both."""
    value = _coerce(value, kind, name)
    if "range" in setting.metadata:
        low, high = setting.metadata["range"]
        if not low <= value <= high:
            raise UsageError(f"setting {name} must be between {low:g} and {high:g}, got {value!r}")
    if "clock" in setting.metadata and not re.fullmatch(r"(?:[01]\d|2[0-3]):[0-5]\d", value):
        raise UsageError(f"setting {name} must be a time of day like 08:00, got {value!r}")
    if "choices" in setting.metadata and value not in setting.metadata["choices"]:
        raise UsageError(f"setting {name} must be one of {', '.join(setting.metadata['choices'])}, got {value!r}")
    return value


def _section_from(data: Any, kind: type, section: str, path: Path, problems: list[str], closed: dict[str, str]) -> Any:
    """The section's settings; a value that does not fit keeps its default, with a line in `problems`, unless it
    guards something: then the section is `closed` (its default would send words, or allow, where the user did not)."""
    if not isinstance(data, dict):
        problem = f"[{section}] in {path} must be a table"
        if section in GUARDED:
            closed[section] = problem
            problems.append(f"{problem}: {GUARDED[section]} until it is fixed")
        else:
            problems.append(f"{problem}; its defaults are used")
        return kind()
    known = {f.name: f for f in fields(kind)}
    hints = typing.get_type_hints(kind)
    values = {}
    for key, value in data.items():
        if key not in known:
            log.warning("ignoring unknown setting %s.%s", section, key)
            continue
        try:
            values[key] = _checked(value, known[key], hints[key], f"{section}.{key}")
        except UsageError as error:
            if known[key].metadata.get("guards") and section in GUARDED:
                closed.setdefault(section, f"{error} in {path}")
                problems.append(f"{error} in {path}: {GUARDED[section]} until it is fixed")
            else:
                problems.append(f"{error} in {path}; the default is used")
    return kind(**values)


def read_settings_file(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The settings in `path` (default: the settings file), defaults where it says nothing or is missing,
    and one line per value that was not used; a file that cannot be read at all is a SettingsFileError."""
    path = path or settings_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings(), []
    except OSError as error:
        raise SettingsFileError(f"cannot read the settings file {path}: {error.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise SettingsFileError(f"cannot read the settings file {path}: not UTF-8 text at line {line}") from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsFileError(f"cannot read the settings file {path}: not valid TOML: {error}") from None
    problems: list[str] = []
    closed: dict[str, str] = {}
    sections = {}
    for name, kind in _section_types().items():
        if name in data:
            sections[name] = _section_from(data[name], kind, name, path, problems, closed)
    return Settings(**sections, closed=closed), problems


def read_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """As `read_settings_file`, but an unreadable file is one more problem: what it guards stays off (no model,
    no sync, assistants read only) and the rest works on the defaults, until the file is fixed."""
    try:
        return read_settings_file(path)
    except SettingsFileError as error:
        kept_off = ", ".join(GUARDED.values())
        return Settings(closed=dict.fromkeys(GUARDED, str(error))), [f"{error}: {kept_off} until it is fixed"]


def load_settings(path: Path | None = None) -> Settings:
    """The settings to work with; what cannot be used is logged (front ends show it with `read_settings`)."""
    settings, problems = read_settings(path)
    for problem in problems:
        log.warning("%s", problem)
    return settings


def _as_toml(settings: Settings) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for name in _section_types():
        value = getattr(settings, name)
        assert is_dataclass(value)
        tables[name] = {f.name: getattr(value, f.name) for f in fields(value)}
    return tables


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write atomically (a crash never leaves half a file), readable by the user only. A file that cannot be read
    is never written over (what the user meant is in it): SettingsFileError until it is fixed by hand."""
    path = path or settings_path()
    read_settings_file(path)
    if settings.closed:  # its defaults would stand where the file says something Murmur could not use
        section, why = next(iter(settings.closed.items()))
        raise SettingsFileError(f"{why}: fix [{section}] there first; nothing was written")
    ensure_private_dir(path.parent)
    write_private_text(path, tomli_w.dumps(_as_toml(settings)))
    return path


def with_value(settings: Settings, key: str, raw: str) -> Settings:
    """A copy of `settings` with `key` ("llm.model") set from the text `raw` (as typed on a command line)."""
    section_name, _, name = key.partition(".")
    sections = _section_types()
    if section_name not in sections or not name:
        raise UsageError(f"unknown setting {key!r}; settings are {', '.join(all_keys())}")
    section = getattr(settings, section_name)
    hints = typing.get_type_hints(type(section))
    if name not in hints:
        raise UsageError(f"unknown setting {key!r}; settings are {', '.join(all_keys())}")
    if typing.get_origin(hints[name]) is dict:
        raise UsageError(f"{key} is a table; edit it in {settings_path()}")
    setting = next(f for f in fields(section) if f.name == name)
    value = _checked(raw, setting, hints[name], key)
    # Refused here, where it is typed; one already in the file is reported where it is used.
    if setting.metadata.get("url") and value and (problem := url_problem(value)):
        raise UsageError(f"setting {key}: {problem}")
    closed = {name: why for name, why in settings.closed.items() if name != section_name}  # set anew: fixed
    return replace(settings, **{section_name: replace(section, **{name: value})}, closed=closed)


def all_keys() -> list[str]:
    return [f"{section}.{f.name}" for section, kind in _section_types().items() for f in fields(kind)]
