"""A button that records a key combination and writes it in pynput's syntax ("<ctrl>+<alt>+<space>").

Qt sees the keys (not pynput), so recording works on every desktop, Wayland included; pynput's parser
still checks the result on Save (`hotkey.hotkey_problem`).
"""

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QPushButton, QWidget

from app.ui.key_names import combination

Key = Qt.Key
Mod = Qt.KeyboardModifier

MODIFIER_KEYS = {Key.Key_Control, Key.Key_Alt, Key.Key_Shift, Key.Key_Meta, Key.Key_AltGr, Key.Key_Super_L}
MODIFIER_KEYS |= {Key.Key_Super_R, Key.Key_Hyper_L, Key.Key_Hyper_R, Key.Key_CapsLock, Key.Key_NumLock}


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
