"""Paints the list's rows: a section header (title, count, fold arrow), or an entry as a checkbox, its
category icon, the summary (search matches in bold, struck through when done), a checklist's progress
after it ("2 of 4") and chips on the right: priority flag, repeat mark, relative due (red when overdue).
Each part has its own tooltip."""

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHelpEvent, QMouseEvent, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionButton,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from app.domain.actions import PRIORITY_NAMES
from app.ui.entry_model import HEADER_ROLE, ROW_ROLE, EntryListModel, Header
from app.ui.entry_sections import EntryRow, Part
from app.ui.icons import category_icon
from app.ui.plain_text import plain_tooltip
from app.ui.theme import colours

ROW_HEIGHT = 32
COMPACT_ROW_HEIGHT = 28  # in a short window: the chips (20) and the checkbox (16) still fit
MARGIN = 10
GAP = 8
BOX = 16  # checkbox and icons
FLAG_WIDTH = 12
REPEAT_MARK = "↻"

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class RowLayout:
    """Where each part of an entry row goes, shared by painting, clicks and tooltips."""

    check: QRect
    icon: QRect
    summary: QRect  # the summary's text, cut to leave room for the progress
    progress: QRect | None  # "2 of 4", right after the summary
    flag: QRect | None
    repeat: QRect | None
    due: QRect | None

    @classmethod
    def of(cls, rect: QRect, row: EntryRow, metrics: QFontMetrics) -> "RowLayout":
        middle = rect.center().y()
        check = QRect(rect.left() + MARGIN, middle - BOX // 2, BOX, BOX)
        icon = QRect(check.right() + GAP, middle - BOX // 2, BOX, BOX)
        right = rect.right() - MARGIN
        due = repeat = flag = None
        if row.due:
            width = metrics.horizontalAdvance(row.due) + 2 * 6
            due = QRect(right - width, middle - 10, width, 20)
            right = due.left() - GAP
        if row.repeats:
            width = metrics.horizontalAdvance(REPEAT_MARK)
            repeat = QRect(right - width, rect.top(), width, rect.height())
            right = repeat.left() - GAP
        if row.priority:
            flag = QRect(right - FLAG_WIDTH, middle - 7, FLAG_WIDTH, 14)
            right = flag.left() - GAP
        summary = QRect(icon.right() + GAP, rect.top(), max(0, right - icon.right() - GAP), rect.height())
        progress = None
        if row.progress:
            width = metrics.horizontalAdvance(row.progress)
            text = max(0, min(metrics.horizontalAdvance(row.summary), summary.width() - width - GAP))
            progress = QRect(summary.left() + text + GAP, rect.top(), width, rect.height())
            summary.setWidth(text)
        return cls(check, icon, summary, progress, flag, repeat, due)

    @property
    def editable(self) -> QRect:
        """Where the summary's editor goes: the summary's room, the progress's too."""
        return self.summary.united(self.progress) if self.progress else self.summary

    def tooltip(self, at: QPoint, row: EntryRow) -> str:
        """The words for what is under the pointer, always as plain text: a due's words are the user's."""
        return plain_tooltip(self._explain(at, row))

    def _explain(self, at: QPoint, row: EntryRow) -> str:
        if self.due and self.due.contains(at):
            return ("Overdue since " if row.overdue else "Due ") + (row.due_exact or f"“{row.due}” (no date read)")
        if self.repeat and self.repeat.contains(at):
            return f"Repeats {row.repeats}"
        if self.progress and self.progress.contains(at):
            return f"{row.progress} items done"
        if self.flag and self.flag.contains(at) and row.priority:
            return f"Priority {row.priority} ({PRIORITY_NAMES.get(row.priority, '')})"
        if self.check.contains(at):
            return "Mark as not done" if row.done else "Mark as done (Space)"
        if self.icon.contains(at):
            return row.category.value.capitalize()
        return row.content or row.summary


class EntryDelegate(QStyledItemDelegate):
    def __init__(self, model: EntryListModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.row_height = ROW_HEIGHT

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return QSize(200, self.row_height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        header = index.data(HEADER_ROLE)
        if isinstance(header, Header):
            self._paint_header(painter, option, header)
            return
        row = index.data(ROW_ROLE)
        if not isinstance(row, EntryRow):
            return
        style = option.widget.style() if option.widget else None
        if style is None:
            return
        self.initStyleOption(option, index)
        option.text = ""
        option.icon = category_icon(row.category)  # drawn below, not by the style
        option.features &= ~QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, option.widget)
        layout = RowLayout.of(option.rect, row, option.fontMetrics)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text_colour = option.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        muted = option.palette.color(QPalette.ColorRole.PlaceholderText)
        painter.save()
        box = QStyleOptionButton()
        box.rect = layout.check
        box.state = QStyle.StateFlag.State_Enabled | (
            QStyle.StateFlag.State_On if row.done else QStyle.StateFlag.State_Off
        )
        style.drawPrimitive(QStyle.PrimitiveElement.PE_IndicatorCheckBox, box, painter, option.widget)
        category_icon(row.category).paint(painter, layout.icon)
        self._paint_summary(painter, option, layout.summary, row, muted if row.done else text_colour)
        if layout.progress:
            painter.setFont(option.font)
            painter.setPen(text_colour if selected else muted)
            painter.drawText(layout.progress, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, row.progress)
        if layout.flag and row.priority:
            palette = colours()
            self._paint_flag(painter, layout.flag, palette.flags.get(row.priority, palette.muted))
        if layout.repeat:
            painter.setPen(text_colour if selected else muted)
            painter.drawText(layout.repeat, Qt.AlignmentFlag.AlignCenter, REPEAT_MARK)
        if layout.due:
            self._paint_due(painter, option, layout.due, row, selected)
        painter.restore()

    def _paint_header(self, painter: QPainter, option: QStyleOptionViewItem, header: Header) -> None:
        painter.save()
        font = QFont(option.font)
        font.setBold(True)
        painter.setFont(font)
        section = header.section
        colour = colours().overdue if section.part is Part.OVERDUE else option.palette.color(QPalette.ColorRole.Text)
        arrow, count = "▸" if header.folded else "▾", header.count
        text_rect = option.rect.adjusted(MARGIN, 0, -MARGIN, -4)
        painter.setPen(colour)
        painter.drawText(
            text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, f"{arrow} {section.title}"
        )
        painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
        painter.drawText(text_rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, str(count))
        painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawLine(
            option.rect.left() + MARGIN, option.rect.bottom(), option.rect.right() - MARGIN, option.rect.bottom()
        )
        painter.restore()

    def _paint_summary(
        self, painter: QPainter, option: QStyleOptionViewItem, rect: QRect, row: EntryRow, colour: QColor
    ) -> None:
        font = QFont(option.font)
        font.setStrikeOut(row.done)
        painter.setFont(font)
        painter.setPen(colour)
        text = QFontMetrics(font).elidedText(row.summary, Qt.TextElideMode.ElideRight, rect.width())
        words = self.model.words
        if not words:
            painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
            return
        bold = QFont(font)
        bold.setBold(True)
        x = rect.left()
        for piece, matched in split_matches(text, words):
            painter.setFont(bold if matched else font)
            painter.drawText(
                QRect(x, rect.top(), rect.right() - x, rect.height()), Qt.AlignmentFlag.AlignVCenter, piece
            )
            x += QFontMetrics(bold if matched else font).horizontalAdvance(piece)

    @staticmethod
    def _paint_flag(painter: QPainter, rect: QRect, colour: QColor) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colour, 1.6))
        painter.drawLine(rect.left() + 1, rect.top(), rect.left() + 1, rect.bottom())
        cloth = QPainterPath()
        cloth.moveTo(rect.left() + 1, rect.top())
        cloth.lineTo(rect.right(), rect.top() + 3)
        cloth.lineTo(rect.left() + 1, rect.top() + 8)
        cloth.closeSubpath()
        painter.fillPath(cloth, colour)

    @staticmethod
    def _paint_due(painter: QPainter, option: QStyleOptionViewItem, rect: QRect, row: EntryRow, selected: bool) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        red = colours().overdue
        chip = QColor(red if row.overdue else option.palette.color(QPalette.ColorRole.Mid))
        chip.setAlpha(40)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(chip)
        painter.drawRoundedRect(rect, 9, 9)
        painter.setFont(option.font)
        text = option.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        painter.setPen(red if row.overdue and not selected else text)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, row.due)

    def editorEvent(self, event: QEvent, model: object, option: QStyleOptionViewItem, index: Index) -> bool:
        """A click on the checkbox ticks the entry off (or opens it again)."""
        row = index.data(ROW_ROLE)
        if not isinstance(row, EntryRow) or event.type() != QEvent.Type.MouseButtonRelease:
            return False
        assert isinstance(event, QMouseEvent)
        if not RowLayout.of(option.rect, row, option.fontMetrics).check.contains(event.position().toPoint()):
            return False
        checked = Qt.CheckState.Unchecked if row.done else Qt.CheckState.Checked
        return self.model.setData(index, checked, Qt.ItemDataRole.CheckStateRole) or True

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView, option: QStyleOptionViewItem, index: Index) -> bool:
        row = index.data(ROW_ROLE)
        if not isinstance(row, EntryRow):
            return super().helpEvent(event, view, option, index)
        QToolTip.showText(
            event.globalPos(), RowLayout.of(option.rect, row, option.fontMetrics).tooltip(event.pos(), row), view
        )
        return True

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        editor = super().createEditor(parent, option, index)
        editor.setAccessibleName("Edit summary")
        return editor

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Index) -> None:
        row = index.data(ROW_ROLE)
        rect = RowLayout.of(option.rect, row, option.fontMetrics).editable if isinstance(row, EntryRow) else option.rect
        editor.setGeometry(rect.adjusted(-4, 3, 0, -3))


def split_matches(text: str, words: list[str]) -> list[tuple[str, bool]]:
    """`text` cut into pieces, each marked whether it is part of a searched word (case-insensitive)."""
    lowered = text.lower()
    marked = [False] * len(text)
    for word in words:
        start = lowered.find(word)
        while word and start >= 0:
            marked[start : start + len(word)] = [True] * len(word)
            start = lowered.find(word, start + 1)
    pieces: list[tuple[str, bool]] = []
    for char, matched in zip(text, marked, strict=True):
        if pieces and pieces[-1][1] == matched:
            pieces[-1] = (pieces[-1][0] + char, matched)
        else:
            pieces.append((char, matched))
    return pieces
