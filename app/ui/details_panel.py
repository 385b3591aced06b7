"""The side panel with everything of the selected entry, editable: summary, the whole text, its checklist,
category, priority, due (read back as you type by the service, as saving will read it, with a warning when no
reminder could fire, and a picker), repeat, status, the words it came from (with Play and Hear again when they
were recorded) and its history. Words that could not
be saved (a repeat it cannot read, an emptied summary) are refused beside their field, and nothing is asked.

It only asks: `edited(entry_id, fields)` carries the raw words `parse_update_fields` reads, so an edit
here goes through the service and is undoable like any other."""

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.api.edits import HistoryBatch
from app.domain.actions import PRIORITY_NAMES, parse_update_fields
from app.domain.enums import Category, Status
from app.domain.recurrence import describe
from app.errors import MurmurError
from app.presentation.edits import not_saved, sentence
from app.presentation.history import action_text
from app.presentation.times import in_sentence, moment_words, written
from app.ui.checklist_editor import ChecklistEditor
from app.ui.due_picker import DuePicker, DueReader, due_picker
from app.ui.elided_label import ElidedLabel
from app.ui.entry_sections import EntryRow
from app.ui.inbox_sounds import SoundChoice
from app.ui.plain_text import plain_label
from app.ui.recording_buttons import RecordingButtons

PRIORITIES = {"": "None"} | {str(level): f"{level} · {name.capitalize()}" for level, name in PRIORITY_NAMES.items()}
NO_REMINDER = "Not a date Murmur can read: no reminder will fire"
PLACEHOLDER = "Select an entry to see all of it here."
STYLE = 'QLabel[problem="true"] { color: #e0443a; }'  # words refused: the window's red for what went wrong

# What the recording of an utterance allows (the app reads it through the service).
SoundReader = Callable[[int], SoundChoice]


class DetailsPanel(QWidget):
    edited = Signal(str, object)  # entry ID, {field: raw words}
    item_check_requested = Signal(str, str, bool)  # entry ID, the item's text, ticked (True) or unticked
    item_add_requested = Signal(str, str)  # entry ID, the new item's text
    item_remove_requested = Signal(str, str)  # entry ID, the text of the item to take off the list

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("details")
        self.setStyleSheet(STYLE)
        self.setMinimumWidth(260)
        self._row: EntryRow | None = None
        self._history: list[HistoryBatch] = []
        self._names: dict[str, str] = {}
        self._due_reader: DueReader | None = None
        self._sound_reader: SoundReader | None = None

        self.placeholder = plain_label(QLabel(PLACEHOLDER))
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.summary = QLineEdit()
        self.summary.setAccessibleName("Summary")
        self.summary.editingFinished.connect(lambda: self._ask("summary", self.summary.text()))
        self.content = QPlainTextEdit()
        self.content.setAccessibleName("Everything it says")
        self.content.setMaximumHeight(110)
        self.content.installEventFilter(self)  # its words are asked for when the cursor leaves it
        self.checklist = ChecklistEditor()
        self.checklist.check_requested.connect(self._on_checklist_check_requested)
        self.checklist.add_requested.connect(self._on_checklist_add_requested)
        self.checklist.remove_requested.connect(self._on_checklist_remove_requested)
        self.category = QComboBox()
        self.category.setAccessibleName("Category")
        for category in Category:
            self.category.addItem(category.value.capitalize(), category.value)
        self.category.activated.connect(lambda _: self._ask("category", str(self.category.currentData())))
        self.priority = QComboBox()
        self.priority.setAccessibleName("Priority")
        for value, label in PRIORITIES.items():
            self.priority.addItem(label, value)
        self.priority.activated.connect(lambda _: self._ask("priority", str(self.priority.currentData()) or "none"))
        self.due = QLineEdit()
        self.due.setAccessibleName("Due")
        self.due.setPlaceholderText("say it: friday 5pm, in 2 hours")
        self.due.textEdited.connect(self._read_due)
        self.due.editingFinished.connect(lambda: self._ask("due_date", self.due.text()))
        self.pick = QToolButton()
        self.pick.setText("Pick…")
        self.pick.setAccessibleName("Pick a due date")
        self.pick.setToolTip("Pick the day and time on a calendar")
        self.pick.clicked.connect(self._on_pick_clicked)
        self.due_reading = plain_label(QLabel())
        self.due_reading.setObjectName("dueReading")
        self.due_reading.setWordWrap(True)
        self.repeat = QLineEdit()
        self.repeat.setAccessibleName("Repeat")
        self.repeat.setPlaceholderText("every other monday, or none")
        self.repeat.textEdited.connect(self._read_repeat)
        self.repeat.editingFinished.connect(lambda: self._ask("repeat", _repeat_words(self.repeat.text())))
        self.repeat_reading = plain_label(QLabel())
        self.repeat_reading.setWordWrap(True)
        # Beside each field whose words can be refused: why, until they are put right (the repeat's reading says it).
        self._problems = {"summary": _problem_label(), "content": _problem_label(), "repeat": self.repeat_reading}
        self.status = plain_label(QLabel())
        self.status.setObjectName("detailsStatus")
        self.status.setWordWrap(True)  # "Snoozed until Thu 26 Nov 2026 12:00" is wider than a narrow pane
        self.said = ElidedLabel(lines=3)
        self.said.setObjectName("said")
        self.said.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.recording = RecordingButtons()
        self.recording.setVisible(False)  # until an entry whose words were recorded is shown
        self.meta = plain_label(QLabel())
        self.meta.setObjectName("meta")
        self.meta.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.meta.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meta.setWordWrap(True)
        self.changes = QListWidget()
        self.changes.setObjectName("entryHistory")
        self.changes.setAccessibleName("What happened to it")
        self.changes.setWordWrap(True)

        due_line = QHBoxLayout()
        due_line.addWidget(self.due, 1)
        due_line.addWidget(self.pick)
        form = QFormLayout()
        form.addRow("Summary", _with_problem(self.summary, self._problems["summary"]))
        form.addRow("Text", _with_problem(self.content, self._problems["content"]))
        form.addRow("Items", self.checklist)
        form.addRow("Category", self.category)
        form.addRow("Priority", self.priority)
        form.addRow("Due", due_line)
        form.addRow("", self.due_reading)
        form.addRow("Repeat", self.repeat)
        form.addRow("", self.repeat_reading)
        form.addRow("Status", self.status)
        said = QVBoxLayout()  # the words keep the pane's width; their buttons go under them
        said.setContentsMargins(0, 0, 0, 0)
        said.addWidget(self.said)
        said.addWidget(self.recording, 0, Qt.AlignmentFlag.AlignLeft)
        form.addRow("Said", said)
        form.addRow("History", self.changes)
        form.addRow("", self.meta)
        self.fields = QWidget()
        self.fields.setLayout(form)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.fields)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.addWidget(self.placeholder)
        layout.addWidget(scroll, 1)
        self._scroll = scroll
        self.show_row(None)

    def problem(self, field: str) -> QLabel:
        """The line beside `field` ("summary", "content", "repeat") saying why its words were not saved."""
        return self._problems[field]

    def read_dues_with(self, reader: DueReader) -> None:
        """The due typed is read back by `reader`, the one saving it uses, so what it shows is what is kept."""
        self._due_reader = reader

    def read_sounds_with(self, reader: SoundReader) -> None:
        """What an entry's recording allows is read by `reader` as the entry is shown."""
        self._sound_reader = reader

    def set_history(self, batches: list[HistoryBatch], names: dict[str, str]) -> None:
        self._history, self._names = batches, names
        self.show_row(self._row)

    def show_row(self, row: EntryRow | None) -> None:
        """Fill the fields from `row` (the latest of the selected entry), or show the placeholder. A field
        being typed in keeps what is typed."""
        same = row is not None and self._row is not None and row.id == self._row.id
        self._row = row
        self.placeholder.setVisible(row is None)
        self._scroll.setVisible(row is not None)
        if row is None:
            return
        entry, tz = row.entry, row.tz
        for field, text in (
            (self.summary, entry.summary),
            (self.due, self._due_words(row)),
            (self.repeat, row.repeats),
        ):
            if not (same and field.hasFocus()):
                field.setText(text)
        if not (same and self.content.hasFocus()):
            self.content.setPlainText(entry.content)
        self.checklist.show_items(row.items, entry.status)
        self.category.setCurrentIndex(max(0, self.category.findData(entry.category.value)))
        self.priority.setCurrentIndex(max(0, self.priority.findData(str(entry.priority or ""))))
        self._read_due(self.due.text())
        if not same:  # another entry: the last one's refused words are gone with it
            self.repeat_reading.setText("")
            _mark_problem(self.repeat_reading, False)
            for label in (self._problems["summary"], self._problems["content"]):
                label.setVisible(False)
        self.status.setText(self._status_words(row))
        self.said.setText(f"“{entry.source_text}”" if entry.source_text else "")
        self._show_recording(entry.utterance_id)
        made, changed = in_sentence(entry.created_at, row.now, tz), in_sentence(entry.updated_at, row.now, tz)
        self.meta.setText(f"Made {made} · changed {changed} · ID {row.short_id}")
        self.changes.clear()
        for batch in self._history:
            for item in batch.items:
                if item.entry_id == row.id:
                    what = action_text(item, self._names, row.now, tz)
                    line = f"{moment_words(batch.batch.created_at, row.now, tz)} · {what}"
                    self.changes.addItem(line + (f", from “{batch.said}”" if batch.said else ""))

    def _show_recording(self, utterance_id: int | None) -> None:
        """Play and Hear again beside the words said, when they were recorded."""
        reader = self._sound_reader
        choice = reader(utterance_id) if reader is not None and utterance_id is not None else None
        self.recording.setVisible(choice is not None and choice.recorded)
        if choice is not None:
            self.recording.show_for(utterance_id, choice.missing, choice.not_hearable)

    @staticmethod
    def _due_words(row: EntryRow) -> str:
        """The due as the app says a moment ("Today 21:50", "Sat 5 Dec 20:00"); the words, when none was read."""
        due_at = row.entry.due_at
        return moment_words(due_at, row.now, row.tz) if due_at else row.entry.due_text or ""

    @staticmethod
    def _status_words(row: EntryRow) -> str:
        entry = row.entry
        if entry.status is Status.SNOOZED and entry.snooze_until:
            return f"Snoozed until {in_sentence(entry.snooze_until, row.now, row.tz)}"
        if entry.status is Status.COMPLETED:
            return f"Done {in_sentence(entry.completed_at, row.now, row.tz)}" if entry.completed_at else "Done"
        return {Status.ARCHIVED: "Archived"}.get(entry.status, "Open")

    def _read_due(self, text: str) -> None:
        """What the due words mean, read back; a warning when they name no moment. The entry's own words are its
        due, not read again: read as if typed, a time of today that has passed would be tomorrow's."""
        row, reader = self._row, self._due_reader
        if not text.strip() or row is None:
            self.due_reading.setText("No due date")
            return
        if row.entry.due_at is not None and text.strip() == self._due_words(row):
            self._show_due_reading(row.entry.due_at)
        elif reader is not None:  # the app hands the service's reader over before any entry is shown
            self._show_due_reading(reader(text, row.entry.due_at))

    def _show_due_reading(self, moment: datetime | None) -> None:
        row = self._row
        assert row is not None
        self.due_reading.setText(f"Due {in_sentence(moment, row.now, row.tz)}" if moment else NO_REMINDER)
        self.due_reading.setProperty("warning", moment is None)

    def _read_repeat(self, text: str) -> None:
        """What the repeat words mean, read as saving reads them; why not, when they cannot be read."""
        try:
            rule = parse_update_fields({"repeat": _repeat_words(text)})["recurrence"]
        except MurmurError as error:
            self.repeat_reading.setText(sentence(str(error)))
            _mark_problem(self.repeat_reading, True)
            return
        self.repeat_reading.setText(describe(rule).capitalize() if rule else "Does not repeat")
        _mark_problem(self.repeat_reading, False)

    def _ask(self, field: str, value: str) -> None:
        """Ask for the change when the words differ from what the entry has and can be saved; words that cannot
        are refused beside the field, which keeps them to be put right."""
        row = self._row
        if row is None:
            return
        current = {
            "summary": row.entry.summary,
            "content": row.entry.content,
            "category": row.entry.category.value,
            "priority": str(row.entry.priority or "none"),
            "due_date": self._due_words(row),
            "repeat": row.repeats,
        }[field]
        if value.strip() == current.strip():
            return
        fields = {field: value.strip() or None}
        try:
            parse_update_fields(fields)  # as the service reads them: what it would refuse is not asked for
        except MurmurError as error:
            self._show_problem(field, not_saved(str(error)))
            return
        self._show_problem(field, "")
        self.edited.emit(row.id, fields)

    def _show_problem(self, field: str, text: str) -> None:
        if (label := self._problems.get(field)) is None:
            return
        label.setText(text)
        _mark_problem(label, bool(text))
        if label is not self.repeat_reading:  # the repeat's reading shows, problem or not
            label.setVisible(bool(text))

    def _on_checklist_check_requested(self, item: str, checked: bool) -> None:
        if self._row is not None:
            self.item_check_requested.emit(self._row.id, item, checked)

    def _on_checklist_add_requested(self, item: str) -> None:
        if self._row is not None:
            self.item_add_requested.emit(self._row.id, item)

    def _on_checklist_remove_requested(self, item: str) -> None:
        if self._row is not None:
            self.item_remove_requested.emit(self._row.id, item)

    def _on_pick_clicked(self) -> None:
        picker = self.due_picker()
        if picker is not None and picker.exec() == QDialog.DialogCode.Accepted:
            self.take_picked_due(picker.chosen())

    def due_picker(self) -> DuePicker | None:
        """The picker at the entry's due (see `due_picker`)."""
        row = self._row
        return due_picker(row.entry.due_at, self._due_reader, row.tz, self) if row else None

    def take_picked_due(self, local: datetime) -> None:
        """The due picked (a wall-clock time) shown in the due field as the app says it, and asked for in words
        that name it whatever the day ("Sat 28 Nov 2026 21:50", never "today")."""
        if (row := self._row) is not None and (moment := local.replace(tzinfo=row.tz)) != row.entry.due_at:
            self.due.setText(moment_words(moment, row.now, row.tz))
            self._show_due_reading(moment)
            self._ask("due_date", written(moment, row.tz))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.content and event.type() == QEvent.Type.FocusOut:
            self._ask("content", self.content.toPlainText())
        return super().eventFilter(watched, event)


def _repeat_words(text: str) -> str:
    """The repeat as saving takes it: "none", as the field's hint offers, is no repeat."""
    return "" if text.strip().lower() == "none" else text


def _mark_problem(label: QLabel, problem: bool) -> None:
    label.setProperty("problem", problem)
    label.style().unpolish(label)
    label.style().polish(label)


def _problem_label() -> QLabel:
    label = plain_label(QLabel())  # the words refused are the user's own
    label.setObjectName("fieldProblem")
    label.setWordWrap(True)
    label.setVisible(False)
    return label


def _with_problem(field: QWidget, problem: QLabel) -> QVBoxLayout:
    """`field` with the line saying why its words were refused under it."""
    column = QVBoxLayout()
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(field)
    column.addWidget(problem)
    return column
