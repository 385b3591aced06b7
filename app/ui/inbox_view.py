"""What the user said that could not be applied (failed or unfinished), each with Retry."""

from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.store.models import Utterance
from app.ui.plain_text import plain_tooltip

UTTERANCE_ROLE = Qt.ItemDataRole.UserRole + 1


class InboxView(QWidget):
    retry_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setObjectName("inbox")
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(["What you said", "When", "Why it waits"])
        self.tree.setColumnWidth(0, 360)
        self.tree.itemSelectionChanged.connect(self._on_item_selection_changed)
        self.tree.itemDoubleClicked.connect(self._on_retry_clicked)
        self.retry_button = QPushButton("Retry")
        self.retry_button.setEnabled(False)
        self.retry_button.clicked.connect(self._on_retry_clicked)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.retry_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addLayout(buttons)

    def set_utterances(self, utterances: list[Utterance], tz: ZoneInfo) -> None:
        self.tree.clear()
        for u in utterances:
            row = QTreeWidgetItem([u.text, f"{u.created_at.astimezone(tz):%Y-%m-%d %H:%M}", u.error or u.outcome.value])
            row.setData(0, UTTERANCE_ROLE, u.id)
            row.setToolTip(0, plain_tooltip(u.text))
            self.tree.addTopLevelItem(row)

    def _on_item_selection_changed(self) -> None:
        self.retry_button.setEnabled(bool(self.tree.selectedItems()))

    def _on_retry_clicked(self) -> None:
        for item in self.tree.selectedItems():
            self.retry_requested.emit(int(item.data(0, UTTERANCE_ROLE)))
