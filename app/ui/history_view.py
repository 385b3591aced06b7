"""Past changes in words: what was said (or "By hand") and when, each change under it naming its entry
("Completed “Buy milk”", "Updated “Buy milk”: priority 1"); undo a whole batch or one change."""

from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.api.edits import HistoryBatch
from app.presentation.history import action_state, action_text, batch_title
from app.presentation.times import moment_words
from app.ui.plain_text import plain_tooltip

BATCH_ROLE = Qt.ItemDataRole.UserRole + 1
ACTION_ROLE = Qt.ItemDataRole.UserRole + 2


class HistoryView(QWidget):
    undo_batch_requested = Signal(int)
    undo_action_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setObjectName("history")
        self.tree.setAccessibleName("History")
        self.tree.setHeaderLabels(["What", "When", "State"])
        # When and state are short and shown whole; what changed takes the rest (whole in its tooltip).
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemSelectionChanged.connect(self._on_item_selection_changed)
        self.undo_button = QPushButton("Undo all of it")
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(self._on_undo_clicked)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addLayout(buttons)

    def set_history(self, batches: list[HistoryBatch], now: datetime, tz: ZoneInfo, names: dict[str, str]) -> None:
        """`names`: entry ID -> summary, so a change names its entry as the list does."""
        self.tree.clear()
        for h in batches:
            what = batch_title(h.batch.label, h.said, h.batch.origin)
            top = QTreeWidgetItem(
                [what, moment_words(h.batch.created_at, now, tz), "undone" if h.batch.undone_at else ""]
            )
            top.setToolTip(0, plain_tooltip(what))
            top.setData(0, BATCH_ROLE, h.batch.id)
            for item in h.items:
                child = QTreeWidgetItem([action_text(item, names, now, tz), "", action_state(item)])
                child.setToolTip(0, plain_tooltip(child.text(0)))
                child.setData(0, BATCH_ROLE, h.batch.id)
                child.setData(0, ACTION_ROLE, item.id)
                child.setDisabled(item.undone_at is not None)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
        self.tree.expandToDepth(0)

    def _selected(self) -> QTreeWidgetItem | None:
        items = self.tree.selectedItems()
        return items[0] if items else None

    def _on_item_selection_changed(self) -> None:
        item = self._selected()
        is_action = item is not None and item.data(0, ACTION_ROLE) is not None
        self.undo_button.setText("Undo this change" if is_action else "Undo all of it")
        self.undo_button.setEnabled(item is not None and item.text(2) != "undone")

    def _on_undo_clicked(self) -> None:
        item = self._selected()
        if item is None:
            return
        action_id = item.data(0, ACTION_ROLE)
        if action_id is not None:
            self.undo_action_requested.emit(int(action_id))
        else:
            self.undo_batch_requested.emit(int(item.data(0, BATCH_ROLE)))
