"""The entry table: double-click edits inline; the context menu and keys complete, archive, snooze
and change priority. It only asks (signals); the window's owner applies through the service."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QStyle, QTableView, QWidget

from app.ui.entry_model import Column, EntryFilterModel

SNOOZE_CHOICES = ("in 1 hour", "this evening", "tomorrow", "next week")
ROW_HEIGHT = 26
MIN_ROWS_SHOWN = 3  # a small window squeezes the rest of the window before the list


@dataclass(frozen=True)
class KeptView:
    """What the user had picked and where, by entry ID, across a model reset."""

    selected: list[str] = field(default_factory=list)
    current: str | None = None
    scrolled: int = 0
    current_in_view: bool = False
    row: int = 0  # the current row, and its unselected neighbours: who takes its place if it leaves
    after: str | None = None
    before: str | None = None


class EntryView(QTableView):
    complete_requested = Signal(list)  # entry IDs
    archive_requested = Signal(list)
    snooze_requested = Signal(list, str)  # entry IDs, until (words: "tomorrow")
    priority_requested = Signal(list, object)  # entry IDs, 1-5 or None

    def __init__(self, proxy: EntryFilterModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proxy = proxy
        self.setModel(proxy)
        self.setObjectName("entries")
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        scroll_bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        header_height = self.horizontalHeader().sizeHint().height()
        self.setMinimumHeight(header_height + MIN_ROWS_SHOWN * ROW_HEIGHT + scroll_bar + 2 * self.frameWidth())
        header = self.horizontalHeader()
        header.setSectionResizeMode(Column.SUMMARY, QHeaderView.ResizeMode.Stretch)
        widths = {Column.CATEGORY: 76, Column.PRIORITY: 56, Column.DUE: 140, Column.REPEATS: 130, Column.SNOOZED: 110}
        for column, width in (widths | {Column.STATUS: 74, Column.ID: 64}).items():
            self.setColumnWidth(column, width)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_context_menu_requested)
        self._actions = self._make_actions()
        self.addActions(self._actions)
        # Each refresh resets the model, and a reset forgets the selection: a refresh for another process's
        # commit comes unasked, so the rows the user picked, and where they scrolled, are kept by ID.
        self._kept = KeptView()
        proxy.modelAboutToBeReset.connect(self._on_proxy_model_about_to_be_reset)
        proxy.modelReset.connect(self._on_proxy_model_reset)

    def selected_ids(self) -> list[str]:
        return [self.proxy.entry_id(index) for index in self.selectionModel().selectedRows()]

    def _on_proxy_model_about_to_be_reset(self) -> None:
        current = self.currentIndex()
        if not current.isValid():
            self._kept = KeptView(self.selected_ids(), scrolled=self.verticalScrollBar().value())
            return
        picked = {index.row() for index in self.selectionModel().selectedRows()}
        after = next((row for row in range(current.row() + 1, self.proxy.rowCount()) if row not in picked), None)
        before = next((row for row in range(current.row() - 1, -1, -1) if row not in picked), None)
        self._kept = KeptView(
            self.selected_ids(),
            self.proxy.entry_id(current),
            self.verticalScrollBar().value(),
            self.viewport().rect().intersects(self.visualRect(current)),
            current.row(),
            None if after is None else self.proxy.entry_id(self.proxy.index(after, 0)),
            None if before is None else self.proxy.entry_id(self.proxy.index(before, 0)),
        )

    def _on_proxy_model_reset(self) -> None:
        kept = self._kept
        rows = {self.proxy.entry_id(self.proxy.index(row, 0)): row for row in range(self.proxy.rowCount())}
        if kept.selected or kept.current:
            selection = QItemSelection()
            for row in (rows[entry_id] for entry_id in kept.selected if entry_id in rows):
                selection.select(self.proxy.index(row, 0), self.proxy.index(row, self.proxy.columnCount() - 1))
            flags = QItemSelectionModel.SelectionFlag.NoUpdate
            if kept.current in rows:
                self.selectionModel().setCurrentIndex(self.proxy.index(rows[kept.current], 0), flags)
            self.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.updateGeometries()  # the scroll range follows the new rows now, not at the next layout
        self.verticalScrollBar().setValue(kept.scrolled)
        if kept.selected and not self.selectionModel().hasSelection() and self.proxy.rowCount():
            # The picked rows left the list (completed, archived): the keys go on with the row in their place.
            row = rows.get(kept.after or "", rows.get(kept.before or "", min(kept.row, self.proxy.rowCount() - 1)))
            self.select_row(row)
        elif kept.current in rows and kept.current_in_view:  # an edit re-sorted it: it stays in sight
            self.scrollTo(self.currentIndex())

    def select_row(self, row: int) -> None:
        """Make `row` the one selected and current, and scroll it into view."""
        index = self.proxy.index(row, 0)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.selectionModel().setCurrentIndex(index, flags)
        self.scrollTo(index)

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

    def _edit_summary(self) -> None:
        self.edit(self.currentIndex().siblingAtColumn(Column.SUMMARY))

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
        edit = menu.addAction("Edit summary", self._edit_summary)
        edit.setEnabled(self.currentIndex().isValid())
        menu.exec(self.viewport().mapToGlobal(position))
