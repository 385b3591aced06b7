"""Settings -> Voice: when replies are spoken, by which voice, how fast, how loud and on which speaker, "Try the
voice" (off the GUI thread, with the form's settings, not yet saved), the Piper voices to download, and how
long Murmur listens for the answer."""

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from app.api.settings import SpeechSettings
from app.api.speaking import PiperVoices, Speaker
from app.ui.background import run_in_thread
from app.ui.settings.form import combo, lay_out, spin, text_field
from app.ui.settings.models_panel import ModelsPanel, ShelfWords
from app.ui.worker import Call, Failed, JobOutcome

REPLY_MODES = {"off": "Never", "questions": "Questions and answers", "always": "Always, changes too"}
FOLLOW_UP_AFTER = {"questions": "A spoken question", "replies": "Any spoken reply"}
SAMPLE_REPLY = "Which milk, the oat milk or the regular one?"
VOICE_WORDS = ShelfWords(
    name="Piper voices",
    detail="Quality",
    none_installed="No Piper voice installed: espeak-ng speaks (robotic); download a natural-sounding voice.",
    listed="{count} voices for {language!r}; medium quality is natural and quick.",
    installed="Installed {name}; choose Use to speak with it.",
)


def try_voice(speech: SpeechSettings) -> str:
    """Say the sample reply; the line to show (a VoiceError, one line, when it cannot be said)."""
    speaker = Speaker(speech)
    played = speaker.say(SAMPLE_REPLY)
    return f"{speaker.voice().name}: {played.seconds:.1f} s of speech"


class VoicePage(QWidget):
    voice_tried = Signal(str)  # what trying the voice ended with, as shown

    def __init__(
        self, speech: SpeechSettings, form_speech: Callable[[], SpeechSettings], parent: QWidget | None = None
    ) -> None:
        """`form_speech`: the speech settings as the whole form sets them (the language is on another page)."""
        super().__init__(parent)
        self._form_speech = form_speech
        self.reply = combo(REPLY_MODES, speech.reply)
        self.reply.setAccessibleName("Reply aloud")
        self.voice = text_field(speech.voice, "the best installed: a Piper voice, else espeak-ng")
        self.voice.setToolTip("A Piper voice's name (the Piper voices below), a .onnx file, or espeak-ng[:VOICE]")
        self.rate = spin(speech, "rate", " %", percent=True)
        self.rate.setAccessibleName("Speed")
        self.volume = spin(speech, "volume", " %", percent=True)
        self.volume.setAccessibleName("Volume")
        self.output_device = text_field(speech.output_device, "the system default")
        self.output_device.setToolTip("An output device's name or number, as the system lists it")
        self.followup = spin(speech, "followup_seconds", " s")
        self.followup.setSpecialValueText("Never")  # shown at 0
        self.followup_after = combo(FOLLOW_UP_AFTER, speech.followup_after)
        self.try_voice = QPushButton("Try the voice")
        self.try_voice.clicked.connect(self._try_voice)
        self.voice_note = QLabel()
        self.voice_note.setObjectName("voice_note")
        self.voice_note.setWordWrap(True)
        self.voices = ModelsPanel(PiperVoices.from_settings(speech), speech.language, speech.voice, VOICE_WORDS)
        self.voices.chosen.connect(self.voice.setText)
        self.voices.removed.connect(self._on_voice_removed)
        lay_out(
            self,
            ("Reply aloud", self.reply),
            ("Voice", self.voice),
            ("Speed", self.rate),
            ("Volume", self.volume),
            ("Speaker", self.output_device),
            ("", self.try_voice),
            ("", self.voice_note),
            ("Piper voices", self.voices),
            ("Listen for the answer", self.followup),
            ("Listen after", self.followup_after),
        )

    def result(self, speech: SpeechSettings) -> SpeechSettings:
        """`speech` with the spoken replies as this page sets them."""
        return replace(
            speech,
            reply=str(self.reply.currentData()),
            voice=self.voice.text().strip(),
            rate=self.rate.value() / 100,
            volume=self.volume.value() / 100,
            output_device=self.output_device.text().strip(),
            followup_seconds=self.followup.value(),
            followup_after=str(self.followup_after.currentData()),
        )

    def _try_voice(self) -> None:
        """Say a sample reply with the voice, speed, volume and speaker as set in the form (not yet saved)."""
        speech = self._form_speech()
        self.try_voice.setEnabled(False)
        self.voice_note.setText("Speaking…")
        run_in_thread(Call("try-voice", lambda: try_voice(speech)), self, self._on_voice_tried)

    def _on_voice_removed(self, name: str) -> None:
        if self.voice.text().strip() == name:
            self.voice.clear()

    def _on_voice_tried(self, outcome: JobOutcome[str]) -> None:
        self.try_voice.setEnabled(True)
        self.voice_note.setText(outcome.error if isinstance(outcome, Failed) else outcome.result)
        self.voice_tried.emit(self.voice_note.text())
