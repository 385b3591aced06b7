"""The settings dialog: general (hotkey, mode, cues, login), speech (engine, microphone, Vosk models),
LLM (key in the keyring, test connection), privacy.

It edits a copy of `Settings`; the caller saves what `result_settings()` returns, once OK found the
hotkey valid (pynput's parser; "Record…" writes a pressed combination in its syntax). The API key goes
straight to the keyring (never into the settings file); a keyring problem is shown, not raised.
Listing microphones, testing the connection and downloading models run off the GUI thread.
While the speech page is shown, a meter shows the chosen microphone's level (see `mic_level`).
"""

import re
from dataclasses import fields, replace

from PySide6.QtCore import QEvent, QObject, QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app import secrets
from app.agent.connection import test_connection
from app.agent.provider import PRESETS
from app.config import LlmSettings, Settings, SpeechSettings, UiSettings, url_problem
from app.errors import MurmurError
from app.speech_in.capture import AudioDevice, list_input_devices
from app.speech_in.models import ModelManager
from app.speech_out.speaker import Speaker
from app.speech_out.voices import PiperVoices
from app.store import Store
from app.ui.activity import SILENCE_DBFS
from app.ui.background import run_in_thread
from app.ui.hotkey import hotkey_problem
from app.ui.key_capture import KeyCaptureButton
from app.ui.mic_level import MicrophoneLevel
from app.ui.models_panel import ModelsPanel, ShelfWords
from app.ui.sync_page import SyncPage
from app.ui.worker import Call, Failed, JobOutcome

ENGINES = ("auto", "vosk", "pocketsphinx")
MODES = {"hold": "Hold to talk", "toggle": "Press to start, press again to stop"}
THEMES = {"system": "Like the desktop", "light": "Light", "dark": "Dark"}
NONE = "none"
CUSTOM = "custom"
SYSTEM_DEFAULT = "System default"
NO_SERVER_NEEDED = "The built-in rules run on this computer: they need no server, so there is nothing to test."
# The connection test's messages name settings keys (they serve `murmur config test` too): here, the fields.
FIELD_WORDS = (
    ("set llm.preset or llm.base_url,", "choose a Provider or fill in the Server address,"),
    ("use --model, MURMUR_LLM_MODEL or `murmur config set llm.model NAME`", "fill in the Model field"),
    ("`murmur config set-key`", "check the API key field"),
    ("the LLM base URL", "the Server address"),
)
FIELD_LABELS = {"preset": "Provider", "base_url": "Server address", "model": "Model", "api_key": "API key"}
# ALSA's plugins, as PortAudio lists them next to the cards: the same microphones again, or none.
ALSA_PLUGINS = {"default", "sysdefault", "dmix", "dsnoop", "front", "rear", "center_lfe", "side", "iec958", "spdif"}
ALSA_PLUGINS |= {"hdmi", "surround21", "surround40", "surround41", "surround50", "surround51", "surround71"}
ALSA_PLUGINS |= {"hw", "plughw", "usbstream", "lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix"}
ALSA_PLUGINS |= {"jack", "oss", "null"}
ALSA_DESCRIPTIONS = {"pulse": "PulseAudio sound server", "pipewire": "PipeWire sound server"}
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


def _combo(items: dict[str, str], current: str) -> QComboBox:
    combo = QComboBox()
    for value, label in items.items():
        combo.addItem(label, value)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


def _spin(
    section: LlmSettings | SpeechSettings | UiSettings, name: str, suffix: str, decimals: int = 0, percent: bool = False
) -> QDoubleSpinBox:
    """A spin box for the numeric setting `name` of `section`, within the range the settings file allows;
    `percent`: a fraction (1.0) shown as a percentage (100 %)."""
    spin = QDoubleSpinBox()
    spin.setDecimals(decimals)  # before the value, which it rounds
    scale = 100 if percent else 1
    low, high = next(f.metadata["range"] for f in fields(type(section)) if f.name == name)
    spin.setRange(low * scale, high * scale)
    spin.setValue(getattr(section, name) * scale)
    spin.setSuffix(suffix)
    return spin


def _check(text: str, checked: bool) -> QCheckBox:
    box = QCheckBox(text)
    box.setChecked(checked)
    return box


def _line(text: str, placeholder: str = "") -> QLineEdit:
    line = QLineEdit(text)
    line.setPlaceholderText(placeholder)
    return line


def _alsa_name(device: AudioDevice) -> str:
    return device.name.partition(":")[0].lower() if device.host_api == "ALSA" else ""


def shown_devices(devices: list[AudioDevice], chosen: str) -> list[AudioDevice]:
    """The microphones worth listing: ALSA's plugins are hidden unless chosen or nothing else is there."""
    shown = [d for d in devices if _alsa_name(d) not in ALSA_PLUGINS or d.name == chosen]
    return shown if any(d.name != chosen for d in shown) else devices


def device_label(device: AudioDevice) -> str:
    """The friendliest name PortAudio gives (it has no descriptions; ALSA's card names say enough)."""
    name = ALSA_DESCRIPTIONS.get(_alsa_name(device)) or device.name
    host = "" if device.host_api == "ALSA" else f" ({device.host_api})"
    return name + host + (", the default" if device.is_default else "")


def in_field_words(line: str) -> str:
    """The connection test's `line`, naming the dialog's fields instead of settings keys."""
    for key_words, field_words in FIELD_WORDS:
        line = line.replace(key_words, field_words)
    line = re.sub(r" \(llm\.\w+\)", "", line)  # a setting with no field here ("llm.first_token_seconds")
    return re.sub(r"llm\.(\w+)", lambda m: f"the {FIELD_LABELS.get(m[1], m[1])} field", line)


class SettingsDialog(QDialog):
    devices_listed = Signal()  # the microphones (or why there are none) are shown
    connection_tested = Signal(str)  # the one line the connection test ended with, as shown
    voice_tried = Signal(str)  # what trying the voice ended with, as shown

    def __init__(
        self, settings: Settings, parent: QWidget | None = None, store: Store | None = None, sync_status: str = ""
    ) -> None:
        super().__init__(parent)
        self._store = store
        self.setWindowTitle("Murmur settings")
        self.settings = settings
        ui, speech, llm, privacy = settings.ui, settings.speech, settings.llm, settings.privacy

        self.hotkey = _line(ui.hotkey, "<ctrl>+<alt>+<space>")
        self.hotkey.setAccessibleName("Hotkey")
        self.hotkey.setToolTip("pynput's syntax: keys joined by +, special keys in <>, e.g. <ctrl>+<alt>+<space>")
        self.record_hotkey = KeyCaptureButton()
        self.record_hotkey.captured.connect(self.hotkey.setText)
        self.hotkey_note = QLabel()  # one line: why the hotkey cannot be saved
        self.hotkey_note.setObjectName("hotkey_note")
        self.hotkey.textEdited.connect(self.hotkey_note.clear)
        self.record_hotkey.captured.connect(self.hotkey_note.clear)
        self.hotkey_mode = _combo(MODES, ui.hotkey_mode)
        self.audio_cues = _check("Play a short sound when recording starts and stops", ui.audio_cues)
        self.start_at_login = _check("Start Murmur when I log in", ui.start_at_login)
        self.toast_seconds = _spin(ui, "toast_seconds", " s")
        self.theme = _combo(THEMES, ui.theme)
        self.theme.setAccessibleName("Theme")

        self.engine = _combo({e: e for e in ENGINES}, speech.engine)
        self.model = _line(speech.model, "the best installed model")
        self.device = QComboBox()
        self.device.setAccessibleName("Microphone")
        self.device.addItem(SYSTEM_DEFAULT, "")
        self._keep_device(speech.device)
        self.device_note = QLabel("Looking for microphones…")
        self.device_note.setWordWrap(True)
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
        self.device.currentIndexChanged.connect(self._follow_device)
        self.models = ModelsPanel(ModelManager.from_settings(speech), speech.language, speech.model)
        self.models.chosen.connect(self._on_model_chosen)
        self.models.removed.connect(self._on_model_removed)
        self.language = _line(speech.language)

        self.reply = _combo(REPLY_MODES, speech.reply)
        self.reply.setAccessibleName("Reply aloud")
        self.voice = _line(speech.voice, "the best installed: a Piper voice, else espeak-ng")
        self.voice.setToolTip("A Piper voice's name (`murmur voices list`), a .onnx file, or espeak-ng[:VOICE]")
        self.rate = _spin(speech, "rate", " %", percent=True)
        self.rate.setAccessibleName("Speed")
        self.volume = _spin(speech, "volume", " %", percent=True)
        self.volume.setAccessibleName("Volume")
        self.output_device = _line(speech.output_device, "the system default")
        self.output_device.setToolTip("An output device's name or number (`murmur devices --output`)")
        self.followup = _spin(speech, "followup_seconds", " s")
        self.followup.setSpecialValueText("Never")  # shown at 0
        self.followup_after = _combo(FOLLOW_UP_AFTER, speech.followup_after)
        self.try_voice = QPushButton("Try the voice")
        self.try_voice.clicked.connect(self._try_voice)
        self.voice_note = QLabel()
        self.voice_note.setObjectName("voice_note")
        self.voice_note.setWordWrap(True)
        self.voices = ModelsPanel(PiperVoices.from_settings(speech), speech.language, speech.voice, VOICE_WORDS)
        self.voices.chosen.connect(self.voice.setText)
        self.voices.removed.connect(self._on_voice_removed)

        self.preset = _combo(
            {NONE: "None: built-in rules", CUSTOM: "Custom server"} | {p.name: p.label for p in PRESETS.values()},
            self._provider_choice(llm),
        )
        self.preset.setToolTip("None: the built-in rules read what you say, on this computer; OK forgets a stored key")
        self.base_url = _line(llm.base_url, "the preset's address")
        self.llm_model = _line(llm.model, "the preset's default model")
        self.api_key = _line("", "unchanged" if self._has_key() else "none")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.follow_up = _spin(llm, "follow_up_seconds", " s")
        self.tool_protocol = _combo(
            {
                "auto": "Automatic (native, else in the prompt)",
                "native": "The server's function calling",
                "text": "In the prompt (for models without function calling)",
            },
            llm.tool_protocol,
        )
        self.fallback = _combo(
            {"offline": "The built-in rules file it, saying so", "inbox": "It waits in the Inbox"}, llm.fallback
        )
        self.budget = _spin(llm, "monthly_budget", " USD a month", decimals=2)  # money: cents
        self.budget.setSpecialValueText("No budget")  # shown at 0
        self.keyring_note = QLabel(secrets.keyring_problem() or "")
        self.keyring_note.setWordWrap(True)
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.test_connection)
        self.connection_note = QLabel()
        self.connection_note.setObjectName("connection")
        self.connection_note.setWordWrap(True)

        self.redact = _check(
            "Mask card numbers, IBANs, keys and passwords before text leaves this computer", privacy.redact
        )
        self.redact.setToolTip(
            "The language model then sees placeholders such as [card number] instead; the built-in rules "
            "never send anything"
        )
        self.keep_unredacted = _check(
            "Put the masked details back into the entries saved on this computer", privacy.keep_unredacted
        )
        self.keep_unredacted.setToolTip(
            "Unchecked, entries the model writes keep placeholders such as [card number]. What you said is "
            "kept whole in the local database either way; the model never sees the originals"
        )
        self.redact.toggled.connect(self.keep_unredacted.setEnabled)  # nothing is masked: nothing to put back
        self.keep_unredacted.setEnabled(privacy.redact)

        meter = QWidget()
        meter_row = QHBoxLayout(meter)
        meter_row.setContentsMargins(0, 0, 0, 0)
        meter_row.addWidget(self.level, 1)
        meter_row.addWidget(self.level_note, 2)
        hotkey_row = QWidget()
        hotkey_line = QHBoxLayout(hotkey_row)
        hotkey_line.setContentsMargins(0, 0, 0, 0)
        hotkey_line.addWidget(self.hotkey, 1)
        hotkey_line.addWidget(self.record_hotkey)
        hotkey_line.addWidget(self.hotkey_note, 1)
        tabs = self.tabs = QTabWidget()
        tabs.addTab(
            self._page(
                ("Hotkey", hotkey_row),
                ("Mode", self.hotkey_mode),
                ("", self.audio_cues),
                ("", self.start_at_login),
                ("Toast shows for", self.toast_seconds),
                ("Theme", self.theme),
            ),
            "General",
        )
        self.speech_page = self._page(
            ("Engine", self.engine),
            ("Microphone", self.device),
            ("", self.device_note),
            ("Level", meter),
            ("Language", self.language),
            ("Vosk model", self.model),
            ("", self.models),
        )
        self.speech_page.installEventFilter(self)
        tabs.addTab(self.speech_page, "Speech")
        tabs.addTab(
            self._page(
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
            ),
            "Voice",
        )
        tabs.addTab(
            self._page(
                ("Provider", self.preset),
                ("Server address", self.base_url),
                ("Model", self.llm_model),
                ("API key", self.api_key),
                ("", self.keyring_note),
                ("", self.test_button),
                ("", self.connection_note),
                ("Tool calls", self.tool_protocol),
                ("When the model fails", self.fallback),
                ("Follow-up window", self.follow_up),
                ("Budget", self.budget),
            ),
            "Language model",
        )
        tabs.addTab(self._page(("", self.redact), ("", self.keep_unredacted)), "Privacy")
        self.sync_page = SyncPage(settings.sync, sync_status)
        tabs.addTab(self.sync_page, "Sync")
        self.error = QLabel()
        self.error.setObjectName("status")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._on_accepted)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.preset.currentIndexChanged.connect(self._follow_provider)
        self._follow_provider()
        run_in_thread(Call("devices", list_input_devices), self, self._on_devices_listed)

    @staticmethod
    def _page(*rows: tuple[str, QWidget]) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        for label, widget in rows:
            form.addRow(label, widget)
        return page

    @staticmethod
    def _has_key() -> bool:
        try:
            return bool(secrets.get_api_key())
        except MurmurError:
            return False

    def _provider_choice(self, llm: LlmSettings) -> str:
        """The provider as configured; "None" only when nothing would reach a server (a stored key alone
        means OpenAI)."""
        if llm.preset:
            return llm.preset
        return CUSTOM if llm.base_url or llm.model or self._has_key() else NONE

    def _follow_provider(self) -> None:
        """The built-in rules use no server: its fields are greyed out."""
        server = self.preset.currentData() != NONE
        for widget in (self.base_url, self.llm_model, self.api_key, self.tool_protocol, self.fallback):
            widget.setEnabled(server)
        self.follow_up.setEnabled(server)
        self.budget.setEnabled(server)
        self.connection_note.clear()

    def result_settings(self) -> Settings:
        s = self.settings
        preset = str(self.preset.currentData())
        server = preset != NONE
        return replace(
            s,
            ui=replace(
                s.ui,
                hotkey=self.hotkey.text().strip() or s.ui.hotkey,
                hotkey_mode=str(self.hotkey_mode.currentData()),
                audio_cues=self.audio_cues.isChecked(),
                start_at_login=self.start_at_login.isChecked(),
                toast_seconds=self.toast_seconds.value(),
                theme=str(self.theme.currentData()),
            ),
            speech=replace(
                s.speech,
                engine=str(self.engine.currentData()),
                model=self.model.text().strip(),
                device=str(self.device.currentData()),
                language=self.language.text().strip() or s.speech.language,
                reply=str(self.reply.currentData()),
                voice=self.voice.text().strip(),
                rate=self.rate.value() / 100,
                volume=self.volume.value() / 100,
                output_device=self.output_device.text().strip(),
                followup_seconds=self.followup.value(),
                followup_after=str(self.followup_after.currentData()),
            ),
            llm=replace(
                s.llm,
                preset="" if preset in (NONE, CUSTOM) else preset,
                base_url=self.base_url.text().strip() if server else "",
                model=self.llm_model.text().strip() if server else "",
                follow_up_seconds=self.follow_up.value(),
                monthly_budget=self.budget.value(),
                tool_protocol=str(self.tool_protocol.currentData()),
                fallback=str(self.fallback.currentData()),
            ),
            privacy=replace(
                s.privacy, redact=self.redact.isChecked(), keep_unredacted=self.keep_unredacted.isChecked()
            ),
            sync=self.sync_page.result(),
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

    # -- the level meter: on while the speech page is shown ------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.speech_page:
            if event.type() == QEvent.Type.Show:
                self._start_meter()
            elif event.type() == QEvent.Type.Hide:
                self._stop_meter()
        return super().eventFilter(watched, event)

    def _start_meter(self) -> None:
        device = str(self.device.currentData() or "")
        if self.microphone_level.device != device:
            self.level.setValue(SILENCE_DBFS)
            self.level_note.setText("")
        self.microphone_level.start(device)

    def _stop_meter(self) -> None:
        self.microphone_level.stop()
        self.level.setValue(SILENCE_DBFS)

    def _follow_device(self) -> None:
        if self.speech_page.isVisible():
            self._start_meter()

    def _show_level(self, dbfs: float) -> None:
        self.level.setValue(round(max(SILENCE_DBFS, min(0.0, dbfs))))

    def _show_level_error(self, line: str) -> None:
        self.level.setValue(SILENCE_DBFS)
        self.level_note.setText(line)

    def done(self, result: int) -> None:
        self._stop_meter()
        super().done(result)

    def _on_model_chosen(self, name: str) -> None:
        self.model.setText(name)
        if self.engine.currentData() == "pocketsphinx":
            self.engine.setCurrentIndex(self.engine.findData("auto"))

    def _on_model_removed(self, name: str) -> None:
        if self.model.text().strip() == name:
            self.model.clear()

    # -- the voice --------------------------------------------------------------------------------

    def _try_voice(self) -> None:
        """Say a sample reply with the voice, speed, volume and speaker as set in the form (not yet saved)."""
        speech = self.result_settings().speech
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

    # -- the language model -------------------------------------------------------------------

    def test_connection(self) -> None:
        """Ask the server (as set in the form, not yet saved) for its models, then try the model with one tool
        call (app/agent/probe.py), off the GUI thread."""
        if self.preset.currentData() == NONE:
            self.connection_note.setText(NO_SERVER_NEEDED)
            self.connection_tested.emit(NO_SERVER_NEEDED)
            return
        llm = self.result_settings().llm
        key = self.api_key.text().strip() or None
        self.test_button.setEnabled(False)
        self.connection_note.setText("Connecting, then trying the model with one tool call…")
        store = self._store  # what the test finds of the model is remembered there
        run_in_thread(
            Call("test-connection", lambda: test_connection(llm, key, store=store).text),
            self,
            self._on_connection_tested,
        )

    def _on_connection_tested(self, outcome: JobOutcome[str]) -> None:
        self.test_button.setEnabled(True)
        line = in_field_words(outcome.error if isinstance(outcome, Failed) else outcome.result)
        self.connection_note.setText(line)
        self.connection_tested.emit(line)

    def _tab_named(self, title: str) -> int:
        return next(index for index in range(self.tabs.count()) if self.tabs.tabText(index) == title)

    def _on_accepted(self) -> None:
        """Check the hotkey, store a newly typed API key (or forget it for the built-in rules); stay open
        with the reason when the hotkey is invalid or the keyring refuses."""
        problem = hotkey_problem(self.result_settings().ui.hotkey)
        if problem:  # saved, it would switch push-to-talk off without a word
            self.hotkey_note.setText(problem)
            self.tabs.setCurrentIndex(0)
            self.hotkey.setFocus()
            return
        address = self.result_settings().llm.base_url
        if address and (wrong := url_problem(address)):  # saved, every utterance would go to the rules
            self.connection_note.setText(f"The server address {wrong}.")
            self.tabs.setCurrentIndex(self._tab_named("Language model"))
            self.base_url.setFocus()
            return
        key = self.api_key.text().strip()
        try:
            if self.preset.currentData() == NONE:
                secrets.delete_api_key()  # a stored key alone would still reach OpenAI
            elif key:
                secrets.set_api_key(key)
            self.sync_page.save_password()
        except MurmurError as error:
            self.error.setText(str(error))
            return
        self.accept()
