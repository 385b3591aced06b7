"""The entry list as a Qt model: sections (Overdue, Today, …) holding entry rows, and its filter proxy.

One model, not a widget per row, so 10,000 entries stay quick. Within a section, dated entries go
soonest first, undated by priority (1 first) then newest, done ones latest first. Edits do not write:
`edited(entry_id, fields)` and `check_requested(entry_id, checked)` go through the service, so they are
undoable like the agent's.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)

from app.domain.enums import Category, Status
from app.domain.recurrence import describe
from app.store.models import Entry
from app.ui.entry_sections import (
    EVERY_PART,
    OPEN_STATUSES,
    VIEW_PARTS,
    Part,
    Section,
    View,
    planned_for,
    relative_due,
    section_of,
)
from app.ui.jobs import EntrySnapshot

ENTRY_ID_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2  # the EntryRow, for the painting delegate
SECTION_ROLE = Qt.ItemDataRole.UserRole + 3  # the Section of a header row

Index = QModelIndex | QPersistentModelIndex
NO_PRIORITY = 9  # sorts after 1-5
DATED = frozenset({Part.OVERDUE, Part.TODAY, Part.TOMORROW, Part.DAY, Part.LATER})


@dataclass(frozen=True)
class EntryRow:
    """One entry as the list shows it, worked out once per refresh."""

    id: str
    short_id: str
    summary: str
    content: str
    category: Category
    priority: int | None
    due: str  # relative: "in 20 min", "Tomorrow 9:00"; or the words no date was read from
    due_exact: str  # the tooltip's "Thursday 26 November 2026, 15:00"
    overdue: bool
    repeats: str  # the rule in words, "" for none
    status: Status
    section: Section
    order: tuple[float, int, float]
    haystack: str  # lowercase summary + content + short ID, for the search box

    @property
    def done(self) -> bool:
        return self.status in (Status.COMPLETED, Status.ARCHIVED)

    @classmethod
    def of(cls, entry: Entry, short_id: str, now: datetime, tz: ZoneInfo) -> "EntryRow":
        section = section_of(entry, now, tz)
        moment = planned_for(entry) if entry.status in OPEN_STATUSES else entry.due_at
        due = relative_due(moment, now, tz) if moment else (entry.due_text or "")
        if entry.status is Status.SNOOZED and entry.snooze_until:
            due = f"Snoozed · {due}"
        return cls(
            id=entry.id,
            short_id=short_id,
            summary=entry.summary,
            content=entry.content,
            category=entry.category,
            priority=entry.priority,
            due=due,
            due_exact=f"{moment.astimezone(tz):%A %d %B %Y, %H:%M}" if moment else "",
            overdue=section.part is Part.OVERDUE,
            repeats=describe(entry.recurrence) if entry.recurrence else "",
            status=entry.status,
            section=section,
            order=_order(entry, section, moment),
            haystack=f"{entry.summary}\n{entry.content}\n{short_id}".lower(),
        )


def _order(entry: Entry, section: Section, moment: datetime | None) -> tuple[float, int, float]:
    newest_first = -entry.created_at.timestamp()
    priority = entry.priority or NO_PRIORITY
    if section.part in DATED and moment:
        return (moment.timestamp(), priority, newest_first)
    if section.part is Part.SOMEDAY:
        return (0.0, priority, newest_first)
    finished = entry.completed_at or entry.updated_at
    return (-finished.timestamp(), priority, newest_first)


def grouped(snapshot: EntrySnapshot) -> list[tuple[Section, list[EntryRow]]]:
    groups: dict[Section, list[EntryRow]] = {}
    for entry in snapshot.entries:
        row = EntryRow.of(entry, snapshot.short_ids.get(entry.id, entry.id[:6]), snapshot.now, snapshot.tz)
        groups.setdefault(row.section, []).append(row)
    return [(section, sorted(groups[section], key=lambda r: r.order)) for section in sorted(groups)]


class EntryListModel(QAbstractItemModel):
    """Two levels: a header row per section (internal ID 0), its entries below (internal ID section + 1)."""

    edited = Signal(str, object)  # entry ID, {field: raw value} for parse_update_fields
    check_requested = Signal(str, bool)  # entry ID, ticked (complete it) or unticked (open it again)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._groups: list[tuple[Section, list[EntryRow]]] = []
        self._where: dict[str, tuple[int, int]] = {}
        self.total = 0  # entries of every status, for the first-run empty state

    def set_snapshot(self, snapshot: EntrySnapshot) -> None:
        self.beginResetModel()
        self._groups = grouped(snapshot)
        self._where = {row.id: (s, r) for s, (_, rows) in enumerate(self._groups) for r, row in enumerate(rows)}
        self.total = len(snapshot.entries)
        self.endResetModel()

    def index_of(self, entry_id: str) -> QModelIndex:
        where = self._where.get(entry_id)
        return QModelIndex() if where is None else self.createIndex(where[1], 0, where[0] + 1)

    def row_at(self, index: Index) -> EntryRow | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        return self._groups[index.internalId() - 1][1][index.row()]

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column != 0 or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, 0, 0) if row < len(self._groups) else QModelIndex()
        if parent.internalId() == 0 and row < len(self._groups[parent.row()][1]):
            return self.createIndex(row, 0, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: Index) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        if not parent.isValid():
            return len(self._groups)
        return len(self._groups[parent.row()][1]) if parent.internalId() == 0 else 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 1

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if index.internalId() == 0:
            return Qt.ItemFlag.ItemIsEnabled
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsEditable
            | Qt.ItemFlag.ItemIsUserCheckable
        )

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.row_at(index)
        if row is None:
            section = self._groups[index.row()][0]
            return section.title if role == Qt.ItemDataRole.DisplayRole else section if role == SECTION_ROLE else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return row.summary
        if role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if row.done else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return ", ".join(part for part in (row.summary, row.category.value, row.due, row.status.value) if part)
        if role == ENTRY_ID_ROLE:
            return row.id
        if role == ROW_ROLE:
            return row
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Ask for the change; the list shows it once the service has applied it."""
        row = self.row_at(index)
        if row is None:
            return False
        if role == Qt.ItemDataRole.CheckStateRole:
            self.check_requested.emit(row.id, Qt.CheckState(value) == Qt.CheckState.Checked)
        elif role == Qt.ItemDataRole.EditRole and (text := str(value).strip()) and text != row.summary:
            self.edited.emit(row.id, {"summary": text})
        return False


class EntryFilterModel(QSortFilterProxyModel):
    """Shows one view (Today, Upcoming, All, Done; maybe one category) or, while searching, every entry
    matching all the words; a section shows only when some of its entries do."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self._parts = VIEW_PARTS[View.ALL]
        self._view = View.ALL
        self._category: Category | None = None
        self.words: list[str] = []

    def set_view(self, view: View, category: Category | None = None) -> None:
        self.beginFilterChange()
        self._view, self._category = view, category
        self._parts = EVERY_PART if self.words else VIEW_PARTS[view]
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_search(self, text: str) -> None:
        self.beginFilterChange()
        self.words = text.lower().split()
        self._parts = EVERY_PART if self.words else VIEW_PARTS[self._view]
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not source_parent.isValid():
            return False  # a section header: shown for its entries (recursive filtering)
        model = self.sourceModel()
        assert isinstance(model, EntryListModel)
        row = model.row_at(model.index(source_row, 0, source_parent))
        return (
            row is not None
            and row.section.part in self._parts
            and (self._category is None or row.category is self._category)
            and all(word in row.haystack for word in self.words)
        )

    def entry_id(self, index: Index) -> str:
        return str(self.data(index, ENTRY_ID_ROLE))

    def row_at(self, index: Index) -> EntryRow | None:
        row = self.data(index, ROW_ROLE)
        return row if isinstance(row, EntryRow) else None

    def index_of(self, entry_id: str) -> QModelIndex:
        model = self.sourceModel()
        assert isinstance(model, EntryListModel)
        return self.mapFromSource(model.index_of(entry_id))

    def entry_indexes(self) -> list[QModelIndex]:
        """Every entry row shown, top to bottom."""
        shown: list[QModelIndex] = []
        for s in range(self.rowCount()):
            section = self.index(s, 0)
            shown.extend(self.index(r, 0, section) for r in range(self.rowCount(section)))
        return shown
