"""Settings -> Your words: the user's vocabulary (terms and replacements), changed at once, each change undoable.

Every read and change runs off the GUI thread (a write may wait for the pipeline's); the list and the status
line are shown again when it ends.
"""

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import Signal
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

from app.api.vocabulary import VocabularyChanges, Word, replacement, term
from app.presentation.vocabulary import NO_WORDS, WORDS_PAGE_NOTE, change_summary
from app.ui.background import run_in_thread
from app.ui.worker import Call, Failed, JobOutcome

Shown = tuple[str, list[Word]]  # the status line after a change, and the words as they are now


class WordBook(Protocol):
    """Where the words are kept: the application service."""

    def words(self) -> list[Word]: ...
    def keep_words(self, words: Sequence[Word]) -> VocabularyChanges: ...
    def remove_word(self, text: str) -> VocabularyChanges: ...
    def import_words(self, path: Path) -> VocabularyChanges: ...
    def export_words(self, path: Path, force: bool = False) -> None: ...


class WordsPage(QWidget):
    shown = Signal(str)  # a read or change ended: the status line, as shown

    def __init__(self, book: WordBook, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._book = book
        self._words: list[Word] = []
        self._clear_when_done = False  # an add: the fields are emptied once it is kept, kept to mend if refused
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
        self._run(lambda: "")

    def texts(self) -> list[str]:
        return [item.text() for item in (self.list.item(row) for row in range(self.list.count())) if item]

    def add(self) -> None:
        """Keep the term typed, as a replacement of the heard words when those are typed too."""
        said, heard = self.term.text(), self.heard.text()
        if not said.strip():
            self.term.setFocus()
            return
        self._clear_when_done = True
        self._change(lambda: self._book.keep_words([replacement(heard, said) if heard.strip() else term(said)]))

    def remove_selected(self) -> None:
        rows = [index.row() for index in self.list.selectedIndexes()]
        if rows:
            key = self._words[rows[0]].key
            self._change(lambda: self._book.remove_word(key))

    def import_from(self, path: Path) -> None:
        self._change(lambda: self._book.import_words(path))

    def export_to(self, path: Path) -> None:
        """The words as a text file; the file dialog has already asked before one is replaced."""

        def export() -> str:
            self._book.export_words(path, force=True)
            return f"Exported to {path}"

        self._run(export)

    def _change(self, change: Callable[[], VocabularyChanges]) -> None:
        self._run(lambda: change_summary(change()))

    def _run(self, step: Callable[[], str]) -> None:
        book = self._book
        run_in_thread(Call("words", lambda: (step(), book.words())), self, self._on_outcome)

    def _on_outcome(self, outcome: JobOutcome[Shown]) -> None:
        if isinstance(outcome, Failed):
            line = outcome.error
        else:
            line, self._words = outcome.result
            self.list.clear()
            self.list.addItems([word.text for word in self._words])
            self.empty.setVisible(not self._words)
            if self._clear_when_done:
                self.term.clear()
                self.heard.clear()
                self.term.setFocus()
        self._clear_when_done = False
        self._enable()
        self.status.setText(line)
        self.shown.emit(line)

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
