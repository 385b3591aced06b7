"""What the first start finds missing, said once at the top of the window: no microphone, no system tray,
no speech engine for the language, or only the built-in one (rough on real voices). Gathering the facts is plain
Python (`SetupCheck`, run off the GUI thread: listing microphones starts PortAudio); `SetupNotes` shows the lines
with a close button."""

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from app.api.desktop import NO_TRAY as TRAY_ADVICE
from app.api.listening import bundled_hint, choose_engine, list_input_devices
from app.api.settings import SpeechSettings
from app.errors import Command, SpeechError
from app.ui.plain_text import plain_label
from app.ui.remedies import remedy_words, window_line

NO_MICROPHONE = "No microphone found: typing works; plug one in and pick it in Settings → Speech."
NO_TRAY = f"No system tray here: {remedy_words(TRAY_ADVICE)}."


@dataclass(frozen=True)
class SetupFacts:
    microphones: int
    microphone_problem: str | None  # why the microphones could not be listed
    tray: bool
    speech_problem: str | None  # why no speech engine fits the settings
    bundled: Command | None = None  # how to get Whisper, while the built-in engine is all dictation uses


def bundled_line(hint: Command) -> str:
    """ "The built-in engine is rough on real voices: Settings → Speech downloads Whisper (…), …." """
    words = remedy_words(hint)
    return f"{words[:1].upper()}{words[1:]}."


def missing_parts(facts: SetupFacts) -> list[str]:
    """One friendly line for each thing missing, nothing when all is there."""
    lines = []
    if facts.microphone_problem:
        lines.append(f"The microphone can't be used: {facts.microphone_problem}. Typing works.")
    elif facts.microphones == 0:
        lines.append(NO_MICROPHONE)
    if not facts.tray:
        lines.append(NO_TRAY)
    if facts.speech_problem:
        lines.append(f"Speech can't start: {facts.speech_problem}.")
    elif facts.bundled is not None:
        lines.append(bundled_line(facts.bundled))
    return lines


@dataclass(frozen=True)
class SetupCheck:
    """Look for the microphones and the speech engine (the tray's presence is a fact the GUI knows)."""

    speech: SpeechSettings
    tray: bool

    def run(self) -> list[str]:
        microphones, microphone_problem, speech_problem = 0, None, None
        try:
            microphones = len(list_input_devices())
        except SpeechError as error:
            microphone_problem = window_line(error)
        try:
            choose_engine(self.speech)
        except SpeechError as error:
            speech_problem = window_line(error)
        facts = SetupFacts(microphones, microphone_problem, self.tray, speech_problem, bundled_hint(self.speech))
        return missing_parts(facts)


class SetupNotes(QFrame):
    """A calm banner of what is missing; closed, it stays closed until the next start."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("setupNotes")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = plain_label(QLabel())
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setAccessibleName("Close the setup notes")
        self.close_button.setToolTip("Close")
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_lines(self, lines: list[str]) -> None:
        self.text.setText("\n".join(lines))
        self.setVisible(bool(lines))
