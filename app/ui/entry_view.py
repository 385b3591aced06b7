"""The entry list: sections with their entries, keyboard first. Space ticks off, Enter edits the summary,
the arrows skip section headers; the context menu and keys archive, snooze and change priority.
It only asks (signals); the window's owner applies through the service."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    Qt,
    Signal,
    SignalInstance,
)
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QMenu, QTreeView, QWidget

from app.ui.entry_delegate import ROW_HEIGHT, EntryDelegate
from app.ui.entry_model import SECTION_ROLE, EntryFilterModel
from app.ui.entry_sections import Part

SNOOZE_CHOICES = ("in 1 hour", "this evening", "tomorrow", "next week")
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


class EntryView(QTreeView):
    complete_requested = Signal(list)  # entry IDs
    archive_requested = Signal(list)
    snooze_requested = Signal(list, str)  # entry IDs, until (words: "tomorrow")
    priority_requested = Signal(list, object)  # entry IDs, 1-5 or None

    def __init__(self, proxy: EntryFilterModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proxy = proxy
        # Each refresh resets the model, and a reset forgets the selection: a refresh for another process's
        # commit comes unasked, so the rows the user picked, and where they scrolled, are kept by ID. This
        # looks before the view's own handler forgets where the rows were: connected before setModel.
        self._kept = KeptView()
        proxy.modelAboutToBeReset.connect(self._on_proxy_model_about_to_be_reset)
        self.setModel(proxy)
        self.setObjectName("entries")
        self.setAccessibleName("Entries")
        self.setItemDelegate(EntryDelegate(proxy, self))
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setIndentation(0)
        self.setUniformRowHeights(True)
        self.setMouseTracking(True)
        self.setItemsExpandable(True)
        self.setExpandsOnDoubleClick(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setMinimumHeight(MIN_ROWS_SHOWN * ROW_HEIGHT + 2 * ROW_HEIGHT + 2 * self.frameWidth())
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_context_menu_requested)
        self.clicked.connect(self._on_clicked)
        self.collapsed.connect(self._on_collapsed)
        self.expanded.connect(self._on_expanded)
        self._actions = self._make_actions()
        self.addActions(self._actions)
        self.folded: set[Part] = set()  # sections the user closed; the others open as they appear
        proxy.modelReset.connect(self._on_proxy_model_reset)
        proxy.rowsInserted.connect(self._on_proxy_rows_inserted)
        proxy.layoutChanged.connect(self.open_sections)

    def selected_ids(self) -> list[str]:
        return [
            self.proxy.entry_id(index) for index in self.selectionModel().selectedRows() if index.parent().isValid()
        ]

    def entry_ids(self) -> list[str]:
        """The entries shown, top to bottom."""
        return [self.proxy.entry_id(index) for index in self.proxy.entry_indexes()]

    def open_sections(self) -> None:
        for s in range(self.proxy.rowCount()):
            section = self.proxy.index(s, 0)
            part = self.proxy.data(section, SECTION_ROLE).part
            self.setExpanded(section, part not in self.folded)

    def _on_proxy_rows_inserted(self, parent: QModelIndex, _first: int, _last: int) -> None:
        if not parent.isValid():
            self.open_sections()

    def _on_collapsed(self, index: QModelIndex) -> None:
        self.folded.add(self.proxy.data(index, SECTION_ROLE).part)

    def _on_expanded(self, index: QModelIndex) -> None:
        self.folded.discard(self.proxy.data(index, SECTION_ROLE).part)

    def _on_clicked(self, index: QModelIndex) -> None:
        if not index.parent().isValid():  # a section header folds and unfolds
            self.setExpanded(index, not self.isExpanded(index))

    def _on_proxy_model_about_to_be_reset(self) -> None:
        current = self.currentIndex()
        if not current.isValid() or not current.parent().isValid():
            self._kept = KeptView(self.selected_ids(), scrolled=self.verticalScrollBar().value())
            return
        shown = self.entry_ids()
        done = {row.id for row in (self.proxy.row_at(i) for i in self.proxy.entry_indexes()) if row and row.done}
        picked = set(self.selected_ids())
        at = shown.index(self.proxy.entry_id(current))
        # An open entry's stand-in is open too: the done ones below are not where the keys left off.
        passed = picked | (done if shown[at] not in done else set())
        self._kept = KeptView(
            list(picked),
            frozenset(picked - done),
            shown[at],
            self.verticalScrollBar().value(),
            self.viewport().rect().intersects(self.visualRect(current)),
            at,
            next((entry for entry in shown[at + 1 :] if entry not in passed), None),
            next((entry for entry in reversed(shown[:at]) if entry not in passed), None),
        )

    def _on_proxy_model_reset(self) -> None:
        self.open_sections()
        kept = self._kept
        if kept.selected or kept.current:
            selection = QItemSelection()
            for index in (self.proxy.index_of(entry_id) for entry_id in kept.selected if self._still_picked(entry_id)):
                if index.isValid():
                    selection.select(index, index)
            current = self.proxy.index_of(kept.current or "")
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
        row = self.proxy.row_at(self.proxy.index_of(entry_id))
        return row is not None and not (row.done and entry_id in self._kept.open_selected)

    def select_entry(self, entry_id: str) -> bool:
        """Make the entry the one selected and current, and scroll it into view, if the list shows it."""
        index = self.proxy.index_of(entry_id)
        if not index.isValid():
            return False
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.selectionModel().setCurrentIndex(index, flags)
        self.scrollTo(index)
        return True

    def moveCursor(self, cursorAction: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier) -> QModelIndex:
        """Up and down go from entry to entry: the section headers are passed over."""
        moved = super().moveCursor(cursorAction, modifiers)
        start = self.currentIndex()
        while moved.isValid() and not moved.parent().isValid() and moved != start:
            start, moved = moved, self._step(moved, cursorAction)
        return moved if moved.isValid() and moved.parent().isValid() else self.currentIndex()

    def _step(self, index: QModelIndex, action: QAbstractItemView.CursorAction) -> QModelIndex:
        upward = action in (
            QAbstractItemView.CursorAction.MoveUp,
            QAbstractItemView.CursorAction.MovePageUp,
            QAbstractItemView.CursorAction.MoveHome,
        )
        return self.indexAbove(index) if upward else self.indexBelow(index)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        current = self.currentIndex()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and current.parent().isValid():
            self.edit(current)
        elif event.key() == Qt.Key.Key_Space and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            self._tick_selection()
        else:
            super().keyPressEvent(event)

    def _tick_selection(self) -> None:
        """Space: the selected entries are done (or, all done already, open again)."""
        indexes = [i for i in self.selectionModel().selectedRows() if i.parent().isValid()]
        rows = [row for row in (self.proxy.row_at(i) for i in indexes) if row]
        if rows and all(row.done for row in rows):
            for index in indexes:
                self.proxy.setData(index, Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
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

    def _snooze(self, until: str) -> None:
        ids = self.selected_ids()
        if ids:
            self.snooze_requested.emit(ids, until)

    def _prioritise(self, priority: int | None) -> None:
        ids = self.selected_ids()
        if ids:
            self.priority_requested.emit(ids, priority)

    def _on_context_menu_requested(self, position: QPoint) -> None:
        if not self.selected_ids():
            return
        menu = QMenu(self)
        complete, archive, _tomorrow, *priorities = self._actions
        menu.addAction(complete)
        menu.addAction(archive)
        snooze = menu.addMenu("Snooze")
        for until in SNOOZE_CHOICES:
            snooze.addAction(f"Until {until}", partial(self._snooze, until))
        priority = menu.addMenu("Priority")
        priority.addActions(priorities)
        current = self.currentIndex()
        edit = menu.addAction("Edit summary", partial(self.edit, current))
        edit.setEnabled(current.isValid() and current.parent().isValid())
        menu.exec(self.viewport().mapToGlobal(position))
