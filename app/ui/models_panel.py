"""Vosk models in the settings dialog: the installed ones (use, remove) and the downloadable ones
(download with a progress bar). The network calls run on threads of their own; results come back as
signals."""

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

from app.errors import MurmurError
from app.speech.models import AvailableModel, InstalledModel, ModelManager
from app.ui.background import run_in_thread
from app.ui.worker import Call, Failed, JobOutcome

MODEL_ROLE = Qt.ItemDataRole.UserRole + 1  # the AvailableModel of a downloadable row; None when installed
INSTALLED, IN_USE = "installed", "in use"


class ModelsPanel(QWidget):
    chosen = Signal(str)  # "Use" on an installed model: its name
    removed = Signal(str)
    listed = Signal()  # the downloadable list arrived (or why it could not) and is shown
    downloaded = Signal()  # a download ended, installed or with the reason shown
    download_progressed = Signal(int, int)  # bytes done, bytes in all (0: unknown) (any thread)

    def __init__(self, manager: ModelManager, language: str, current: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.manager, self.language, self.current = manager, language, current
        self._available: list[AvailableModel] = []
        self._downloading = False
        self.tree = QTreeWidget()
        self.tree.setObjectName("models")
        self.tree.setAccessibleName("Vosk models")
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(["Model", "Language", "Size", "State"])
        self.tree.setColumnWidth(0, 220)
        self.tree.itemSelectionChanged.connect(self._update_buttons)
        self.list_button = QPushButton("Show downloadable")
        self.download_button = QPushButton("Download")
        self.use_button = QPushButton("Use")
        self.remove_button = QPushButton("Remove")
        self.list_button.clicked.connect(self.fetch_available)
        self.download_button.clicked.connect(self._on_download_clicked)
        self.use_button.clicked.connect(self._on_use_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.download_progressed.connect(self._on_download_progressed)
        buttons = QHBoxLayout()
        for button in (self.list_button, self.download_button, self.use_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.note)
        self._show()

    def _show(self) -> None:
        self.tree.clear()
        installed = self.manager.installed()
        for model in installed:
            self._add_row(
                model.name, model.language, model.size_text, IN_USE if model.name == self.current else INSTALLED
            )
        names = {m.name for m in installed}
        for available in self._available:
            if available.name not in names:
                row = self._add_row(available.name, available.language, available.size_text, "")
                row.setData(0, MODEL_ROLE, available)
        if not installed and not self._available:
            self.note.setText("No Vosk model installed: the bundled pocketsphinx engine (English only) is used.")
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
        installed = row is not None and row.text(3) in (INSTALLED, IN_USE)
        self.download_button.setEnabled(row is not None and not installed and not self._downloading)
        self.use_button.setEnabled(installed and row is not None and row.text(3) != IN_USE)
        self.remove_button.setEnabled(installed)

    def select(self, name: str) -> None:
        for row in self.tree.findItems(name, Qt.MatchFlag.MatchExactly, 0):
            self.tree.setCurrentItem(row)

    # -- downloadable --------------------------------------------------------------------------

    def fetch_available(self) -> None:
        self.list_button.setEnabled(False)
        self.note.setText("Fetching the list of Vosk models…")
        language = self.language
        run_in_thread(Call("model-list", lambda: self.manager.available(language)), self, self._on_listed)

    def _on_listed(self, outcome: JobOutcome[list[AvailableModel]]) -> None:
        self.list_button.setEnabled(True)
        if isinstance(outcome, Failed):
            self.note.setText(outcome.error)
        else:
            self._available = outcome.result
            self.note.setText(f"{len(self._available)} models for {self.language!r}; small ones suit dictation.")
            self._show()
        self.listed.emit()

    def _on_download_clicked(self) -> None:
        row = self._selected()
        model = row.data(0, MODEL_ROLE) if row is not None else None
        if not isinstance(model, AvailableModel):
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
            self.note.setText(f"Installed {name}; choose Use to dictate with it.")
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
