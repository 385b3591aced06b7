"""The first-run offer of better speech models in the desktop app: a small non-modal dialog, shown once the window
is up and never in the middle of a dictation. The policy (when to offer, what, accepting, declining) is
`app.speech_in.model_offer`; this is its face.

"Install" downloads off the GUI thread (the way Settings → Speech downloads a model: `run_in_thread` and a
progress signal) with a progress bar in the dialog, then the app saves and applies the settings that use the
models, so the next dictation uses them. "Not now", or closing its window, puts the offer off (not at the next
start; after a month, or for another language); "Don't ask again" declines for good. All the words are plain text.

The natural voice offered beside the models is a box of its own, ticked: installed, it speaks the next reply;
unticked, it is not fetched and espeak-ng goes on speaking.
"""

import logging
from collections.abc import Sequence
from functools import partial
from typing import Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.api.offers import ModelOffer, first_run_offer, install, put_off_for_now, using, without_offer
from app.api.settings import Settings, SpeechSettings
from app.api.speech_models import DownloadError, InstalledModel
from app.errors import ModelError, MurmurError
from app.presentation.downloads import unreachable_words
from app.ui.background import run_in_thread
from app.ui.microphone import VoiceInput
from app.ui.worker import Call, Failed, JobOutcome

log = logging.getLogger("murmur.ui.models")

TITLE = "Better speech recognition"
INTRO = (
    "Murmur is using its built-in speech engine, which is rough on real voices. Free, and chosen to suit this computer:"
)
LATER = "Later on, Settings → Speech downloads speech models, these among them."


def _label(text: str, name: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


class ModelOfferDialog(QDialog):
    installed = Signal(object)  # the models are installed: a list of InstalledModel, for the app to use
    install_failed = Signal(str)  # the one line shown
    declined = Signal()  # "Don't ask again"
    put_off = Signal()  # "Not now", Escape, or the window closed by the user
    download_progressed = Signal(int, int)  # bytes done, bytes in all (0: unknown) (any thread)

    def __init__(self, offer: ModelOffer, speech: SpeechSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.offer, self.speech = offer, speech
        self.offered = offer  # with its voice: `offer` loses it while the voice's box is unticked
        self._closed_by_app = False
        self.setWindowTitle(TITLE)
        self.setModal(False)
        self.setMinimumWidth(520)
        heading = _label(TITLE, "heading")
        font = QFont(heading.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        heading.setFont(font)
        self.model_labels = [_label(line, "model") for line in offer.model_lines()]
        models = QGridLayout()  # a bullet column: a line that wraps stays indented under its text
        models.setColumnStretch(1, 1)
        models.setHorizontalSpacing(8)
        for row, label in enumerate(self.model_labels):
            models.addWidget(_label("•", "bullet"), row, 0, Qt.AlignmentFlag.AlignTop)
            models.addWidget(label, row, 1)
        self.voice_box = QCheckBox(offer.voice_line())  # a separate choice: unticked, espeak-ng speaks the replies
        self.voice_box.setObjectName("voice")
        self.voice_box.setChecked(True)
        self.voice_box.setVisible(offer.voice is not None)
        self.voice_box.toggled.connect(self._on_voice_toggled)
        self.accuracy = _label(offer.accuracy, "accuracy")
        self.later = _label(LATER, "later")
        self.later.setEnabled(False)  # greyed: a side note
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Download")
        self.progress.setVisible(False)
        self.note = _label("", "note")  # what the download is doing, or the one line it failed with
        self.note.setVisible(False)
        self.install_button = QPushButton(f"Install ({offer.size_text})")
        self.install_button.setDefault(True)
        self.later_button = QPushButton("Not now")
        self.never_button = QPushButton("Don't ask again")
        self.install_button.clicked.connect(self._on_install_clicked)
        self.later_button.clicked.connect(self.reject)
        self.never_button.clicked.connect(self._on_never_clicked)
        self.download_progressed.connect(self._on_download_progressed)
        buttons = QHBoxLayout()
        buttons.addWidget(self.never_button)
        buttons.addStretch(1)
        buttons.addWidget(self.later_button)
        buttons.addWidget(self.install_button)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(_label(INTRO, "intro"))
        layout.addLayout(models)
        layout.addWidget(self.voice_box)
        layout.addWidget(self.accuracy)
        layout.addWidget(self.later)
        layout.addWidget(self.progress)
        layout.addWidget(self.note)
        layout.addSpacing(6)
        layout.addLayout(buttons)

    def _show_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def _on_voice_toggled(self, wanted: bool) -> None:
        self.offer = self.offered if wanted else self.offered.without_voice()
        self.install_button.setText(f"Install ({self.offer.size_text})")

    def _on_install_clicked(self) -> None:
        self.install_button.setEnabled(False)
        self.voice_box.setEnabled(False)
        self.never_button.setEnabled(False)
        self.later_button.setText("Hide")  # the download goes on; the app uses the models when it ends
        self.progress.setRange(0, 0)  # busy until the first bytes say how many there are
        self.progress.setVisible(True)
        self._show_note(f"Downloading {self.offer.size_text}…")
        offer, speech = self.offer, self.speech

        def download() -> list[InstalledModel]:
            try:
                return install(offer, speech, lambda done, total: self.download_progressed.emit(done, total or 0))
            except DownloadError as error:  # a sentence of the dialog's own, naming the server, not its address
                raise ModelError(unreachable_words(error.host, error.what, error.problem, error.offline)) from None

        run_in_thread(Call("model-offer-download", download), self, self._on_downloaded)

    def _on_download_progressed(self, done: int, total: int) -> None:
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(min(1000, int(done * 1000 / total)))

    def _on_downloaded(self, outcome: JobOutcome[list[InstalledModel]]) -> None:
        if isinstance(outcome, Failed):
            self.progress.setVisible(False)
            self.install_button.setText(f"Try again ({self.offer.size_text})")
            self.install_button.setEnabled(True)
            self.voice_box.setEnabled(True)
            self.never_button.setEnabled(True)
            self.later_button.setText("Not now")
            self._show_note(outcome.error)
            self.install_failed.emit(outcome.error)
            return
        self.progress.setRange(0, 1000)
        self.progress.setValue(1000)
        self.install_button.setVisible(False)
        self.never_button.setVisible(False)
        self.later_button.setText("Close")
        self._show_note("Installed. Your next dictation uses them.")
        self.installed.emit(outcome.result)

    def reject(self) -> None:
        """Not now, Escape or the window's close button: the offer is put off. The app closing its windows at
        quit is no answer from the user, and puts nothing off."""
        if not self._closed_by_app:
            self.put_off.emit()
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed_by_app = not event.spontaneous()  # QDialog rejects a dialog being closed
        super().closeEvent(event)

    def _on_never_clicked(self) -> None:
        self.declined.emit()
        self.accept()


class OfferHost(Protocol):
    """What the prompt needs of the app (the app itself; a protocol so this module does not import it back)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def voice(self) -> VoiceInput: ...

    @property
    def window(self) -> QWidget: ...

    def apply_settings(self, settings: Settings) -> None: ...


class ModelOfferPrompt(QObject):
    """Offers the models once per start of the app, if due (not declined, not put off lately): works the offer out
    off the GUI thread (it looks at the disk, and for other languages than English fetches the Vosk list), waits
    for a dictation to end, shows the dialog, and has the app save and apply what it decides."""

    worked_out = Signal(object)  # the ModelOffer, or None when there is nothing to offer
    shown = Signal(object)  # the ModelOfferDialog, now on screen

    def __init__(self, murmur: OfferHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.murmur = murmur
        self.dialog: ModelOfferDialog | None = None
        self._waiting: ModelOffer | None = None  # worked out during a dictation: shown when it ends
        murmur.voice.stopped.connect(self._on_dictation_ended)
        murmur.voice.cancelled.connect(self._on_dictation_ended)

    def start(self) -> None:
        settings = self.murmur.settings
        run_in_thread(Call("model-offer", lambda: first_run_offer(settings)), self, self._on_worked_out)

    def _on_worked_out(self, outcome: JobOutcome[ModelOffer | None]) -> None:
        offer: ModelOffer | None = None
        if isinstance(outcome, Failed):
            log.warning("no speech models offered: %s", outcome.error)
        else:
            offer = outcome.result
        self.worked_out.emit(offer)
        if offer is not None:
            if self.murmur.voice.is_recording():
                self._waiting = offer
            else:
                self.show(offer)

    def _on_dictation_ended(self) -> None:
        offer, self._waiting = self._waiting, None
        if offer is not None:
            self.show(offer)

    def show(self, offer: ModelOffer) -> ModelOfferDialog:
        """Show the dialog for `offer` (non-modal, over the window); once per start of the app."""
        if self.dialog is None:
            dialog = self.dialog = ModelOfferDialog(offer, self.murmur.settings.speech, self.murmur.window)
            dialog.installed.connect(self._on_installed)
            dialog.declined.connect(self._on_declined)
            dialog.put_off.connect(partial(put_off_for_now, offer))
            dialog.show()
            self.shown.emit(dialog)
        return self.dialog

    def _on_installed(self, installed: Sequence[InstalledModel]) -> None:
        try:
            chosen = using(self.murmur.settings, installed)
        except MurmurError as error:  # removed again in the moment since: the dialog says so
            if self.dialog is not None:
                self.dialog.note.setText(str(error))
            return
        self.murmur.apply_settings(chosen)

    def _on_declined(self) -> None:
        self.murmur.apply_settings(without_offer(self.murmur.settings))
