"""Key combinations in two spellings: pynput's ("<ctrl>+<alt>+<space>"), the one the settings keep and the
hotkey listens for, and the desktop's ("Ctrl+Alt+Space", Qt's native text), the one people are shown."""

import re
import sys

from PySide6.QtCore import QKeyCombination, Qt
from PySide6.QtGui import QKeySequence

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


NATIVE = QKeySequence.SequenceFormat.NativeText
PART = r"<\w+>|."  # one of pynput's keys: a <name> or a character
COMBINATION = re.compile(rf"(?:(?:{PART})\+)*(?:{PART})")
MODIFIERS_BY_NAME = {name: modifier for modifier, name in MODIFIERS}
# Return and Enter are both pynput's <enter>: the first listed (Return) names it.
KEYS_BY_NAME = {f"<{name}>": Qt.Key(key) for key, name in reversed(NAMED_KEYS.items())}


def native_text(keys: str) -> str:
    """'<ctrl>+<alt>+<space>' -> 'Ctrl+Alt+Space'; a combination Qt has no words for is shown as it is written."""
    if not COMBINATION.fullmatch(keys):
        return keys
    *held, last = re.findall(rf"({PART})(?:\+|$)", keys)
    if any(name not in MODIFIERS_BY_NAME for name in held):
        return keys
    modifiers = Qt.KeyboardModifier.NoModifier
    for name in held:
        modifiers |= MODIFIERS_BY_NAME[name]
    key = KEYS_BY_NAME.get(last) or (Qt.Key(ord(last.upper())) if len(last.upper()) == 1 else None)
    if key is None:
        return keys
    return QKeySequence(QKeyCombination(modifiers, key)).toString(NATIVE)


def pynput_combination(text: str) -> str:
    """'Ctrl+Alt+Space' -> '<ctrl>+<alt>+<space>'. Text already in pynput's syntax, or that names no one key
    combination, is kept as typed: saving then says what is wrong with it."""
    sequence = QKeySequence.fromString(text, NATIVE)
    if "<" in text or sequence.count() != 1:
        return text
    pressed = sequence[0]  # type: ignore[index]  # Qt's operator[], missing from PySide6's stubs
    return combination(pressed.key(), pressed.keyboardModifiers()) or text
