"""A button that records a key combination and writes it in pynput's syntax ("<ctrl>+<alt>+<space>").

Qt sees the keys (not pynput), so recording works on every desktop, Wayland included; pynput's parser
still checks the result on Save (`hotkey.hotkey_problem`).
"""

import sys

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QPushButton, QWidget

Key = Qt.Key
Mod = Qt.KeyboardModifier

# Qt reports the macOS Command key as Control and the Control key as Meta; pynput names them cmd and ctrl.
_MAC = sys.platform == "darwin"
MODIFIERS: tuple[tuple[Qt.KeyboardModifier, str], ...] = (
    (Mod.MetaModifier if _MAC else Mod.ControlModifier, "<ctrl>"),
    (Mod.AltModifier, "<alt>"),
    (Mod.ShiftModifier, "<shift>"),
    (Mod.ControlModifier if _MAC else Mod.MetaModifier, "<cmd>"),
)
MODIFIER_KEYS = {Key.Key_Control, Key.Key_Alt, Key.Key_Shift, Key.Key_Meta, Key.Key_AltGr, Key.Key_Super_L}
MODIFIER_KEYS |= {Key.Key_Super_R, Key.Key_Hyper_L, Key.Key_Hyper_R, Key.Key_CapsLock, Key.Key_NumLock}

# Keys without a character, by pynput's Key names.
NAMED_KEYS: dict[int, str] = {
    Key.Key_Space: "space",
    Key.Key_Escape: "esc",  # with a modifier: Escape alone cancels
    Key.Key_Return: "enter",
    Key.Key_Enter: "enter",
    Key.Key_Tab: "tab",
    Key.Key_Backspace: "backspace",
    Key.Key_Delete: "delete",
    Key.Key_Insert: "insert",
    Key.Key_Home: "home",
    Key.Key_End: "end",
    Key.Key_PageUp: "page_up",
    Key.Key_PageDown: "page_down",
    Key.Key_Up: "up",
    Key.Key_Down: "down",
    Key.Key_Left: "left",
    Key.Key_Right: "right",
    Key.Key_Pause: "pause",
    Key.Key_Print: "print_screen",
    Key.Key_ScrollLock: "scroll_lock",
    Key.Key_Menu: "menu",
    **{Key.Key_F1 + n: f"f{n + 1}" for n in range(20)},
}


def combination(key: int, modifiers: Qt.KeyboardModifier) -> str | None:
    """The pynput hotkey for `key` pressed with `modifiers`, or None when the key has no pynput name."""
    if key in NAMED_KEYS:
        last = f"<{NAMED_KEYS[key]}>"
    elif 0x20 < key < 0x110000 and chr(key).isprintable():  # Qt's code for a character key is the character
        last = chr(key).lower()
    else:
        return None
    held = [name for modifier, name in MODIFIERS if modifiers & modifier]
    return "+".join([*held, last])


class KeyCaptureButton(QPushButton):
    """Click, then press the combination: `captured` carries it. Escape or clicking elsewhere cancels."""

    captured = Signal(str)  # the combination pressed, in pynput's syntax

    IDLE_TEXT = "Record…"
    RECORDING_TEXT = "Press the keys… (Esc cancels)"
    recording = False  # a class default: Qt sends events from within __init__

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.IDLE_TEXT, parent)
        self.setToolTip("Press the combination to use as the hotkey; it is written in the field beside")
        self.clicked.connect(self._start)

    def _start(self) -> None:
        self.recording = True
        self.setText(self.RECORDING_TEXT)
        self.setFocus()  # keys come here while recording; clicking elsewhere takes focus and cancels

    def _stop(self) -> None:
        self.recording = False
        self.setText(self.IDLE_TEXT)

    def event(self, event: QEvent) -> bool:
        if self.recording and event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # a shortcut's keys (Alt+O for OK) are recorded, not triggered
            return True
        # Tab and Shift+Tab never reach keyPressEvent (focus moves): take them first while recording.
        if self.recording and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            self.keyPressEvent(event)
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.recording:
            super().keyPressEvent(event)
            return
        event.accept()  # nothing reaches the dialog (Enter would press OK, Esc would close it)
        key = event.key()
        if event.isAutoRepeat() or key in MODIFIER_KEYS:
            return
        if key == Key.Key_Escape and not event.modifiers() & ~Mod.KeypadModifier:
            self._stop()
            return
        pressed = combination(key, event.modifiers())
        if pressed is not None:
            self._stop()
            self.captured.emit(pressed)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        if self.recording:
            self._stop()
        super().focusOutEvent(event)
