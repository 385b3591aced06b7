"""The slim list of places on the window's left: Today, Upcoming, All, each category, Done, Archived, then
Inbox (with its count), History, Usage and Memory. Narrow windows get the icons alone, each named by its
tooltip and for screen readers; a short window scrolls the places, with a scroll bar that shows there are more."""

from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QResizeEvent
from PySide6.QtWidgets import QFrame, QListWidget, QListWidgetItem, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from app.domain.enums import Category
from app.ui.entry_sections import View
from app.ui.icons import category_icon, view_icon
from app.ui.theme import colours

COUNT_ROLE = Qt.ItemDataRole.UserRole + 1
KEY_ROLE = Qt.ItemDataRole.UserRole + 2
WIDE = 176
NARROW = 48
PLURALS = {category: f"{category.value.capitalize()}s" for category in Category}


@dataclass(frozen=True)
class Place:
    """One sidebar row: an entry view (maybe of one category) or another page, by key."""

    key: str
    title: str
    view: View | None = None
    category: Category | None = None

    @property
    def icon(self) -> QIcon:
        return category_icon(self.category) if self.category else view_icon(self.key)


PLACES = (
    [Place("today", "Today", View.TODAY), Place("upcoming", "Upcoming", View.UPCOMING), Place("all", "All", View.ALL)]
    + [Place(category.value, PLURALS[category], View.ALL, category) for category in Category]
    + [Place("done", "Done", View.DONE), Place("archived", "Archived", View.ARCHIVED)]
    + [Place(key, key.capitalize()) for key in ("inbox", "history", "usage", "memory")]
)


def is_narrow(option: QStyleOptionViewItem) -> bool:
    return option.rect.width() < WIDE - 20


class SidebarDelegate(QStyledItemDelegate):
    """Draws the count as a badge on the right (Inbox), or on the icon when the sidebar is narrow."""

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        narrow = is_narrow(option)
        super().paint(painter, option, index)
        count = index.data(COUNT_ROLE)
        if not count:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont(option.font)
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        font.setBold(True)
        painter.setFont(font)
        text = str(count)
        width = max(18, painter.fontMetrics().horizontalAdvance(text) + 10)
        right = option.rect.right() - (2 if narrow else 8)
        top = option.rect.top() + (2 if narrow else (option.rect.height() - 18) // 2)
        badge = QRect(right - width, top, width, 18)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colours().badge)
        painter.drawRoundedRect(badge, 9, 9)
        painter.setPen(QColor("white"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if is_narrow(option):
            option.text = ""  # the icon alone; its name is in the tooltip
            option.decorationAlignment = Qt.AlignmentFlag.AlignCenter

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        return QSize(hint.width(), max(hint.height(), 28))


class Sidebar(QListWidget):
    place_chosen = Signal(object)  # the Place

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setAccessibleName("Views")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setItemDelegate(SidebarDelegate(self))
        self.setIconSize(QSize(16, 16))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._places: dict[str, Place] = {}
        for place in PLACES:
            item = QListWidgetItem(place.icon, place.title)
            item.setData(KEY_ROLE, place.key)
            item.setToolTip(place.title)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, place.title)  # what a reader says, icons alone or not
            self.addItem(item)
            self._places[place.key] = place
        self.currentItemChanged.connect(self._on_current_item_changed)
        self.set_narrow(False)

    def set_narrow(self, narrow: bool) -> None:
        # Icons alone still get their scroll bar when the window is too short for every place: without it
        # nothing says the places below the edge are there. The icons are centred in what the bar leaves.
        self.setFixedWidth(NARROW if narrow else WIDE)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if item := self.currentItem():  # a window made shorter keeps the place it shows in sight
            self.scrollToItem(item)

    def choose(self, key: str) -> None:
        item = self._item(key)
        self.setCurrentItem(item or self.item(0))

    def chosen(self) -> Place:
        item = self.currentItem()
        return self._places[item.data(KEY_ROLE)] if item else PLACES[0]

    def set_count(self, key: str, count: int) -> None:
        item = self._item(key)
        if item:
            item.setData(COUNT_ROLE, count)
            title = self._places[key].title
            item.setToolTip(f"{title}: {count}" if count else title)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{title}, {count}" if count else title)

    def _item(self, key: str) -> QListWidgetItem | None:
        return next((self.item(i) for i in range(self.count()) if self.item(i).data(KEY_ROLE) == key), None)

    def _on_current_item_changed(self, current: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        if current is not None:
            self.place_chosen.emit(self._places[current.data(KEY_ROLE)])
