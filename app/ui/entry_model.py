"""The entry list as one flat Qt model: a header row per section (Overdue, Today, …) followed by its
entries, for the chosen view, category and search, with folded sections left out.

Flat and filtered in Python so that 10,000 entries stay quick: the list view asks Qt nothing per row
beyond those painted (a tree or a filter proxy calls back into Python for every row on each change).
A refresh that leaves every line in its place updates the rows (dataChanged) instead of resetting the model.
Edits do not write: `edited(entry_id, fields)` and `check_requested(entry_id, checked)` go through the
service, so they are undoable like the agent's.
"""

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal

from app.domain.enums import Category
from app.ui.entry_sections import EVERY_PART, SORT_KEYS, VIEW_PARTS, EntryRow, Part, Section, Sort, View
from app.ui.jobs import EntrySnapshot

ENTRY_ID_ROLE = Qt.ItemDataRole.UserRole + 1
ROW_ROLE = Qt.ItemDataRole.UserRole + 2  # the EntryRow, for the painting delegate
HEADER_ROLE = Qt.ItemDataRole.UserRole + 3  # the Header of a section's row

Index = QModelIndex | QPersistentModelIndex
ENTRY_FLAGS = (
    Qt.ItemFlag.ItemIsEnabled
    | Qt.ItemFlag.ItemIsSelectable
    | Qt.ItemFlag.ItemIsEditable
    | Qt.ItemFlag.ItemIsUserCheckable
)


@dataclass(frozen=True)
class Header:
    """A section's row: its title, how many of its entries match, and whether it is folded."""

    section: Section
    count: int
    folded: bool


class EntryListModel(QAbstractListModel):
    folds_changed = Signal()  # a section was folded or unfolded: `folded` says which are
    edited = Signal(str, object)  # entry ID, {field: raw value} for parse_update_fields
    check_requested = Signal(str, bool)  # entry ID, ticked (complete it) or unticked (open it again)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._due_order: list[tuple[Section, list[EntryRow]]] = []
        self._groups: list[tuple[Section, list[EntryRow]]] = []  # the same, each section's rows as sorted
        self._lines: list[Header | EntryRow] = []
        self._where: dict[str, int] = {}  # entry ID -> its line
        self._view: View = View.ALL
        self._category: Category | None = None
        self.words: list[str] = []
        self.sorted_by = Sort.DUE
        self.folded: set[str] = set()  # the keys of the sections folded
        self.total = 0  # entries of every status, for the first-run empty state

    def set_snapshot(self, snapshot: EntrySnapshot) -> None:
        self._due_order = snapshot.groups
        self.total = len(snapshot.entries)
        self._sort_groups()

    def _sort_groups(self) -> None:
        """The groups in the order chosen, once per read or choice (a search's keystrokes only filter them)."""
        key = SORT_KEYS[self.sorted_by]
        by_due = self.sorted_by is Sort.DUE  # the rows come in due order
        self._groups = [(section, rows if by_due else sorted(rows, key=key)) for section, rows in self._due_order]
        self._relist()

    def set_view(self, view: View, category: Category | None = None) -> None:
        self._view, self._category = view, category
        self._relist()

    def set_search(self, text: str) -> None:
        self.words = text.lower().split()
        self._relist()

    def set_sort(self, sort: Sort) -> None:
        self.sorted_by = sort
        self._sort_groups()

    def set_folded(self, section: Section, folded: bool) -> None:
        (self.folded.add if folded else self.folded.discard)(section.key)
        self._relist()
        self.folds_changed.emit()

    def restore_folded(self, keys: set[str]) -> None:
        """The sections folded when the list was last shown, by key."""
        self.folded = set(keys)
        self._relist()

    def _relist(self) -> None:
        parts = EVERY_PART if self.words else VIEW_PARTS[self._view]
        lines: list[Header | EntryRow] = []
        for section, rows in self._groups:
            if section.part not in parts:
                continue
            shown = [
                row
                for row in rows
                if (self._category is None or row.category is self._category)
                and all(word in row.haystack for word in self.words)
            ]
            if shown:
                folded = section.key in self.folded
                lines.append(Header(section, len(shown), folded))
                lines.extend([] if folded else shown)
        if lines and _same_layout(self._lines, lines):  # rows changed in place: the view keeps selection and scroll
            self._lines = lines
            self.dataChanged.emit(self.index(0, 0), self.index(len(lines) - 1, 0))
            return
        self.beginResetModel()
        self._lines = lines
        self._where = {line.id: i for i, line in enumerate(lines) if isinstance(line, EntryRow)}
        self.endResetModel()

    def rows_in(self, parts: frozenset[Part]) -> list[EntryRow]:
        """Every entry of these sections, whatever the view shows, in the list's order."""
        return [row for section, rows in self._groups if section.part in parts for row in rows]

    def entry_ids(self) -> list[str]:
        """The entries listed, top to bottom."""
        return list(self._where)

    def index_of(self, entry_id: str) -> QModelIndex:
        line = self._where.get(entry_id)
        return QModelIndex() if line is None else self.index(line, 0)

    def row_at(self, index: Index) -> EntryRow | None:
        line = self._lines[index.row()] if index.isValid() else None
        return line if isinstance(line, EntryRow) else None

    def row_of(self, entry_id: str) -> EntryRow | None:
        line = self._where.get(entry_id)
        return None if line is None else self.row_at(self.index(line, 0))

    def header_at(self, index: Index) -> Header | None:
        line = self._lines[index.row()] if index.isValid() else None
        return line if isinstance(line, Header) else None

    def entry_id(self, index: Index) -> str:
        row = self.row_at(index)
        return row.id if row else ""

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._lines)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return ENTRY_FLAGS if isinstance(self._lines[index.row()], EntryRow) else Qt.ItemFlag.ItemIsEnabled

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        line = self._lines[index.row()]
        if isinstance(line, Header):
            if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
                return f"{line.section.title}, {line.count}" + (", folded" if line.folded else "")
            return line if role == HEADER_ROLE else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return line.summary
        if role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if line.done else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.AccessibleTextRole:
            done = f"{line.progress} done" if line.items else ""
            parts = (line.summary, done, line.category.value, line.due, line.status.value)
            return ", ".join(part for part in parts if part)
        if role == ENTRY_ID_ROLE:
            return line.id
        if role == ROW_ROLE:
            return line
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


def _same_layout(old: list[Header | EntryRow], new: list[Header | EntryRow]) -> bool:
    """The same headers and the same entries in the same places, whatever the entries now say."""
    return len(old) == len(new) and all(
        a.id == b.id if isinstance(a, EntryRow) and isinstance(b, EntryRow) else a == b
        for a, b in zip(old, new, strict=True)
    )
