"""Past batches with their actions; undo a whole batch or one action."""

import json
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.changes.undo import HistoryBatch
from app.domain.enums import UndoSubject
from app.store.models import UndoItem

BATCH_ROLE = Qt.ItemDataRole.UserRole + 1
ACTION_ROLE = Qt.ItemDataRole.UserRole + 2


def action_text(item: UndoItem) -> str:
    described = json.loads(item.description)
    # An entry's action describes itself by summary, content, time or changes; a memory's by its text.
    what = described.get("summary") or described.get("content") or described.get("until_text") or ""
    changes = described.get("changes")
    if changes:
        what = ", ".join(f"{k}={v}" for k, v in changes.items())
    if item.subject is UndoSubject.MEMORY:
        return f"{item.kind} memory {item.entry_id[:6]}: {described.get('text', '')}"
    if item.subject is UndoSubject.UTTERANCE:
        return f"{item.kind} utterance {item.entry_id}: {described.get('text', '')}"
    return f"{item.kind} {item.entry_id[:6]}" + (f": {what}" if what else "")


def action_state(item: UndoItem) -> str:
    if item.undone_at:
        return "undone"
    return f"kept: {item.undo_conflict}" if item.undo_conflict else ""


class HistoryView(QWidget):
    undo_batch_requested = Signal(int)
    undo_action_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setObjectName("history")
        self.tree.setHeaderLabels(["Batch / action", "When", "State"])
        self.tree.setColumnWidth(0, 420)
        self.tree.itemSelectionChanged.connect(self._on_item_selection_changed)
        self.undo_button = QPushButton("Undo batch")
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(self._on_undo_clicked)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addLayout(buttons)

    def set_history(self, batches: list[HistoryBatch], tz: ZoneInfo) -> None:
        self.tree.clear()
        for h in batches:
            top = QTreeWidgetItem(
                [
                    h.batch.label,
                    f"{h.batch.created_at.astimezone(tz):%Y-%m-%d %H:%M}",
                    "undone" if h.batch.undone_at else "",
                ]
            )
            top.setData(0, BATCH_ROLE, h.batch.id)
            for item in h.items:
                child = QTreeWidgetItem([action_text(item), "", action_state(item)])
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
        self.undo_button.setText("Undo action" if is_action else "Undo batch")
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
