"""Settings -> Your words: the user's vocabulary (terms and replacements), changed at once, each change undoable."""

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.errors import MurmurError
from app.presentation.vocabulary import NO_WORDS, WORDS_PAGE_NOTE, change_summary
from app.vocabulary.changes import VocabularyChanges
from app.vocabulary.words import Word, replacement, term


class WordBook(Protocol):
    """Where the words are kept: the application service."""

    def words(self) -> list[Word]: ...
    def keep_words(self, words: Sequence[Word]) -> VocabularyChanges: ...
    def remove_word(self, text: str) -> VocabularyChanges: ...
    def import_words(self, path: Path) -> VocabularyChanges: ...
    def export_words(self, path: Path, force: bool = False) -> None: ...


class WordsPage(QWidget):
    def __init__(self, book: WordBook, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._book = book
        note = QLabel(WORDS_PAGE_NOTE)
        note.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("words_list")
        self.list.setAccessibleName("Your words")
        self.term = QLineEdit()
        self.term.setPlaceholderText("Name or term, e.g. Kubernetes")
        self.term.setAccessibleName("Name or term")
        self.heard = QLineEdit()
        self.heard.setPlaceholderText("Replaces (optional), e.g. cube and eighties")
        self.heard.setAccessibleName("Replaces what speech writes")
        self.add_button = QPushButton("Add")
        self.remove_button = QPushButton("Remove")
        import_button, export_button = QPushButton("Import…"), QPushButton("Export…")
        self.empty = QLabel(NO_WORDS)
        self.empty.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("words_status")
        self.status.setWordWrap(True)
        self.add_button.clicked.connect(self.add)
        self.term.returnPressed.connect(self.add)
        self.heard.returnPressed.connect(self.add)
        self.remove_button.clicked.connect(self.remove_selected)
        import_button.clicked.connect(self._on_import_clicked)
        export_button.clicked.connect(self._on_export_clicked)
        self.list.itemSelectionChanged.connect(self._enable)
        adding, files = QHBoxLayout(), QHBoxLayout()
        for widget, stretch in ((self.term, 2), (self.heard, 2), (self.add_button, 0)):
            adding.addWidget(widget, stretch)
        for button in (self.remove_button, import_button, export_button):
            files.addWidget(button)
        files.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.empty)
        layout.addLayout(adding)
        layout.addLayout(files)
        layout.addWidget(self.status)
        self._show_words()

    def texts(self) -> list[str]:
        return [item.text() for item in (self.list.item(row) for row in range(self.list.count())) if item]

    def add(self) -> None:
        """Keep the term typed, as a replacement of the heard words when those are typed too."""
        said, heard = self.term.text(), self.heard.text()
        if not said.strip():
            self.term.setFocus()
            return
        if self._change(lambda: self._book.keep_words([replacement(heard, said) if heard.strip() else term(said)])):
            self.term.clear()
            self.heard.clear()
            self.term.setFocus()

    def remove_selected(self) -> None:
        rows = [index.row() for index in self.list.selectedIndexes()]
        if rows:
            key = self._words[rows[0]].key
            self._change(lambda: self._book.remove_word(key))

    def import_from(self, path: Path) -> None:
        self._change(lambda: self._book.import_words(path))

    def export_to(self, path: Path) -> None:
        """The words as a text file; the file dialog has already asked before one is replaced."""
        try:
            self._book.export_words(path, force=True)
        except MurmurError as error:
            self.status.setText(str(error))
            return
        self.status.setText(f"Exported to {path}")

    def _change(self, change: Callable[[], VocabularyChanges]) -> bool:
        try:
            done = change()
        except MurmurError as error:
            self.status.setText(str(error))
            return False
        self.status.setText(change_summary(done))
        self._show_words()
        return True

    def _show_words(self) -> None:
        self._words = self._book.words()
        self.list.clear()
        self.list.addItems([word.text for word in self._words])
        self.empty.setVisible(not self._words)
        self._enable()

    def _enable(self) -> None:
        self.remove_button.setEnabled(bool(self.list.selectedIndexes()))

    def _on_import_clicked(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Import words", str(Path.home()), "Text files (*.txt);;All (*)")
        if name:
            self.import_from(Path(name))

    def _on_export_clicked(self) -> None:
        default = str(Path.home() / "murmur-words.txt")
        name, _ = QFileDialog.getSaveFileName(self, "Export your words", default, "Text files (*.txt)")
        if name:
            self.export_to(Path(name))
