"""Past changes in words: what was said (or "By hand") and when, each change under it naming its entry
("Completed “Buy milk”", "Changed “Buy milk”: priority 1"); undo a whole batch or one change."""

import json
from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.changes.undo import HistoryBatch
from app.domain.enums import UndoSubject
from app.store.models import UndoItem
from app.ui.plain_text import plain_tooltip

BATCH_ROLE = Qt.ItemDataRole.UserRole + 1
ACTION_ROLE = Qt.ItemDataRole.UserRole + 2
VERBS = {
    "create": "Created",
    "complete": "Completed",
    "archive": "Archived",
    "snooze": "Snoozed",
    "update": "Changed",
    "remember": "Remembered",
    "forget": "Forgot",
    "edit": "Changed the memory",
    "dismiss": "Dismissed",
}
FIELD_WORDS = {"due_date": "due", "snooze_until": "snoozed until", "recurrence": "repeat"}


def said_when(moment: datetime, now: datetime, tz: ZoneInfo) -> str:
    """'Today 14:02', 'Yesterday 9:10', 'Mon 23 Nov 14:02'."""
    local = moment.astimezone(tz)
    days = (now.astimezone(tz).date() - local.date()).days
    day = {0: "Today", 1: "Yesterday"}.get(days, f"{local:%a} {local.day} {local:%b}")
    return f"{day} {local.hour}:{local.minute:02d}"


def action_text(item: UndoItem, names: dict[str, str]) -> str:
    """One change in words; `names`: entry ID -> its summary as listed now."""
    described = json.loads(item.description)
    verb = VERBS.get(item.kind, item.kind.capitalize())
    if item.subject is not UndoSubject.ENTRY:  # a memory or an utterance describes itself by its text
        return f"{verb} “{described.get('text', '')}”"
    name = names.get(item.entry_id) or described.get("summary") or described.get("content") or "an entry"
    text = f"{verb} “{name}”"
    if item.kind == "complete" and (ticked := described.get("item")):  # one item of its checklist, not all of it
        text = f"Ticked “{ticked}” on “{name}”"
    if changes := described.get("changes"):
        said = (
            f"{FIELD_WORDS.get(field, field)} {value if value is not None else 'none'}"
            for field, value in changes.items()
        )
        text += ": " + ", ".join(said)
    elif until := described.get("until_text"):
        text += f" until {until}"
    return text


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
        self.tree.setAccessibleName("History")
        self.tree.setHeaderLabels(["What", "When", "State"])
        self.tree.setColumnWidth(0, 420)
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
            what = f"“{h.said}”" if h.said else h.batch.label.capitalize()
            top = QTreeWidgetItem([what, said_when(h.batch.created_at, now, tz), "undone" if h.batch.undone_at else ""])
            top.setToolTip(0, plain_tooltip(what))
            top.setData(0, BATCH_ROLE, h.batch.id)
            for item in h.items:
                child = QTreeWidgetItem([action_text(item, names), "", action_state(item)])
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
