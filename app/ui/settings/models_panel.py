"""Models in the settings dialog, Whisper's and Vosk's for dictation and Piper's voices for replies: the installed
ones (use, remove) and the downloadable ones (download with a progress bar). The network calls run on threads of
their own; results come back as signals."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.api.speech_models import InstalledModel
from app.errors import MurmurError
from app.ui.background import run_in_thread
from app.ui.worker import Call, Failed, JobOutcome

MODEL_ROLE = Qt.ItemDataRole.UserRole + 1  # the catalogue row of a downloadable model; None when installed
INSTALLED, IN_USE = "installed", "in use"
STATE_COLUMN = 4


class Downloadable(Protocol):
    """A catalogue row: app.speech_in.models.AvailableModel, app.speech_in.whisper_models.WhisperModel,
    app.speech_out.voices.PiperVoice."""

    @property
    def name(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def size_text(self) -> str: ...
    @property
    def detail(self) -> str: ...  # the Vosk model's kind, the Whisper model's description, the voice's quality


class Shelf(Protocol):
    """A kind of model in the models dir: app.speech_in.models.ModelManager,
    app.speech_in.whisper_models.WhisperModelManager, app.speech_out.voices.PiperVoices."""

    def installed(self, language: str = "") -> list[InstalledModel]: ...
    def available(self, language: str = "") -> Sequence[Downloadable]: ...
    def download(self, model: Any, on_progress: Callable[[int, int | None], None] | None = None) -> InstalledModel: ...
    def remove(self, name: str) -> Path: ...


@dataclass(frozen=True)
class ShelfWords:
    """What the panel calls its models and says of them."""

    name: str  # "Vosk models"
    detail: str  # the column of Downloadable.detail: "Kind", "Quality"
    none_installed: str  # what is used while none is installed
    listed: str  # "{count} models for {language!r}; ..."
    installed: str  # "Installed {name}; ..."


VOSK_WORDS = ShelfWords(
    name="Vosk models",
    detail="Kind",
    none_installed="No Vosk model installed: the live words come from the built-in engine (English only).",
    listed="{count} models for {language!r}; small ones suit dictation.",
    installed="Installed {name}; choose Use to dictate with it.",
)
WHISPER_WORDS = ShelfWords(
    name="Whisper models",
    detail="About",
    none_installed="No Whisper model installed: the built-in engine, rough on real voices, writes what you say.",
    listed="{count} models for {language!r}; base suits most computers, tiny slow ones.",
    installed="Installed {name}; your next dictation uses it.",
)


class ModelsPanel(QWidget):
    chosen = Signal(str)  # "Use" on an installed model: its name
    removed = Signal(str)
    listed = Signal()  # the downloadable list arrived (or why it could not) and is shown
    downloaded = Signal()  # a download ended, installed or with the reason shown
    download_progressed = Signal(int, int)  # bytes done, bytes in all (0: unknown) (any thread)

    def __init__(
        self,
        manager: Shelf,
        language: str,
        current: str,
        words: ShelfWords = VOSK_WORDS,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.manager, self.language, self.current, self.words = manager, language, current, words
        self._available: Sequence[Downloadable] = []
        self._downloading = False
        self.tree = QTreeWidget()
        self.tree.setObjectName("models")
        self.tree.setAccessibleName(words.name)
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(["Name", "Language", "Size", words.detail, "State"])
        for column, width in enumerate((220, 80, 70, 70)):
            self.tree.setColumnWidth(column, width)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.download_progressed.connect(self._on_download_progressed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        layout.addLayout(self._buttons())
        layout.addWidget(self.progress)
        layout.addWidget(self.note)
        self._show()

    def _buttons(self) -> QHBoxLayout:
        self.list_button = QPushButton("Show downloadable")
        self.download_button = QPushButton("Download")
        self.use_button = QPushButton("Use")
        self.remove_button = QPushButton("Remove")
        self.list_button.clicked.connect(self.fetch_available)
        self.download_button.clicked.connect(self._on_download_clicked)
        self.use_button.clicked.connect(self._on_use_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        buttons = QHBoxLayout()
        for button in (self.list_button, self.download_button, self.use_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        return buttons

    def _show(self) -> None:
        self.tree.clear()
        installed = self.manager.installed()
        for model in installed:
            state = IN_USE if model.name == self.current else INSTALLED
            self._add_row(model.name, model.language, model.size_text, "", state)
        names = {m.name for m in installed}
        for available in self._available:
            if available.name not in names:
                row = self._add_row(available.name, available.language, available.size_text, available.detail, "")
                row.setData(0, MODEL_ROLE, available)
        if not installed and not self._available:
            self.note.setText(self.words.none_installed)
        self._update_buttons()

    def _add_row(self, *texts: str) -> QTreeWidgetItem:
        row = QTreeWidgetItem(list(texts))
        self.tree.addTopLevelItem(row)
        return row

    def _selected(self) -> QTreeWidgetItem | None:
        items = self.tree.selectedItems()
        return items[0] if items else None

    def _update_buttons(self) -> None:
        row = self._selected()
        installed = row is not None and row.text(STATE_COLUMN) in (INSTALLED, IN_USE)
        self.download_button.setEnabled(row is not None and not installed and not self._downloading)
        self.use_button.setEnabled(installed and row is not None and row.text(STATE_COLUMN) != IN_USE)
        self.remove_button.setEnabled(installed)

    def select(self, name: str) -> None:
        for row in self.tree.findItems(name, Qt.MatchFlag.MatchExactly, 0):
            self.tree.setCurrentItem(row)

    # -- downloadable --------------------------------------------------------------------------

    def fetch_available(self) -> None:
        self.list_button.setEnabled(False)
        self.note.setText(f"Fetching the list of {self.words.name}…")
        language = self.language
        run_in_thread(Call("model-list", lambda: self.manager.available(language)), self, self._on_listed)

    def _on_listed(self, outcome: JobOutcome[Sequence[Downloadable]]) -> None:
        self.list_button.setEnabled(True)
        if isinstance(outcome, Failed):
            self.note.setText(outcome.error)
        else:
            self._available = outcome.result
            self.note.setText(self.words.listed.format(count=len(self._available), language=self.language))
            self._show()
        self.listed.emit()

    def _on_download_clicked(self) -> None:
        row = self._selected()
        model = row.data(0, MODEL_ROLE) if row is not None else None
        if model is None:
            return
        self._downloading = True
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.note.setText(f"Downloading {model.name} ({model.size_text})…")
        self._update_buttons()

        def download() -> InstalledModel:
            return self.manager.download(model, lambda done, total: self.download_progressed.emit(done, total or 0))

        run_in_thread(Call("model-download", download), self, self._on_downloaded)

    def _on_download_progressed(self, done: int, total: int) -> None:
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(done * 1000 / total))

    def _on_downloaded(self, outcome: JobOutcome[InstalledModel]) -> None:
        self._downloading = False
        self.progress.setVisible(False)
        if isinstance(outcome, Failed):
            self.note.setText(outcome.error)
            self._update_buttons()
        else:
            name = outcome.result.name
            self.note.setText(self.words.installed.format(name=name))
            self._show()
            self.select(name)
        self.downloaded.emit()

    # -- installed -----------------------------------------------------------------------------

    def _on_use_clicked(self) -> None:
        row = self._selected()
        if row is None:
            return
        self.current = row.text(0)
        self.chosen.emit(self.current)
        self._show()
        self.select(self.current)

    def _on_remove_clicked(self) -> None:
        row = self._selected()
        if row is None:
            return
        name = row.text(0)
        try:
            self.manager.remove(name)
        except MurmurError as error:
            self.note.setText(str(error))
            return
        if name == self.current:
            self.current = ""
        self.note.setText(f"Removed {name}.")
        self.removed.emit(name)
        self._show()
