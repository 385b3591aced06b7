"""The global push-to-talk hotkey, with pynput (imported only here and only when started: it needs a
display). Where a global grab is impossible (Wayland), `start()` says so and the user binds
`murmur toggle` in the desktop's own shortcut settings instead."""

import logging
import os
import re
import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

log = logging.getLogger("murmur.ui.hotkey")

WAYLAND_HINT = (
    "global hotkeys are not possible on Wayland; bind `murmur toggle` (or `murmur start` / `murmur stop`) "
    "to a key in your desktop's keyboard shortcut settings"
)


def grab_problem() -> str | None:
    """Why a global hotkey cannot work on this desktop, or None."""
    if os.environ.get("XDG_SESSION_TYPE", "").lower() == "wayland" or (
        os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY")
    ):
        return WAYLAND_HINT
    return None


def hotkey_problem(combination: str) -> str | None:
    """Why pynput could not listen for `combination`, in one line, or None when it can.

    pynput's own parser decides. Where pynput cannot load (it needs an X display on Linux, and then
    no global hotkey works here either) only its grammar is checked: parts joined by "+", each one
    character or a <name>, none twice; the names themselves are checked when the hotkey starts."""
    try:
        from pynput import keyboard
    except Exception:  # pynput's backend raises ImportError (or Xlib's own errors) without a display
        return _grammar_problem(combination)
    try:
        keyboard.HotKey.parse(combination)
    except ValueError as error:
        return _invalid(combination, str(error))
    return None


def _invalid(combination: str, part: str) -> str:
    which = f" ({part!r} is not a key)" if part and part != combination else ""
    return f"{combination!r} is not a hotkey{which}; write it like <ctrl>+<alt>+<space>, or press Record…"


def _grammar_problem(combination: str) -> str | None:
    parts, start = [], 0
    for i, char in enumerate(combination):  # split as pynput does: "<ctrl>++" is Ctrl and the plus key
        if char == "+" and i != start:
            parts.append(combination[start:i])
            start = i + 1
    parts.append(combination[start:])
    for part in parts:
        if not (len(part) == 1 or re.fullmatch(r"<\w+>", part)):
            return _invalid(combination, part)
    if len({p.lower() for p in parts}) != len(parts):
        return _invalid(combination, "")
    return None


class GlobalHotkey(QObject):
    pressed = Signal()  # every key of the combination is down
    released = Signal()  # a key of the combination went up after `pressed`

    def __init__(self, combination: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.combination = combination
        self.paused = False
        self._listener: Any = None
        self._keys: set[Any] = set()
        self._held: set[Any] = set()
        self._active = False
        self._lock = threading.Lock()

    def start(self) -> str | None:
        """Listen from now on; returns a one-line reason when that is impossible here."""
        problem = grab_problem()
        if problem:
            return problem
        try:
            from pynput import keyboard

            self._keys = set(keyboard.HotKey.parse(self.combination))
            self._listener = keyboard.Listener(on_press=self._on_press, on_release=self._on_release)
            self._listener.start()
        except ValueError as error:
            return f"the hotkey {self.combination!r} is not valid ({error}); change it in Settings"
        except Exception as error:  # no display, no X RECORD extension, no accessibility permission
            log.warning("no global hotkey: %r", error)
            return f"the global hotkey is not available here ({error}); use the mic button or `murmur toggle`"
        return None

    def stop(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None

    # pynput's thread: only signals leave it.

    def _on_press(self, key: Any) -> None:
        canonical = self._listener.canonical(key) if self._listener else key
        with self._lock:
            if canonical not in self._keys:
                return
            self._held.add(canonical)
            if self._active or self._held != self._keys or self.paused:
                return
            self._active = True
        self.pressed.emit()

    def _on_release(self, key: Any) -> None:
        canonical = self._listener.canonical(key) if self._listener else key
        with self._lock:
            self._held.discard(canonical)
            if not self._active or canonical not in self._keys:
                return
            self._active = False
        self.released.emit()
