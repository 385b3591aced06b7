"""Settings -> General: the hotkey (typed, or recorded with "Record…"), how it works, sound cues, starting at
login, how long toasts show, and the theme. A hotkey pynput cannot parse is refused, the reason on a line under
the field."""

from dataclasses import replace

from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from app.api.settings import UiSettings
from app.ui.hotkey import hotkey_problem
from app.ui.key_capture import KeyCaptureButton
from app.ui.settings.form import check, combo, lay_out, side_by_side, spin
from app.ui.settings.hotkey_field import HotkeyField

MODES = {"hold": "Hold to talk", "toggle": "Press to start, press again to stop"}
THEMES = {"system": "Like the desktop", "light": "Light", "dark": "Dark"}


class GeneralPage(QWidget):
    def __init__(self, ui: UiSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hotkey = HotkeyField(ui.hotkey)
        self.hotkey.setAccessibleName("Hotkey")
        self.record_hotkey = KeyCaptureButton()
        self.record_hotkey.captured.connect(self.hotkey.set_combination)
        # Why the hotkey cannot be saved, under the field and wrapped: beside it, a long reason would squeeze
        # the field and widen the dialog.
        self.hotkey_note = QLabel()
        self.hotkey_note.setObjectName("hotkey_note")
        self.hotkey_note.setWordWrap(True)
        self.hotkey.textEdited.connect(self._clear_note)
        self.record_hotkey.captured.connect(self._clear_note)
        self.hotkey_backend = QLabel()  # read-only: what hears the hotkey here (pynput, the desktop's portal, none)
        self.hotkey_backend.setObjectName("hotkey_backend")
        self.hotkey_backend.setWordWrap(True)
        self.hotkey_backend.hide()
        self.hotkey_mode = combo(MODES, ui.hotkey_mode)
        self.audio_cues = check("Play a short sound when recording starts and stops", ui.audio_cues)
        self.start_at_login = check("Start Murmur when I log in", ui.start_at_login)
        self.toast_seconds = spin(ui, "toast_seconds", " s")
        self.theme = combo(THEMES, ui.theme)
        self.theme.setAccessibleName("Theme")
        lay_out(
            self,
            ("Hotkey", side_by_side((self.hotkey, 1), (self.record_hotkey, 0))),
            ("", self.hotkey_note),
            ("", self.hotkey_backend),
            ("Mode", self.hotkey_mode),
            ("", self.audio_cues),
            ("", self.start_at_login),
            ("Toast shows for", self.toast_seconds),
            ("Theme", self.theme),
        )
        self._show_note("")

    def show_backend(self, words: str) -> None:
        """Say under the hotkey field what hears it ("" before the app listens: nothing is said)."""
        self.hotkey_backend.setText(f"Heard through: {words}")
        self.hotkey_backend.setVisible(bool(words))

    def result(self, ui: UiSettings) -> UiSettings:
        """`ui` as this page sets it."""
        return replace(
            ui,
            hotkey=self.hotkey.combination() or ui.hotkey,
            hotkey_mode=str(self.hotkey_mode.currentData()),
            audio_cues=self.audio_cues.isChecked(),
            start_at_login=self.start_at_login.isChecked(),
            toast_seconds=self.toast_seconds.value(),
            theme=str(self.theme.currentData()),
        )

    def refused(self, ui: UiSettings) -> QWidget | None:
        """The hotkey field when `ui.hotkey` cannot be saved (saved, it would switch push-to-talk off without a
        word), the reason shown under it."""
        problem = hotkey_problem(ui.hotkey)
        if not problem:
            return None
        self._show_note(problem)
        return self.hotkey

    def _clear_note(self) -> None:
        self._show_note("")

    def _show_note(self, text: str) -> None:
        """The hotkey's note, its row taking no room while it has nothing to say."""
        self.hotkey_note.setText(text)
        form = self.layout()
        assert isinstance(form, QFormLayout)
        form.setRowVisible(self.hotkey_note, bool(text))
