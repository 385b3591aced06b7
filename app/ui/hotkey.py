"""The global push-to-talk hotkey, from the backend chosen at start (app/shortcuts/choice.py): pynput on X11
(imported only here and only when started: it needs a display), the desktop's GlobalShortcuts portal on Wayland.
Both backends' threads reach the GUI thread only through signals. Where no backend works (Wayland without the
portal, a bind the user cancelled, a session the desktop closed) one line says so and how to bind
`murmur start` / `murmur stop` in the desktop instead."""

import logging
import os
import re
import threading
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.api.desktop import APP_ID, BACKEND_WORDS, Backend, ShortcutError, choose_backend
from app.ui.remedies import window_line

if TYPE_CHECKING:
    from app.api.portal import PortalShortcut

log = logging.getLogger("murmur.ui.hotkey")

TALK_DESCRIPTION = "Talk to Murmur (hold to talk)"


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
    return f"{combination!r} is not a hotkey{which}; write it like Ctrl+Alt+Space, or press Record…"


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
    bound = Signal(str)  # the desktop's portal bound the talk key: its words for the key
    failed = Signal(str)  # the talk key stopped working after start: one line, with what to do instead
    _portal_failed = Signal(int, object)  # which session (see _sessions) and its ShortcutError, from its thread

    def __init__(self, combination: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.combination = combination
        self.paused = False
        self.backend: Backend | None = None  # chosen at start()
        self._listener: Any = None
        self._portal: PortalShortcut | None = None
        self._sessions = 0  # portal sessions started: the end of one stopped since is no news
        self._keys: set[Any] = set()
        self._held: set[Any] = set()
        self._active = False
        self._lock = threading.Lock()
        self._portal_failed.connect(self._on_portal_failed)

    def backend_words(self) -> str:
        """The backend in use, for Settings; "" before start."""
        return BACKEND_WORDS[self.backend] if self.backend else ""

    def start(self) -> str | None:
        """Listen from now on; returns a one-line reason when that is impossible here."""
        choice = choose_backend(os.environ)
        self.backend = choice.backend
        if choice.problem:
            return self._problem(choice.problem)
        if choice.backend is Backend.PORTAL:
            return self._start_portal()
        return self._start_pynput()

    def _problem(self, error: ShortcutError) -> str:
        self.backend = Backend.NONE
        line = window_line(error)
        log.warning("no global hotkey: %s", line)
        return line

    def _start_portal(self) -> str | None:
        from app.api.portal import Listener, PortalShortcut, TalkKey, portal_trigger  # jeepney: Linux only

        key = TalkKey(APP_ID, TALK_DESCRIPTION, portal_trigger(self.combination))
        self._sessions += 1
        session = self._sessions
        listener = Listener(self._press, self._release, self.bound.emit, partial(self._portal_failed.emit, session))
        self._portal = PortalShortcut(key, listener)
        try:
            self._portal.start()
        except ShortcutError as error:
            self._portal = None
            return self._problem(error)
        return None

    def _on_portal_failed(self, session: int, error: ShortcutError) -> None:
        if self._portal is None or session != self._sessions:  # stopped meanwhile: that session's end is no news
            return
        self._portal = None
        self._release()  # a key held when the session ended would otherwise record on and on
        self.failed.emit(self._problem(error))

    def _start_pynput(self) -> str | None:
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
        if self._portal is not None:
            self._portal.stop()
            self._portal = None

    # The backends' threads: only signals leave them.

    def _press(self) -> None:
        with self._lock:
            if self._active or self.paused:
                return
            self._active = True
        self.pressed.emit()

    def _release(self) -> None:
        with self._lock:
            if not self._active:
                return
            self._active = False
        self.released.emit()

    def _on_press(self, key: Any) -> None:
        canonical = self._listener.canonical(key) if self._listener else key
        with self._lock:
            if canonical not in self._keys:
                return
            self._held.add(canonical)
            complete = self._held == self._keys
        if complete:
            self._press()

    def _on_release(self, key: Any) -> None:
        canonical = self._listener.canonical(key) if self._listener else key
        with self._lock:
            self._held.discard(canonical)
            if not self._active or canonical not in self._keys:
                return
            self._active = False
        self.released.emit()
