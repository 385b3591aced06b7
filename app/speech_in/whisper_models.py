"""Whisper models for the faster-whisper final pass: the official catalogue, download from Hugging Face, installed ones.

A model is a folder of plain files (CTranslate2's model.bin, config.json, the tokenizer and vocabulary), so
nothing here imports faster_whisper. A download asks the hub for the repo's file list (sizes, SHA-256 of the
LFS files, git blob ids of the small ones), fetches each file into `.partial/NAME/` with resume, checks it,
writes a manifest and moves the folder into the models dir with one rename.
"""

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from app.config import SpeechSettings
from app.errors import ModelError, Words, command
from app.speech_in.download import (
    Digest,
    DigestKind,
    ProgressCallback,
    RemoteFile,
    download_all,
    fetch_json,
    file_digest,
)
from app.speech_in.language import base_language, same_language
from app.speech_in.models import PARTIAL, HubModelFolder, InstalledModel, read_manifest, size_text

log = logging.getLogger("murmur.speech")

MULTILINGUAL = "multi"  # the language of a model that transcribes any of Whisper's 99 languages
REQUIRED_FILES = ("config.json", "model.bin", "tokenizer.json")
VOCABULARIES = ("vocabulary.txt", "vocabulary.json")  # one of them (older conversions: .txt)
# large-v3 and its offspring read 128 mel bins; without this file faster-whisper would assume 80.
OPTIONAL_FILES = ("preprocessor_config.json",)


@dataclass(frozen=True)
class WhisperModel:
    """One row of the catalogue of official faster-whisper models."""

    name: str  # Murmur's name, also the folder it installs into: "whisper-base.en"
    repo: str  # on Hugging Face
    language: str  # "en" (English only) or "multi"
    size: int  # bytes, approximate: the hub's file list has the exact sizes
    description: str

    kind: ClassVar[str] = "whisper"

    @property
    def size_text(self) -> str:
        return size_text(self.size)

    @property
    def detail(self) -> str:
        """What the model is good for, for a list of models (Settings → Speech)."""
        return self.description


def _row(size: str, megabytes: int, description: str, repo: str = "") -> WhisperModel:
    return WhisperModel(
        name=f"whisper-{size}",
        repo=repo or f"Systran/faster-whisper-{size}",
        language="en" if size.endswith(".en") else MULTILINGUAL,
        size=megabytes * 1_000_000,
        description=description,
    )


# Smallest first. Sizes are model.bin plus the tokenizer (float16 weights; faster-whisper runs them as int8).
CATALOGUE: tuple[WhisperModel, ...] = (
    _row("tiny.en", 78, "English only; the fastest, rough on unusual words"),
    _row("tiny", 78, "99 languages; the fastest, rough on unusual words"),
    _row("base.en", 148, "English only; quick on any laptop, the recommended final pass for English"),
    _row("base", 148, "99 languages; quick on any laptop, the recommended final pass for other languages"),
    _row(
        "distil-small.en",
        336,
        "English only; distilled from large-v2, near small's accuracy and faster",
        "Systran/faster-distil-whisper-small.en",
    ),
    _row("small.en", 487, "English only; clearly more accurate than base, about three times slower"),
    _row("small", 487, "99 languages; clearly more accurate than base, about three times slower"),
    _row("medium.en", 1_530, "English only; very accurate, slow on a CPU"),
    _row("medium", 1_530, "99 languages; very accurate, slow on a CPU"),
    _row(
        "large-v3-turbo",
        1_620,
        "99 languages; close to large-v3, several times faster (a GPU helps)",
        "mobiuslabsgmbh/faster-whisper-large-v3-turbo",
    ),
    _row("large-v3", 3_090, "99 languages; the most accurate, for a fast machine or a GPU"),
)
CATALOGUE_BY_NAME = {model.name: model for model in CATALOGUE}


def is_whisper_model_dir(path: Path) -> bool:
    """A CTranslate2 Whisper folder: model.bin and config.json, with its tokenizer or vocabulary."""
    return (
        (path / "model.bin").is_file()
        and (path / "config.json").is_file()
        and any((path / name).is_file() for name in ("tokenizer.json", *VOCABULARIES))
    )


def find_whisper_model(name: str) -> WhisperModel:
    if name not in CATALOGUE_BY_NAME:
        raise ModelError(f"no Whisper model named {name!r}; choose one of {', '.join(CATALOGUE_BY_NAME)}")
    return CATALOGUE_BY_NAME[name]


def whisper_model_path(settings: SpeechSettings, *, required: bool = False) -> Path | None:
    """The Whisper model folder these settings use: `whisper_model` (a name or a folder), else the best installed
    for the dictation language. None when there is none, or ModelError if `required` or a named one is missing."""
    manager = WhisperModelManager.from_settings(settings)
    if settings.whisper_model:
        return manager.resolve(settings.whisper_model)
    language = settings.language or "en"
    best = manager.best_for(language)
    if best is not None:
        return best.path
    if required:
        suggestion = "whisper-base.en" if base_language(language) == "en" else "whisper-base"
        download = command("models", "download", suggestion, instead=Words(f"Settings → Speech downloads {suggestion}"))
        raise ModelError(f"no Whisper model for language {language!r} in {manager.folder}", download)
    return None


@dataclass(frozen=True)
class _RepoFile:
    path: str
    size: int
    digest: Digest


class WhisperModelManager(HubModelFolder):
    """Whisper models in the models dir (shared with Vosk): installed ones, the catalogue, download, removal."""

    kind = "whisper"
    engine = "Whisper"
    shape = "model.bin, config.json and tokenizer.json or vocabulary.*"
    hub_variable = "MURMUR_WHISPER_HUB"

    def is_model(self, path: Path) -> bool:
        return is_whisper_model_dir(path)

    def language_of(self, path: Path) -> str:
        # A folder from elsewhere follows the official naming: English-only models end in ".en".
        return str(read_manifest(path).get("language") or ("en" if path.name.endswith(".en") else MULTILINGUAL))

    def serves(self, model_language: str, language: str) -> bool:
        return model_language == MULTILINGUAL or same_language(model_language, language)

    def best_for(self, language: str) -> InstalledModel | None:
        """The newest installed model for `language`; for English an English-only model before a multilingual one."""
        models = self.installed(language)
        models.sort(key=lambda m: m.language == MULTILINGUAL)  # stable: newest first within each group
        return models[0] if models else None

    def available(self, language: str = "") -> list[WhisperModel]:
        """The catalogue (the models serving `language`, if given); no network needed."""
        return [m for m in CATALOGUE if not language or self.serves(m.language, language)]

    # -- download -----------------------------------------------------------------------------

    def download(self, model: WhisperModel, on_progress: ProgressCallback | None = None) -> InstalledModel:
        """Download, verify and install `model`; files already fetched are kept and a cut file resumes."""
        target = self.folder / model.name
        if target.is_dir() and self.is_model(target):
            return self._installed(target)
        files = self._repo_files(model)
        work = self.folder / PARTIAL / model.name
        work.mkdir(parents=True, exist_ok=True)
        for stale in work.iterdir():  # left by an earlier revision of the repo
            if stale.name not in {f.path for f in files}:
                stale.unlink()
        remotes = [
            (
                RemoteFile(
                    f"{self.hub}/{model.repo}/resolve/main/{f.path}", f"{model.name} ({f.path})", f.size, f.digest
                ),
                work / f.path,
            )
            for f in files
        ]
        download_all(remotes, on_progress)
        manifest = {
            "name": model.name,
            "kind": self.kind,
            "repo": model.repo,
            "hub": self.hub,
            "language": model.language,
            "files": {f.path: {"size": f.size, "sha256": _sha256(f, work)} for f in files},
        }
        return self._install(work, target, manifest)

    def _repo_files(self, model: WhisperModel) -> list[_RepoFile]:
        """The files faster-whisper needs from the repo's file list, smallest first (a bad repo fails fast)."""
        url = f"{self.hub}/api/models/{model.repo}/tree/main"
        rows = fetch_json(url, f"the file list of {model.repo}")
        files = []
        try:
            for row in rows:
                path = str(row["path"])
                if row.get("type") != "file" or path not in (*REQUIRED_FILES, *VOCABULARIES, *OPTIONAL_FILES):
                    continue
                files.append(_repo_file(path, row))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ModelError(f"the file list of {model.repo} at {url} is not what the hub sends") from None
        names = {f.path for f in files}
        missing = [name for name in REQUIRED_FILES if name not in names]
        if not names & set(VOCABULARIES):
            missing.append("vocabulary.txt or vocabulary.json")
        if missing:
            raise ModelError(
                f"{model.repo} on {self.hub} has no {', '.join(missing)}; it is not a faster-whisper model"
            )
        return sorted(files, key=lambda f: f.size)


def _repo_file(path: str, row: dict[str, Any]) -> _RepoFile:
    lfs = row.get("lfs")
    if isinstance(lfs, dict):  # a big file: the hub knows its SHA-256
        return _RepoFile(path, int(lfs.get("size", row["size"])), Digest(DigestKind.SHA256, str(lfs["oid"])))
    return _RepoFile(path, int(row["size"]), Digest(DigestKind.GIT_BLOB_SHA1, str(row["oid"])))


def _sha256(file: _RepoFile, folder: Path) -> str:
    if file.digest.kind is DigestKind.SHA256:
        return file.digest.value.lower()  # checked against the file a moment ago
    return file_digest(folder / file.path, DigestKind.SHA256)
