"""Piper voices in the model manager: the official catalogue (rhasspy/piper-voices on Hugging Face), download with
progress, checksum and resume, install with one rename, and the installed ones beside the speech models.

A voice is a folder in the models dir named by its key ("en_US-joe-medium") holding KEY.onnx and KEY.onnx.json.
The catalogue is the repo's voices.json: per voice its language, quality and files with their size and MD5.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from app.errors import ModelError, Words, command
from app.speech_in.download import (
    Digest,
    DigestKind,
    ProgressCallback,
    RemoteFile,
    download_all,
    fetch_json,
)
from app.speech_in.models import PARTIAL, HubModelFolder, InstalledModel, read_manifest, size_text

REPO = "rhasspy/piper-voices"
QUALITIES = ("x_low", "low", "medium", "high")  # worst first: the sort order of the list


@dataclass(frozen=True)
class VoiceFile:
    path: str  # in the repo: "en/en_US/joe/medium/en_US-joe-medium.onnx"
    size: int
    md5: str

    @property
    def digest(self) -> Digest:
        return Digest(DigestKind.MD5, self.md5)


def _name(file: VoiceFile) -> str:
    return file.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class PiperVoice:
    """One voice of the catalogue."""

    name: str  # its key, also the folder it installs into: "en_US-joe-medium"
    language: str  # "en_US"
    language_name: str  # "English (United States)"
    quality: str  # x_low, low, medium, high
    speakers: int
    files: tuple[VoiceFile, ...]  # the model and its config

    kind: ClassVar[str] = "piper"

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    @property
    def size_text(self) -> str:
        return size_text(self.size)

    @property
    def detail(self) -> str:
        return self.quality


def voice_files(folder: Path) -> tuple[Path, Path]:
    """The model and its config in an installed voice's folder (named after the folder)."""
    model = folder / f"{folder.name}.onnx"
    return model, folder / f"{model.name}.json"


def _catalogue_voice(key: str, row: dict[str, Any]) -> PiperVoice:
    language = row["language"]
    files = tuple(
        VoiceFile(path, int(info["size_bytes"]), str(info["md5_digest"]).lower())
        for path, info in row["files"].items()
        if path.endswith((".onnx", ".onnx.json"))
    )
    if len(files) != 2:
        raise ValueError(f"{key} has no model and config")
    return PiperVoice(
        name=key,
        language=str(language["code"]),
        language_name=f"{language.get('name_english', '')} ({language.get('country_english', '')})",
        quality=str(row.get("quality", "")),
        speakers=int(row.get("num_speakers", 1)),
        files=tuple(sorted(files, key=lambda f: f.path.endswith(".onnx"))),  # the config first: small, fails fast
    )


class PiperVoices(HubModelFolder):
    """The Piper voices in the models dir (shared with the speech models), and the official catalogue."""

    kind = "piper"
    engine = "Piper"
    shape = "NAME.onnx and NAME.onnx.json"
    hub_variable = "MURMUR_PIPER_HUB"

    def is_model(self, path: Path) -> bool:
        return all(file.is_file() for file in voice_files(path))

    def language_of(self, path: Path) -> str:
        return str(read_manifest(path).get("language") or path.name.partition("-")[0])

    def available(self, language: str = "") -> list[PiperVoice]:
        """The catalogue, fetched (ModelError, one line, when it cannot be); those for `language`, if given."""
        url = f"{self.hub}/{REPO}/resolve/main/voices.json"
        rows = fetch_json(url, "the list of Piper voices")
        try:
            voices = [_catalogue_voice(key, row) for key, row in rows.items()]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ModelError(f"the list of Piper voices at {url} is not what the repository sends") from None
        voices = [v for v in voices if not language or self.serves(v.language, language)]
        order = {quality: rank for rank, quality in enumerate(QUALITIES)}
        return sorted(voices, key=lambda v: (v.language, order.get(v.quality, len(QUALITIES)), v.name))

    def find_available(self, name: str) -> PiperVoice:
        voice = next((v for v in self.available() if v.name == name), None)
        if voice is None:
            listed = command(
                "voices", "list", "--available", instead=Words("Settings → Voice lists them"), phrase="see {}"
            )
            raise ModelError(f"no Piper voice named {name!r}", listed)
        return voice

    def download(self, voice: PiperVoice, on_progress: ProgressCallback | None = None) -> InstalledModel:
        """Download, check and install `voice`; a cut download resumes where it stopped."""
        target = self.folder / voice.name
        if target.is_dir() and self.is_model(target):
            return self._installed(target)
        work = self.folder / PARTIAL / voice.name
        work.mkdir(parents=True, exist_ok=True)
        remotes = [
            (
                RemoteFile(f"{self.hub}/{REPO}/resolve/main/{f.path}", f"{voice.name} ({_name(f)})", f.size, f.digest),
                work / _name(f),
            )
            for f in voice.files
        ]
        download_all(remotes, on_progress)
        manifest = {
            "name": voice.name,
            "kind": self.kind,
            "hub": self.hub,
            "language": voice.language,
            "quality": voice.quality,
            "files": {_name(f): {"size": f.size, "md5": f.md5} for f in voice.files},
        }
        return self._install(work, target, manifest)
