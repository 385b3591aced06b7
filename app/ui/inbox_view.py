"""What the user said that could not be applied (failed or unfinished): Retry it, put its words right and
retry (Edit…), or Dismiss it (kept in the store; undo brings it back); Play its recording, or Hear it again with
the best engine installed (an offer above the list when one better than the live one could); when Murmur was unsure
what it meant, pick one of the readings it offers. Empty, it says what lands here."""

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QBoxLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.api.rows import Utterance
from app.presentation.choices import DID_YOU_MEAN
from app.presentation.recordings import rehear_offer_text
from app.presentation.times import moment_words
from app.ui.empty_state import EmptyState
from app.ui.inbox_sounds import InboxSounds
from app.ui.plain_text import plain_tooltip
from app.ui.reading_buttons import ReadingButtons
from app.ui.recording_buttons import RecordingButtons
from app.ui.rehear_banner import RehearBanner

UTTERANCE_ROLE = Qt.ItemDataRole.UserRole + 1


class InboxView(QWidget):
    retry_requested = Signal(int)
    dismiss_requested = Signal(int)
    edit_requested = Signal(int, str)  # the utterance, and the user's words to run instead
    hear_all_requested = Signal(list)  # the utterances the offer would hear again, in the inbox's order
    choice_requested = Signal(int, int)  # the utterance, and the reading of it picked (from 1)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setObjectName("inbox")
        self.tree.setAccessibleName("Inbox")
        self.tree.setRootIsDecorated(False)
        self.tree.setHeaderLabels(["What you said", "When", "Why it waits"])
        # The time is short and always whole; the words said and the reason share what is left (whole in tooltips).
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.empty = EmptyState()
        self.empty.show_inbox_quiet()
        self.pages = QStackedWidget()
        self.pages.addWidget(self.tree)
        self.pages.addWidget(self.empty)
        self.tree.itemSelectionChanged.connect(self._on_item_selection_changed)
        self.tree.itemDoubleClicked.connect(self._on_retry_clicked)
        self.retry_button = self._button("Retry", "Run what you said again", self._on_retry_clicked)
        self.edit_button = self._button("Edit…", "Put the words right, then run them", self._on_edit_clicked)
        self.dismiss_button = self._button(
            "Dismiss", "Take it out of the inbox (it is kept; Undo brings it back)", self._on_dismiss_clicked
        )
        # The words being put right, in place under the list: no dialog to lose behind the window.
        self.editor = QLineEdit()
        self.editor.setAccessibleName("Corrected words")
        self.editor.setPlaceholderText("What you meant to say")
        self.editor.returnPressed.connect(self._on_send_edit_clicked)
        self.send_edit_button = self._button("Retry with these words", "", self._on_send_edit_clicked)
        self.cancel_edit_button = self._button("Cancel", "Leave the words as they are", self._close_editor)
        self.editing = QWidget()
        edit_row = QHBoxLayout(self.editing)
        edit_row.setContentsMargins(0, 0, 0, 0)
        edit_row.addWidget(self.editor, 1)
        edit_row.addWidget(self.send_edit_button)
        edit_row.addWidget(self.cancel_edit_button)
        self.editing.setVisible(False)
        self._editing_id: int | None = None
        self.readings = ReadingButtons(QBoxLayout.Direction.LeftToRight)
        self.readings.reading_chosen.connect(self._on_reading_chosen)
        self.unsure = QWidget()  # the readings of the one utterance selected, when Murmur was unsure of it
        unsure_row = QHBoxLayout(self.unsure)
        unsure_row.setContentsMargins(0, 0, 0, 0)
        unsure_row.addWidget(QLabel(DID_YOU_MEAN))
        unsure_row.addWidget(self.readings, 1)
        self.unsure.setVisible(False)
        self._offered: Mapping[int, Sequence[str]] = {}
        self.recording = RecordingButtons()
        self.offer = RehearBanner()
        self.offer.accepted.connect(self._on_offer_accepted)
        self._sounds = InboxSounds()
        self.buttons = QWidget()
        buttons = QHBoxLayout(self.buttons)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.recording)
        buttons.addStretch(1)
        for button in (self.dismiss_button, self.edit_button, self.retry_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.offer)
        layout.addWidget(self.pages)
        layout.addWidget(self.unsure)
        layout.addWidget(self.editing)
        layout.addWidget(self.buttons)
        self._show_empty(True)  # until the app fills it

    def _button(self, text: str, tip: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text)
        button.setAccessibleName(text.rstrip("…"))
        if tip:
            button.setToolTip(tip)
            button.setAccessibleDescription(tip)
        button.clicked.connect(slot)
        return button

    def set_utterances(self, utterances: list[Utterance], now: datetime, tz: ZoneInfo) -> None:
        self.tree.clear()
        for u in utterances:
            row = QTreeWidgetItem([u.text, moment_words(u.created_at, now, tz), u.error or u.outcome.value])
            row.setData(0, UTTERANCE_ROLE, u.id)
            row.setToolTip(0, plain_tooltip(u.text))
            row.setToolTip(2, plain_tooltip(row.text(2)))
            self.tree.addTopLevelItem(row)
        self._show_empty(not utterances)
        if self._editing_id not in {u.id for u in utterances}:
            self._close_editor()  # what was being put right left the inbox (from a terminal, say)
        self._on_item_selection_changed()

    def set_sounds(self, sounds: InboxSounds) -> None:
        """Which of the utterances listed can be played and heard again, and the offer of a better engine."""
        self._sounds = sounds
        offer = sounds.offer
        self.offer.show_offer(rehear_offer_text(offer.count, offer.engine) if offer else None)
        self._on_item_selection_changed()

    def set_readings(self, offered: Mapping[int, Sequence[str]]) -> None:
        """The readings offered back for the utterances listed, by utterance (those Murmur was unsure of)."""
        self._offered = offered
        self._on_item_selection_changed()

    def _show_empty(self, empty: bool) -> None:
        self.pages.setCurrentWidget(self.empty if empty else self.tree)
        self.buttons.setVisible(not empty)

    def _selected_ids(self) -> list[int]:
        return [int(item.data(0, UTTERANCE_ROLE)) for item in self.tree.selectedItems()]

    def _on_item_selection_changed(self) -> None:
        chosen = bool(self.tree.selectedItems())
        for button in (self.retry_button, self.edit_button, self.dismiss_button):
            button.setEnabled(chosen)
        ids = self._selected_ids()
        self.recording.show_for(ids[0] if ids else None, self._sounds.missing(ids[0]) if ids else None)
        offered = self._offered.get(ids[0], ()) if len(ids) == 1 else ()
        self.readings.show_readings(offered)
        self.unsure.setVisible(bool(offered))

    def listed_ids(self) -> list[int]:
        """The utterances the inbox lists, in its order."""
        items = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [int(item.data(0, UTTERANCE_ROLE)) for item in items if item is not None]

    def _on_offer_accepted(self) -> None:
        kept = self._sounds.kept
        self.hear_all_requested.emit([utterance_id for utterance_id in self.listed_ids() if utterance_id in kept])

    def _on_retry_clicked(self) -> None:
        for utterance_id in self._selected_ids():
            self.retry_requested.emit(utterance_id)

    def _on_reading_chosen(self, number: int) -> None:
        ids = self._selected_ids()
        if len(ids) == 1:
            self.choice_requested.emit(ids[0], number)

    def _on_dismiss_clicked(self) -> None:
        for utterance_id in self._selected_ids():
            self.dismiss_requested.emit(utterance_id)

    def _on_edit_clicked(self) -> None:
        items = self.tree.selectedItems()
        if not items:
            return
        self._editing_id = int(items[0].data(0, UTTERANCE_ROLE))
        self.editor.setText(items[0].text(0))
        self.editing.setVisible(True)
        self.editor.selectAll()
        self.editor.setFocus()

    def _on_send_edit_clicked(self) -> None:
        words = self.editor.text().strip()
        if self._editing_id is None or not words:
            return
        utterance_id = self._editing_id
        self._close_editor()
        self.edit_requested.emit(utterance_id, words)

    def _close_editor(self) -> None:
        self._editing_id = None
        self.editor.clear()
        self.editing.setVisible(False)
