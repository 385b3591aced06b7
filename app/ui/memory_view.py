"""What Murmur remembers about the user: the memories, with Remember, Edit (or a double-click) and Forget.

Thin like the other views: it shows the list it is given and asks through signals; every change goes
through the service (so it is in the history, and Undo takes it back).
"""

from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.api.rows import Memory
from app.domain.defaults import MAX_MEMORY_CHARS
from app.presentation.times import moment_words
from app.ui.plain_text import plain_label, plain_tooltip

MEMORY_ROLE = Qt.ItemDataRole.UserRole + 1  # the memory's full ID
TEXT_ROLE = Qt.ItemDataRole.UserRole + 2  # its text as stored, to tell an edit from a redraw


class MemoryView(QWidget):
    add_requested = Signal(str)  # the text to remember
    edit_requested = Signal(str, str)  # the memory's ID, its new text
    forget_requested = Signal(str)  # the memory's ID

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hint = plain_label(
            QLabel("What Murmur keeps in mind about you; a language model sees it with each request.")
        )
        self.hint.setWordWrap(True)
        self.input = QLineEdit()
        self.input.setObjectName("memoryInput")
        self.input.setAccessibleName("A fact to remember")
        self.input.setPlaceholderText("A fact to remember, e.g. My brother is Tom")
        self.input.setMaxLength(MAX_MEMORY_CHARS)
        self.input.setClearButtonEnabled(True)
        self.input.returnPressed.connect(self._on_remember_clicked)
        self.remember_button = QPushButton("Remember")
        self.remember_button.clicked.connect(self._on_remember_clicked)
        self.tree = QTreeWidget()
        self.tree.setObjectName("memories")
        self.tree.setAccessibleName("What Murmur remembers")
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(["What Murmur remembers", "When"])
        header = self.tree.header()  # the time is shown whole; the memory takes the rest (whole in its tooltip)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)  # only the text, see below
        self.tree.itemSelectionChanged.connect(self._on_item_selection_changed)
        self.tree.itemDoubleClicked.connect(self._on_item_double_clicked)
        self.tree.itemChanged.connect(self._on_item_changed)
        self.empty = plain_label(QLabel("No memories yet."))
        self.empty.setObjectName("memoriesEmpty")
        self.edit_button = QPushButton("Edit")
        self.edit_button.setEnabled(False)
        self.edit_button.clicked.connect(self._on_edit_clicked)
        self.forget_button = QPushButton("Forget")
        self.forget_button.setEnabled(False)
        self.forget_button.clicked.connect(self._on_forget_clicked)

        adding = QHBoxLayout()
        adding.addWidget(self.input, 1)
        adding.addWidget(self.remember_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.empty)
        buttons.addStretch(1)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.forget_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addLayout(adding)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)

    def set_memories(self, memories: list[tuple[str, Memory]], now: datetime, tz: ZoneInfo) -> None:
        """Show `memories` (short ID, memory), keeping the selection where the same memories are still shown."""
        selected = set(self.selected_ids())
        self.tree.blockSignals(True)  # filling the list is not an edit
        try:
            self.tree.clear()
            for short_id, memory in memories:
                row = QTreeWidgetItem([memory.text, moment_words(memory.used_at, now, tz)])
                row.setData(0, MEMORY_ROLE, memory.id)
                row.setData(0, TEXT_ROLE, memory.text)
                row.setToolTip(0, plain_tooltip(f"{memory.text}\n\n{short_id}, from {memory.source.value}"))
                row.setFlags(row.flags() | Qt.ItemFlag.ItemIsEditable)
                self.tree.addTopLevelItem(row)
                row.setSelected(memory.id in selected)
        finally:
            self.tree.blockSignals(False)
        self.empty.setVisible(not memories)
        self._on_item_selection_changed()

    def rows(self) -> list[QTreeWidgetItem]:
        items = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [item for item in items if item is not None]

    def texts(self) -> list[str]:
        """The memories' texts as listed, top to bottom."""
        return [item.text(0) for item in self.rows()]

    def row_of(self, memory_id: str) -> QTreeWidgetItem | None:
        return next((item for item in self.rows() if item.data(0, MEMORY_ROLE) == memory_id), None)

    def selected_ids(self) -> list[str]:
        return [str(item.data(0, MEMORY_ROLE)) for item in self.tree.selectedItems()]

    def edit(self, item: QTreeWidgetItem) -> None:
        """Open the text of `item` for editing in place; Enter asks for the change, Escape drops it."""
        self.tree.setCurrentItem(item)
        self.tree.editItem(item, 0)

    def _on_remember_clicked(self) -> None:
        text = self.input.text().strip()
        if text:
            self.input.clear()
            self.add_requested.emit(text)

    def _on_item_selection_changed(self) -> None:
        chosen = len(self.tree.selectedItems()) == 1
        self.edit_button.setEnabled(chosen)
        self.forget_button.setEnabled(chosen)

    def _on_item_double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        self.edit(item)

    def _on_edit_clicked(self) -> None:
        items = self.tree.selectedItems()
        if len(items) == 1:
            self.edit(items[0])

    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if column != 0:
            return
        before, text = str(item.data(0, TEXT_ROLE)), item.text(0).strip()
        if not text or text == before:  # emptied or unchanged: nothing to ask; show it as stored
            self.tree.blockSignals(True)
            item.setText(0, before)
            self.tree.blockSignals(False)
            return
        self.edit_requested.emit(str(item.data(0, MEMORY_ROLE)), text)

    def _on_forget_clicked(self) -> None:
        for memory_id in self.selected_ids():
            self.forget_requested.emit(memory_id)
