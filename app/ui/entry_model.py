"""The entry list as a Qt model (one model, not a widget per row) and its filter proxy.

Rows are sorted overdue first (most overdue first), then by priority (1 first, none last), then newest
first. Inline edits do not write:
they emit `edited(entry_id, fields)`, which the window sends through the service so they are
undoable like the agent's.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor

from app.domain.enums import Category, Status
from app.domain.recurrence import describe
from app.render import when
from app.store.models import Entry
from app.ui.icons import category_icon
from app.ui.jobs import EntrySnapshot
from app.ui.plain_text import plain_tooltip

ENTRY_ID_ROLE = Qt.ItemDataRole.UserRole + 1
OVERDUE_COLOUR = QColor("#c62828")
OPEN_STATUSES = frozenset({Status.ACTIVE, Status.SNOOZED})

Index = QModelIndex | QPersistentModelIndex


class Column(IntEnum):
    SUMMARY = 0
    CATEGORY = 1
    PRIORITY = 2
    DUE = 3
    REPEATS = 4
    SNOOZED = 5
    STATUS = 6
    ID = 7


HEADERS = {
    Column.SUMMARY: "Summary",
    Column.CATEGORY: "Category",
    Column.PRIORITY: "Priority",
    Column.DUE: "Due",
    Column.REPEATS: "Repeats",
    Column.SNOOZED: "Snoozed until",
    Column.STATUS: "Status",
    Column.ID: "ID",
}
# Column -> the field `parse_update_fields` takes for it.
EDITABLE = {Column.SUMMARY: "summary", Column.PRIORITY: "priority", Column.DUE: "due_date", Column.REPEATS: "repeat"}


@dataclass(frozen=True)
class EntryRow:
    """One entry as the list shows it, worked out once per refresh."""

    id: str
    short_id: str
    summary: str
    category: Category
    priority: int | None
    due: str
    due_at: datetime | None
    overdue: bool
    repeats: str
    snoozed_until: str
    status: Status
    created_at: datetime
    haystack: str  # lowercase summary + content + short ID, for the search box

    @classmethod
    def of(cls, entry: Entry, short_id: str, now: datetime, snapshot: EntrySnapshot) -> "EntryRow":
        due = when(entry.due_at, now, snapshot.tz) if entry.due_at else (entry.due_text or "")
        is_open = entry.status in OPEN_STATUSES
        return cls(
            id=entry.id,
            short_id=short_id,
            summary=entry.summary,
            category=entry.category,
            priority=entry.priority,
            due=due if is_open or not due.startswith("overdue ") else due.removeprefix("overdue "),
            due_at=entry.due_at,
            overdue=is_open and entry.due_at is not None and entry.due_at < now,
            repeats=describe(entry.recurrence) if entry.recurrence else "",
            snoozed_until=when(entry.snooze_until, now, snapshot.tz).removeprefix("overdue ")
            if entry.snooze_until and entry.status is Status.SNOOZED
            else "",
            status=entry.status,
            created_at=entry.created_at,
            haystack=f"{entry.summary}\n{entry.content}\n{short_id}".lower(),
        )

    def sort_key(self) -> tuple[bool, float, bool, int, float]:
        # What is late comes first, or a long list hides it at the bottom; a snoozed entry waits as asked.
        late = self.due_at.timestamp() if self.overdue and self.status is Status.ACTIVE and self.due_at else None
        return (late is None, late or 0.0, self.priority is None, self.priority or 0, -self.created_at.timestamp())

    def text(self, column: Column) -> str:
        return {
            Column.SUMMARY: self.summary,
            Column.CATEGORY: self.category.value,
            Column.PRIORITY: f"P{self.priority}" if self.priority else "",
            Column.DUE: self.due,
            Column.REPEATS: self.repeats,
            Column.SNOOZED: self.snoozed_until,
            Column.STATUS: self.status.value,
            Column.ID: self.short_id,
        }[column]


def rows_of(snapshot: EntrySnapshot) -> list[EntryRow]:
    rows = [EntryRow.of(e, snapshot.short_ids.get(e.id, e.id[:6]), snapshot.now, snapshot) for e in snapshot.entries]
    return sorted(rows, key=EntryRow.sort_key)


class EntryTableModel(QAbstractTableModel):
    edited = Signal(str, object)  # entry ID, {field: raw value} for parse_update_fields

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[EntryRow] = []

    def set_snapshot(self, snapshot: EntrySnapshot) -> None:
        self.beginResetModel()
        self._rows = rows_of(snapshot)
        self.endResetModel()

    def row_at(self, row: int) -> EntryRow:
        return self._rows[row]

    def row_of(self, entry_id: str) -> int | None:
        return next((i for i, r in enumerate(self._rows) if r.id == entry_id), None)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[Column(section)]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and Column(index.column()) in EDITABLE:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = self._rows[index.row()], Column(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return row.text(column)
        if role == Qt.ItemDataRole.EditRole:
            return str(row.priority or "") if column is Column.PRIORITY else row.text(column).removeprefix("overdue ")
        if role == Qt.ItemDataRole.DecorationRole and column is Column.SUMMARY:
            return category_icon(row.category)
        if role == Qt.ItemDataRole.ForegroundRole and column is Column.DUE and row.overdue:
            return OVERDUE_COLOUR
        if role == Qt.ItemDataRole.ToolTipRole and column is Column.SUMMARY:
            return plain_tooltip(f"{row.category.value} {row.short_id}: {row.summary}")
        if role == ENTRY_ID_ROLE:
            return row.id
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Ask for the change; the list shows it once the service has applied it."""
        column = Column(index.column())
        if role != Qt.ItemDataRole.EditRole or column not in EDITABLE:
            return False
        text = str(value).strip()
        if text == self.data(index, Qt.ItemDataRole.EditRole):
            return False
        self.edited.emit(self._rows[index.row()].id, {EDITABLE[column]: text or None})
        return False


class EntryFilterModel(QSortFilterProxyModel):
    """Filters by status, category and the search box; keeps the source model's order."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._statuses: frozenset[Status] = OPEN_STATUSES
        self._category: Category | None = None
        self._words: list[str] = []

    def set_statuses(self, statuses: frozenset[Status]) -> None:
        self.beginFilterChange()
        self._statuses = statuses
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_category(self, category: Category | None) -> None:
        self.beginFilterChange()
        self._category = category
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_search(self, text: str) -> None:
        self.beginFilterChange()
        self._words = text.lower().split()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, EntryTableModel)
        row = model.row_at(source_row)
        return (
            row.status in self._statuses
            and (self._category is None or row.category is self._category)
            and all(word in row.haystack for word in self._words)
        )

    def entry_id(self, index: Index) -> str:
        return str(self.data(index, ENTRY_ID_ROLE))
