"""Icons from app/resources/icons (SVG): the app, its states in the tray, and one per category."""

import functools
from enum import StrEnum
from importlib.resources import files
from pathlib import Path

from PySide6.QtGui import QIcon

from app.domain.enums import Category


class AppState(StrEnum):
    """What the tray icon shows."""

    IDLE = "idle"  # ready: press the hotkey and speak
    PAUSED = "paused"  # the hotkey is ignored until the user resumes listening (the tray's menu)
    RECORDING = "recording"
    THINKING = "thinking"  # an utterance is being interpreted and applied
    SPEAKING = "speaking"  # a reply is being said aloud
    LISTENING = "listening"  # after a spoken question: the microphone is open for the answer, no key needed
    ERROR = "error"  # the last run or recording failed; cleared by the next success


def resources_dir() -> Path:
    """Inside the package, so a wheel carries them (a wheel is installed unpacked: they are files)."""
    return Path(str(files("app") / "resources"))


def _icon(relative: str) -> QIcon:
    return QIcon(str(resources_dir() / "icons" / relative))


@functools.cache
def app_icon() -> QIcon:
    return _icon("murmur.svg")


@functools.cache
def state_icon(state: AppState) -> QIcon:
    return _icon(f"state-{state.value}.svg")


@functools.cache
def category_icon(category: Category) -> QIcon:
    return _icon(f"category/{category.value}.svg")


@functools.cache
def view_icon(name: str) -> QIcon:
    """The sidebar's icon for a view: today, upcoming, all, done, archived, inbox, history, usage, memory."""
    return _icon(f"view/{name}.svg")
