"""The entry list: sections with their entries, keyboard first. Space ticks off, Enter edits the summary,
the arrows skip section headers, a click on a header folds it; the context menu and keys archive (and
unarchive), snooze, move the due and change priority. It only asks (signals); the window's owner applies through the
service."""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    QRect,
    Qt,
    Signal,
    SignalInstance,
)
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QListView, QMenu, QWidget

from app.domain.enums import Status
from app.domain.snoozes import snooze_hides
from app.presentation.entry_menu import MOVE, MOVE_CHOICES, PICK_DATE, SNOOZE, SNOOZE_CHOICES
from app.presentation.times import written
from app.ui.due_picker import DuePicker, DueReader, due_picker
from app.ui.entry_delegate import COMPACT_ROW_HEIGHT, ROW_HEIGHT, EntryDelegate
from app.ui.entry_model import EntryListModel
from app.ui.entry_sections import EntryRow

MIN_ROWS_SHOWN = 3  # a small window squeezes the rest of the window before the list


@dataclass(frozen=True)
class KeptView:
    """What the user had picked and where, by entry ID, across a model reset."""

    selected: list[str] = field(default_factory=list)
    open_selected: frozenset[str] = frozenset()  # of those, the ones not done: ticked off, they let go
    current: str | None = None
    scrolled: int = 0
    current_in_view: bool = False
    position: int = 0  # the current entry's place among those shown, and its unselected neighbours:
    after: str | None = None  # who takes its place if it leaves
    before: str | None = None


class EntryView(QListView):
    complete_requested = Signal(list)  # entry IDs
    archive_requested = Signal(list)
    unarchive_requested = Signal(list)  # archived entry IDs, to open again
    snooze_requested = Signal(list, str)  # entry IDs, until (words: "tomorrow")
    move_requested = Signal(list, str)  # entry IDs, the new due (words: "tomorrow", "Thu 3 Dec 2026 15:00")
    priority_requested = Signal(list, object)  # entry IDs, 1-5 or None

    def __init__(self, model: EntryListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list_model = model
        # Each refresh resets the model, and a reset forgets the selection: a refresh for another process's
        # commit comes unasked, so the rows the user picked, and where they scrolled, are kept by ID. This
        # looks before the view's own handler forgets where the rows were: connected before setModel.
        self._kept = KeptView()
        self._due_reader: DueReader | None = None
        model.modelAboutToBeReset.connect(self._on_model_about_to_be_reset)
        self.setModel(model)
        model.modelReset.connect(self._on_model_reset)
        self.setObjectName("entries")
        self.setAccessibleName("Entries")
        self.delegate = EntryDelegate(model, self)
        self.setItemDelegate(self.delegate)
        self.setUniformItemSizes(True)  # the layout of 10,000 rows is a multiplication, not a walk
        self.setMouseTracking(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setMinimumHeight((MIN_ROWS_SHOWN + 2) * ROW_HEIGHT + 2 * self.frameWidth())
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_context_menu_requested)
        self.clicked.connect(self._on_clicked)
        self._actions = self._make_actions()
        self.addActions(self._actions)
        self._unarchive = QAction("Unarchive", self, shortcut=QKeySequence("Ctrl+U"))
        self._unarchive.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._unarchive.triggered.connect(self._unarchive_selection)
        self.addAction(self._unarchive)

    def read_dues_with(self, reader: DueReader) -> None:
        """The menu's times are read by `reader`, as the service will read them: it offers only what would be taken."""
        self._due_reader = reader

    def set_compact(self, compact: bool) -> None:
        """Lower rows, for a short window."""
        height = COMPACT_ROW_HEIGHT if compact else ROW_HEIGHT
        if self.delegate.row_height != height:
            self.delegate.row_height = height
            self.delegate.sizeHintChanged.emit(self.list_model.index(0, 0))  # the rows are all alike: one says it

    def selected_ids(self) -> list[str]:
        rows = (self.list_model.row_at(index) for index in self.selectionModel().selectedIndexes())
        return [row.id for row in rows if row]

    def entry_ids(self) -> list[str]:
        """The entries shown, top to bottom."""
        return self.list_model.entry_ids()

    def _on_clicked(self, index: QModelIndex) -> None:
        if header := self.list_model.header_at(index):  # a section header folds and unfolds
            self.list_model.set_folded(header.section, not header.folded)

    def _on_model_about_to_be_reset(self) -> None:
        current = self.currentIndex()
        current_id = self.list_model.entry_id(current)
        if not current_id:
            self._kept = KeptView(self.selected_ids(), scrolled=self.verticalScrollBar().value())
            return
        shown = self.entry_ids()
        done = {entry for entry in shown if (row := self.list_model.row_of(entry)) and row.done}
        picked = set(self.selected_ids())
        at = shown.index(current_id)
        # An open entry's stand-in is open too: the done ones below are not where the keys left off.
        passed = picked | (done if current_id not in done else set())
        self._kept = KeptView(
            list(picked),
            frozenset(picked - done),
            current_id,
            self.verticalScrollBar().value(),
            self.viewport().rect().intersects(self.visualRect(current)),
            at,
            next((entry for entry in shown[at + 1 :] if entry not in passed), None),
            next((entry for entry in reversed(shown[:at]) if entry not in passed), None),
        )

    def _on_model_reset(self) -> None:
        kept, model = self._kept, self.list_model
        if kept.selected or kept.current:
            selection = QItemSelection()
            for index in (model.index_of(entry_id) for entry_id in kept.selected if self._still_picked(entry_id)):
                if index.isValid():
                    selection.select(index, index)
            current = model.index_of(kept.current or "")
            if current.isValid() and self._still_picked(kept.current or ""):
                self.selectionModel().setCurrentIndex(current, QItemSelectionModel.SelectionFlag.NoUpdate)
            self.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.updateGeometries()  # the scroll range follows the new rows now, not at the next layout
        self.verticalScrollBar().setValue(kept.scrolled)
        shown = self.entry_ids()
        if kept.selected and not self.selectionModel().hasSelection() and shown:
            # The picked rows left the list (completed, archived): the keys go on with the row in their place.
            fallback = shown[min(kept.position, len(shown) - 1)]
            self.select_entry(next((e for e in (kept.after, kept.before) if e in shown), fallback))
        elif kept.current in shown and kept.current_in_view:  # an edit re-sorted it: it stays in sight
            self.scrollTo(self.currentIndex())

    def _still_picked(self, entry_id: str) -> bool:
        """A picked entry just ticked off lets go of the selection, though the list still shows it as done."""
        row = self.list_model.row_of(entry_id)
        return row is not None and not (row.done and entry_id in self._kept.open_selected)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A shorter list (a toast's room under it, a smaller window) keeps the row the keys are on in view, if it
        was: the rows stay put at the top, and the bottom ones, where an edit may just have happened, would go."""
        current = self.currentIndex()
        shown = current.isValid() and QRect(QPoint(0, 0), event.oldSize()).contains(self.visualRect(current))
        super().resizeEvent(event)
        if shown:
            self.scrollTo(current)

    def select_entry(self, entry_id: str) -> bool:
        """Make the entry the one selected and current, and scroll it into view, if the list shows it."""
        index = self.list_model.index_of(entry_id)
        if not index.isValid():
            return False
        self.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.scrollTo(index)
        return True

    def moveCursor(self, cursorAction: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier) -> QModelIndex:
        """Up and down go from entry to entry: the section headers are passed over."""
        moved = super().moveCursor(cursorAction, modifiers)
        step = -1 if moved.row() < self.currentIndex().row() else 1
        while moved.isValid() and self.list_model.header_at(moved):
            moved = self.list_model.index(moved.row() + step, 0)
        return moved if moved.isValid() else self.currentIndex()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        current = self.currentIndex()
        editing = self.state() is QAbstractItemView.State.EditingState  # the editor's own Enter comes here too
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.list_model.row_at(current) and not editing:
            self.edit(current)
        elif event.key() == Qt.Key.Key_Space and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            self._tick_selection()
        else:
            super().keyPressEvent(event)

    def _tick_selection(self) -> None:
        """Space: the selected entries are done (or, all done already, open again)."""
        indexes = [i for i in self.selectionModel().selectedIndexes() if self.list_model.row_at(i)]
        rows = [row for row in (self.list_model.row_at(i) for i in indexes) if row]
        if rows and all(row.done for row in rows):
            for index in indexes:
                self.list_model.setData(index, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
        elif rows:
            self.complete_requested.emit([row.id for row in rows if not row.done])

    def _make_actions(self) -> list[QAction]:
        def action(text: str, shortcut: str, handler: Callable[[], None]) -> QAction:
            made = QAction(text, self, shortcut=QKeySequence(shortcut))
            made.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            made.triggered.connect(handler)
            return made

        actions = [
            action("Complete", "Ctrl+D", lambda: self._emit_for_selection(self.complete_requested)),
            action("Archive", "Del", lambda: self._emit_for_selection(self.archive_requested)),
            action("Snooze until tomorrow", "Ctrl+S", lambda: self._snooze("tomorrow")),
        ]
        for priority in range(1, 6):
            actions.append(action(f"Priority {priority}", f"Ctrl+{priority}", partial(self._prioritise, priority)))
        actions.append(action("No priority", "Ctrl+0", lambda: self._prioritise(None)))
        return actions

    def _emit_for_selection(self, signal: SignalInstance) -> None:
        ids = self.selected_ids()
        if ids:
            signal.emit(ids)

    def _archived_selected(self) -> list[str]:
        rows = (self.list_model.row_of(entry_id) for entry_id in self.selected_ids())
        return [row.id for row in rows if row and row.status is Status.ARCHIVED]

    def _unarchive_selection(self) -> None:
        if ids := self._archived_selected():
            self.unarchive_requested.emit(ids)

    def _snooze(self, until: str) -> None:
        ids = self.selected_ids()
        if ids:
            self.snooze_requested.emit(ids, until)

    def _prioritise(self, priority: int | None) -> None:
        ids = self.selected_ids()
        if ids:
            self.priority_requested.emit(ids, priority)

    def _move(self, ids: list[str], due: str) -> None:
        self.move_requested.emit(ids, due)

    def _on_context_menu_requested(self, position: QPoint) -> None:
        if menu := self.context_menu():
            menu.exec(self.viewport().mapToGlobal(position))
            menu.deleteLater()

    def context_menu(self) -> QMenu | None:
        """The right-click menu for the entries selected; None with none."""
        rows = [row for row in map(self.list_model.row_of, self.selected_ids()) if row]
        if not rows:
            return None
        menu = QMenu(self)
        complete, archive, _tomorrow, *priorities = self._actions
        menu.addAction(complete)
        menu.addAction(archive)
        if self._archived_selected():
            menu.addAction(self._unarchive)
        self._add_snoozes(menu.addMenu(SNOOZE), rows)
        self._add_moves(menu.addMenu(MOVE), rows)
        priority = menu.addMenu("Priority")
        priority.addActions(priorities)
        current = self.currentIndex()
        edit = menu.addAction("Edit summary", partial(self.edit, current))
        edit.setEnabled(self.list_model.row_at(current) is not None)
        return menu

    def _read(self, phrase: str, due: datetime | None = None) -> datetime | None:
        return self._due_reader(phrase, due) if self._due_reader else None

    def _add_snoozes(self, menu: QMenu, rows: list[EntryRow]) -> None:
        """Each snooze, to be picked only if it would hide every entry selected (one due by then has none to hide)."""
        now = rows[0].now
        for choice in SNOOZE_CHOICES:
            until = self._read(choice.phrase)
            action = menu.addAction(choice.label, partial(self._snooze, choice.phrase))
            action.setEnabled(
                until is not None and all(snooze_hides(row.status, row.entry.due_at, until, now) for row in rows)
            )

    def _add_moves(self, menu: QMenu, rows: list[EntryRow]) -> None:
        """Each new due, to be picked if the entries are open and it moves one of them; and a calendar to pick one."""
        ids, open_ = [row.id for row in rows], not any(row.done for row in rows)
        for choice in MOVE_CHOICES:
            dues = [(row.entry.due_at, self._read(choice.phrase, row.entry.due_at)) for row in rows]
            action = menu.addAction(choice.label, partial(self._move, ids, choice.phrase))
            read = all(moved is not None for _, moved in dues)
            action.setEnabled(open_ and read and any(moved != due for due, moved in dues))
        menu.addAction(PICK_DATE, partial(self._pick_due, rows)).setEnabled(open_)

    def _pick_due(self, rows: list[EntryRow]) -> None:
        """The calendar at the first entry's due; its OK moves them all there."""
        tz = rows[0].tz
        picker = due_picker(rows[0].entry.due_at, self._due_reader, tz, self)
        if picker is None:
            return
        picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        ids = [row.id for row in rows]
        picker.accepted.connect(lambda: self._move(ids, written(picker.chosen().replace(tzinfo=tz), tz)))
        picker.open()

    def due_picker(self) -> DuePicker | None:
        """The calendar "Pick a date…" opened, while it is open."""
        return self.findChild(DuePicker)
