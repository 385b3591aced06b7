"""Settings -> Speech: the engine, the microphone (listed off the GUI thread once the page is first shown) with a
live level meter, the language, and the Whisper and the Vosk model, each with its panel of installed and
downloadable models.

While the page is shown, the meter shows the chosen microphone's level (see `mic_level`); hidden, the
microphone is closed.
"""

from dataclasses import replace

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QComboBox, QLabel, QProgressBar, QWidget

from app.api.listening import AudioDevice, list_input_devices
from app.api.settings import SpeechSettings
from app.api.speech_models import ModelManager, WhisperModelManager
from app.ui.activity import SILENCE_DBFS
from app.ui.background import run_in_thread
from app.ui.mic_level import MicrophoneLevel
from app.ui.settings.device_names import device_label, shown_devices
from app.ui.settings.form import combo, lay_out, side_by_side, text_field
from app.ui.settings.models_panel import WHISPER_WORDS, ModelsPanel
from app.ui.worker import Call, Failed, JobOutcome

ENGINES = ("auto", "vosk", "pocketsphinx")
SYSTEM_DEFAULT = "System default"


class SpeechPage(QWidget):
    devices_listed = Signal()  # the microphones (or why there are none) are shown

    def __init__(self, speech: SpeechSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.engine = combo({e: e for e in ENGINES}, speech.engine)
        self.model = text_field(speech.model, "the best installed model")
        self.device = QComboBox()
        self.device.setAccessibleName("Microphone")
        self.device.addItem(SYSTEM_DEFAULT, "")
        self._keep_device(speech.device)
        self.device_note = QLabel("Looking for microphones…")
        self.device_note.setWordWrap(True)
        self._make_meter()
        self.device.currentIndexChanged.connect(self._follow_device)
        self.models = ModelsPanel(ModelManager.from_settings(speech), speech.language, speech.model)
        self.models.chosen.connect(self._on_model_chosen)
        self.models.removed.connect(self._on_model_removed)
        self.whisper_model = text_field(speech.whisper_model, "the best installed model")
        whisper = WhisperModelManager.from_settings(speech)
        self.whisper_models = ModelsPanel(whisper, speech.language, speech.whisper_model, WHISPER_WORDS)
        self.whisper_models.chosen.connect(self.whisper_model.setText)
        self.whisper_models.removed.connect(self._on_whisper_model_removed)
        self.language = text_field(speech.language)
        lay_out(
            self,
            ("Engine", self.engine),
            ("Microphone", self.device),
            ("", self.device_note),
            ("Level", side_by_side((self.level, 1), (self.level_note, 2))),
            ("Language", self.language),
            ("Whisper model", self.whisper_model),
            ("", self.whisper_models),
            ("Vosk model", self.model),
            ("", self.models),
        )
        self._devices_asked = False

    def _make_meter(self) -> None:
        self.level = QProgressBar()
        self.level.setObjectName("level")
        self.level.setAccessibleName("Microphone level")
        self.level.setTextVisible(False)
        self.level.setRange(SILENCE_DBFS, 0)
        self.level.setValue(SILENCE_DBFS)
        self.level_note = QLabel()  # one line: why the level cannot be shown
        self.level_note.setObjectName("level_note")
        self.microphone_level = MicrophoneLevel(self)
        self.microphone_level.level_measured.connect(self._show_level)
        self.microphone_level.failed.connect(self._show_level_error)

    def result(self, speech: SpeechSettings) -> SpeechSettings:
        """`speech` with the engine, models, microphone and language this page sets."""
        return replace(
            speech,
            engine=str(self.engine.currentData()),
            model=self.model.text().strip(),
            whisper_model=self.whisper_model.text().strip(),
            device=str(self.device.currentData()),
            language=self.language.text().strip() or speech.language,
        )

    # -- microphones and models ---------------------------------------------------------------

    def _keep_device(self, name: str) -> None:
        """Select `name`, listing it even when it is not plugged in (the setting stays as it was)."""
        if name and self.device.findData(name) < 0:
            self.device.addItem(f"{name} (not found)", name)
        self.device.setCurrentIndex(max(0, self.device.findData(name)))

    def _on_devices_listed(self, outcome: JobOutcome[list[AudioDevice]]) -> None:
        current = str(self.device.currentData())
        if isinstance(outcome, Failed):
            self.device_note.setText(outcome.error)
        else:
            devices = outcome.result
            with QSignalBlocker(self.device):  # the same choice, listed anew: the meter goes on
                self.device.clear()
                self.device.addItem(SYSTEM_DEFAULT, "")
                for device in shown_devices(devices, current):
                    self.device.addItem(device_label(device), device.name)
                self._keep_device(current)
            self.device_note.setText("" if devices else "No microphone found: the system has no audio input device.")
        self.devices_listed.emit()

    def _on_model_chosen(self, name: str) -> None:
        self.model.setText(name)
        if self.engine.currentData() == "pocketsphinx":
            self.engine.setCurrentIndex(self.engine.findData("auto"))

    def _on_model_removed(self, name: str) -> None:
        if self.model.text().strip() == name:
            self.model.clear()

    def _on_whisper_model_removed(self, name: str) -> None:
        if self.whisper_model.text().strip() == name:
            self.whisper_model.clear()

    # -- the level meter: on while the page is shown --------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._devices_asked:  # PortAudio's look at every sound card takes a core for a while: not on open
            self._devices_asked = True
            run_in_thread(Call("devices", list_input_devices), self, self._on_devices_listed)
        self._start_meter()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.stop_meter()

    def _start_meter(self) -> None:
        device = str(self.device.currentData() or "")
        if self.microphone_level.device != device:
            self.level.setValue(SILENCE_DBFS)
            self.level_note.setText("")
        self.microphone_level.start(device)

    def stop_meter(self) -> None:
        self.microphone_level.stop()
        self.level.setValue(SILENCE_DBFS)

    def _follow_device(self) -> None:
        if self.isVisible():
            self._start_meter()

    def _show_level(self, dbfs: float) -> None:
        self.level.setValue(round(max(SILENCE_DBFS, min(0.0, dbfs))))

    def _show_level_error(self, reason: str) -> None:
        self.level.setValue(SILENCE_DBFS)
        self.level_note.setText(reason)
