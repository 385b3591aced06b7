"""Under the entries while searching: what the user said before that matches, with what was answered and
done (recall), so the search box finds past talk as well as entries."""

from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from app.api.reads import RecallHit
from app.presentation.times import moment_words
from app.ui.plain_text import plain_label, plain_tooltip

MIN_LETTERS = 3  # shorter searches match too much of what was ever said


class SaidBeforeView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = plain_label(QLabel("Said before"))
        self.title.setObjectName("saidBeforeTitle")
        self.hits = QListWidget()
        self.hits.setObjectName("saidBefore")
        self.hits.setAccessibleName("Said before")
        self.hits.setWordWrap(True)
        self.hits.setMaximumHeight(140)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.hits)
        self.hide()

    def clear(self) -> None:
        """Nothing to show: hidden."""
        self.hits.clear()
        self.hide()

    def set_hits(self, hits: list[RecallHit], now: datetime, tz: ZoneInfo) -> None:
        """Show `hits` (newest first); hidden when there are none."""
        self.hits.clear()
        for hit in hits:
            line = f"{moment_words(hit.said_at, now, tz)}  {hit.said}"
            if hit.reply:
                line += f"  \u2192 {hit.reply}"
            details = [f"You said: {hit.said}"]
            if hit.reply:
                details.append(f"Murmur answered: {hit.reply}")
            if hit.done:
                details.append("Done: " + "; ".join(hit.done))
            item = QListWidgetItem(line)  # list items are always plain text
            item.setToolTip(plain_tooltip("\n".join(details)))
            item.setData(Qt.ItemDataRole.UserRole, hit.utterance_id)
            self.hits.addItem(item)
        self.title.setText(f"Said before ({len(hits)})")
        self.setVisible(bool(hits))
