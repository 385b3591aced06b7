"""The hotkey field of Settings -> General: it shows the combination as the desktop writes keys ("Ctrl+Alt+Space")
and gives it back in pynput's syntax ("<ctrl>+<alt>+<space>"), the one the settings file keeps."""

from PySide6.QtWidgets import QLineEdit, QWidget

from app.ui.key_names import native_text, pynput_combination


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
