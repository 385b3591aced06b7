"""The hotkey field of Settings -> General: it shows the combination as the desktop writes keys ("Ctrl+Alt+Space")
and gives it back in pynput's syntax ("<ctrl>+<alt>+<space>"), the one the settings file keeps."""

import re

from PySide6.QtCore import QKeyCombination, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QLineEdit, QWidget

from app.ui.key_capture import MODIFIERS, NAMED_KEYS, combination

NATIVE = QKeySequence.SequenceFormat.NativeText
PART = r"<\w+>|."  # one of pynput's keys: a <name> or a character
COMBINATION = re.compile(rf"(?:(?:{PART})\+)*(?:{PART})")
MODIFIERS_BY_NAME = {name: modifier for modifier, name in MODIFIERS}
# Return and Enter are both pynput's <enter>: the first listed (Return) names it.
KEYS_BY_NAME = {f"<{name}>": Qt.Key(key) for key, name in reversed(NAMED_KEYS.items())}


def native_text(pynput_combination: str) -> str:
    """'<ctrl>+<alt>+<space>' -> 'Ctrl+Alt+Space'; a combination Qt has no words for is shown as it is written."""
    if not COMBINATION.fullmatch(pynput_combination):
        return pynput_combination
    *held, last = re.findall(rf"({PART})(?:\+|$)", pynput_combination)
    if any(name not in MODIFIERS_BY_NAME for name in held):
        return pynput_combination
    modifiers = Qt.KeyboardModifier.NoModifier
    for name in held:
        modifiers |= MODIFIERS_BY_NAME[name]
    key = KEYS_BY_NAME.get(last) or (Qt.Key(ord(last.upper())) if len(last.upper()) == 1 else None)
    if key is None:
        return pynput_combination
    return QKeySequence(QKeyCombination(modifiers, key)).toString(NATIVE)


def pynput_combination(text: str) -> str:
    """'Ctrl+Alt+Space' -> '<ctrl>+<alt>+<space>'. Text already in pynput's syntax, or that names no one key
    combination, is kept as typed: saving then says what is wrong with it."""
    sequence = QKeySequence.fromString(text, NATIVE)
    if "<" in text or sequence.count() != 1:
        return text
    pressed = sequence[0]  # type: ignore[index]  # Qt's operator[], missing from PySide6's stubs
    return combination(pressed.key(), pressed.keyboardModifiers()) or text


class HotkeyField(QLineEdit):
    """Shows a pynput combination in the desktop's words; typed or recorded anew, `combination()` gives it back."""

    def __init__(self, pynput_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(native_text("<ctrl>+<alt>+<space>"))
        self.setToolTip("Keys joined by +, like Ctrl+Alt+Space; or press Record… and the keys")
        self.set_combination(pynput_text)

    def set_combination(self, pynput_text: str) -> None:
        self._shown = pynput_text
        self.setText(native_text(pynput_text))

    def combination(self) -> str:
        """The field's combination in pynput's syntax ("" when empty); the one it was given, as written, while
        its text is unchanged."""
        typed = self.text().strip()
        return self._shown if typed == native_text(self._shown) else pynput_combination(typed)
