"""Vosk and Whisper models side by side: one models dir seen whole, download/remove/use by name, and the models
recommended for a language on this machine (what a first-run offer suggests).

A Whisper model recognises what the user says; a Vosk model streams the words live in the languages the bundled
engine does not know. Both kinds live in the same folder and are told apart by what their folders hold.
"""

import logging
import os
from dataclasses import dataclass, replace
from pathlib import Path

from app.config import SpeechSettings
from app.errors import ModelError
from app.speech_in.download import ProgressCallback
from app.speech_in.language import base_language
from app.speech_in.models import InstalledModel, ModelFolder, ModelManager, models_dir, official_models, size_text
from app.speech_in.whisper_models import CATALOGUE_BY_NAME, WhisperModelManager, find_whisper_model

log = logging.getLogger("murmur.speech")

GIB = 1024**3
# Whisper's size by what the machine can run while the user waits: tiny where base would be slow or crowd the
# memory, small (about three times base's work, for fewer errors) where there is room to spare. A 16 GB machine
# reports a little less than 16 GiB (the firmware and the kernel keep some), hence 15.
TINY_UNDER_CORES, TINY_UNDER_MEMORY = 2, 3 * GIB
SMALL_FROM_CORES, SMALL_FROM_MEMORY = 8, 15 * GIB


@dataclass(frozen=True)
class Machine:
    """What a Whisper model's size is chosen by: logical cores and bytes of memory (None: not known)."""

    cores: int | None
    memory: int | None


def this_machine() -> Machine:
    try:
        memory: int | None = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or the system does not tell
        memory = None
    return Machine(os.cpu_count(), memory)


def whisper_size(machine: Machine) -> str:
    """ "tiny", "base" or "small": the Whisper model that fits `machine`; base where a figure is not known."""
    cores, memory = machine.cores, machine.memory
    if (cores is not None and cores < TINY_UNDER_CORES) or (memory is not None and memory < TINY_UNDER_MEMORY):
        return "tiny"
    if cores is not None and memory is not None and cores >= SMALL_FROM_CORES and memory >= SMALL_FROM_MEMORY:
        return "small"
    return "base"


@dataclass(frozen=True)
class Recommendation:
    """A model to offer: which, how big, and what it is for. Download it by name (`SpeechModels.download`)."""

    kind: str  # "vosk" or "whisper"
    name: str
    language: str
    size: int | None  # bytes (the Whisper sizes are approximate)
    purpose: str  # one line for the offer

    @property
    def size_text(self) -> str:
        return size_text(self.size)


@dataclass(frozen=True)
class ModelUse:
    """What using a model changes: one setting, and the speech settings with it changed."""

    kind: str  # "vosk" or "whisper"
    setting: str  # "speech.model" or "speech.whisper_model"
    value: str  # the model's name when it is in the models dir, else its folder
    path: Path
    speech: SpeechSettings


def recommended_whisper(language: str, machine: Machine | None = None) -> Recommendation:
    """The Whisper model for `language` that fits `machine` (default: this one): English-only for English, else
    the multilingual model of the same size."""
    english = base_language(language or "en") == "en"
    size = whisper_size(machine or this_machine())
    whisper = CATALOGUE_BY_NAME[f"whisper-{size}{'.en' if english else ''}"]
    return Recommendation("whisper", whisper.name, whisper.language, whisper.size, "recognises what you say")


def recommended_models(language: str, machine: Machine | None = None) -> list[Recommendation]:
    """The models worth having for dictation in `language` on `machine` (default: this one): the Whisper model that
    fits it; for other languages than English a small Vosk model first, since the live words need one there (the
    bundled engine knows English only). The Vosk list names that model; without it (offline) only the Whisper one
    is returned. Nothing is downloaded."""
    whisper = recommended_whisper(language, machine)
    if base_language(language or "en") == "en":
        return [whisper]
    live = "streams the words live while you speak"
    found: list[Recommendation] = []
    try:
        small = [m for m in official_models(language) if m.kind == "small"]
    except ModelError as error:
        log.warning("no Vosk model recommended for %s: %s", language, error)
        small = []
    if small:  # the list's first: the list puts a language's main model before its variants
        found.append(Recommendation("vosk", small[0].name, small[0].language, small[0].size, live))
    return [*found, replace(whisper, purpose="writes the final text when you let go")]


class SpeechModels:
    """The models dir with both kinds of model in it, named alike: the CLI, the settings and a first-run offer
    work through this and need not care which kind a name is."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.vosk = ModelManager(folder)
        self.whisper = WhisperModelManager(folder)

    @classmethod
    def from_settings(cls, settings: SpeechSettings) -> "SpeechModels":
        return cls(models_dir(settings))

    def installed(self, language: str = "") -> list[InstalledModel]:
        """Every installed model (for `language`, if given): Vosk ones, then Whisper ones, each newest first."""
        return [*self.vosk.installed(language), *self.whisper.installed(language)]

    def owner(self, name: str) -> ModelFolder | None:
        """The manager whose kind of model `name` (an installed name or a folder) is, if it is one."""
        for manager in (self.vosk, self.whisper):
            if any(p.is_dir() and manager.is_model(p) for p in (self.folder / name, Path(name).expanduser())):
                return manager
        return None

    def resolve(self, name: str) -> tuple[ModelFolder, Path]:
        """The manager and folder of a model setting; ModelError (naming the likelier kind) if it is none."""
        manager = self.owner(name) or self._likely(name)
        return manager, manager.resolve(name)

    def use(self, speech: SpeechSettings, name: str) -> ModelUse:
        """`speech` set to use the model `name` (an installed name or a folder): a Vosk one for dictation (engine
        auto), a Whisper one for the final text ("auto" runs it whenever faster-whisper is there). ModelError
        (naming the likelier kind) unless it is a model. Nothing is saved."""
        manager, path = self.resolve(name)
        value = name if (self.folder / name) == path else str(path.resolve())
        if manager.kind == "whisper":
            changed = replace(speech, whisper_model=value, final_engine="auto")
            return ModelUse("whisper", "speech.whisper_model", value, path, changed)
        return ModelUse("vosk", "speech.model", value, path, replace(speech, model=value, engine="auto"))

    def download(self, name: str, on_progress: ProgressCallback | None = None) -> InstalledModel:
        """Download and install a model by name: a Whisper one from the catalogue, else one from the Vosk list."""
        if self._likely(name) is self.whisper:
            return self.whisper.download(find_whisper_model(name), on_progress)
        return self.vosk.download(self.vosk.find_available(name), on_progress)

    def remove(self, name: str) -> Path:
        manager = self.owner(name) if "/" not in name else None
        return (manager or self.vosk).remove(name)

    def _likely(self, name: str) -> ModelFolder:
        return self.whisper if name in CATALOGUE_BY_NAME or name.startswith("whisper-") else self.vosk
