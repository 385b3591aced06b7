"""The toast after each run or edit, so the user sees at once what changed and can undo it: a summary, the actions
on expand, Undo; partial failures say "(1 couldn't be processed)" with the reasons on expand; a
total failure is an error toast with Retry. It fades after a few seconds, but not while hovered, nor while it asks
which of a few readings was meant (a button each), nor while its details are open.

While the main window is shown the toast sits at the bottom centre of the window's room for it, a strip the
window keeps empty, so it never lies over a button, a text box or a list: a click meant for Forget or Retry cannot
land on its Undo. The room stays as the toast fades, so nothing moves under the pointer then; it goes when the user
closes the toast with a click on it. In a small window the toast is one row, its words cut short (whole in their
tooltip and under Details). Else it sits in the screen's bottom right corner."""

from dataclasses import dataclass, field

from PySide6.QtCore import (
    QEasingCurve,
    QEvent,
    QMargins,
    QObject,
    QPoint,
    QPropertyAnimation,
    QRect,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QEnterEvent, QGuiApplication
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.presentation.choices import UNSURE, WHICH_READING
from app.presentation.failures import RUN_FAILED, run_failed_message
from app.ui.elided_label import ElidedLabel
from app.ui.jobs import BatchReport
from app.ui.plain_text import plain_label
from app.ui.reading_buttons import ReadingButtons
from app.ui.window import COMPACT_BELOW

FADE_MS = 700
MARGIN = 16  # from the screen's corner
GAP = 8  # between the toast and the edges of the window's room for it
MIN_WIDTH, MAX_WIDTH = 340, 460
ROOM_SHARE = 0.4  # of the window's height, at most: the page above keeps the rest; long details scroll inside
TITLE_LINES = 3  # a title longer than this many lines is cut short ("…"), whole in its tooltip
COMPACT_MARGINS = QMargins(6, 2, 2, 2)  # around the one row of the toast in a small window
_WINDOW_CHANGES = (QEvent.Type.Move, QEvent.Type.Show, QEvent.Type.Hide)  # after which the toast fits again
# The toast is a window of its own (no parent), so the main window's stylesheet never reaches it: it
# carries its own. An error is white on a strong red, readable on a light and on a dark desktop alike.
STYLE = """
QFrame#toast { background: palette(window); border: 1px solid palette(mid); border-left: 4px solid #3b5bdb; }
QFrame#toast[error="true"] { background: #b3261e; border: 1px solid #8c1d18; border-left: 4px solid #8c1d18; }
QFrame#toast[error="true"] QLabel, QFrame#toast[error="true"] QToolButton#toastClose { color: #ffffff; }
QLabel#toastTitle { font-weight: 600; }
QScrollArea#toastDetailsArea, QScrollArea#toastDetailsArea > QWidget > QWidget { background: transparent; }
"""


@dataclass(frozen=True)
class Readings:
    """The readings offered back for an utterance that waits until the user picks one."""

    utterance_id: int
    labels: tuple[str, ...]


@dataclass(frozen=True)
class ToastContent:
    title: str
    message: str = ""
    details: list[str] = field(default_factory=list)
    undo_id: int | None = None
    retry_utterance_id: int | None = None
    error: bool = False
    confirm: bool = False  # the run waits for a yes: the button runs it again, confirmed
    merge: tuple[str, str] | None = None  # (new, into): the new entry looks like a listed one; Merge joins them
    settings_page: str | None = None  # a setting on this page of Settings would put it right: Settings opens it
    readings: Readings | None = None  # it asks which was meant: a button each, and it stays until answered


def content_of(report: BatchReport) -> ToastContent:
    details = report.applied + report.failures  # the failures say "Couldn't …" themselves
    if report.choices and report.utterance_id is not None:  # no details: the buttons say what each would do
        return ToastContent(title=UNSURE, message=WHICH_READING, readings=Readings(report.utterance_id, report.choices))
    if report.confirm:
        return ToastContent(
            title="Waiting for your yes",
            message=f"{report.error}.",
            retry_utterance_id=report.utterance_id,
            error=True,
            confirm=True,
        )
    if report.failed and report.by_hand:  # the title is the one failure's line, else the count with the lines below
        return ToastContent(title=report.summary, details=details if len(details) > 1 else [], error=True)
    if report.failed:
        reason = report.error or "; ".join(report.failures) or "nothing to do was found in it"
        return ToastContent(
            title=RUN_FAILED,
            message=run_failed_message(reason, waiting=report.utterance_id is not None),
            details=details,
            retry_utterance_id=report.utterance_id,
            error=True,
            settings_page=report.settings_page,
        )
    message = report.message or ""
    merge = None
    if report.similar:
        looks = f"Looks like “{report.similar.into_summary}”, already on your list."
        message, merge = f"{message} {looks}".strip(), (report.similar.new_id, report.similar.into_id)
    return ToastContent(title=report.summary, message=message, details=details, undo_id=report.undo_id, merge=merge)


class Toast(QFrame):
    undo_clicked = Signal(int)  # the batch to undo
    retry_clicked = Signal(int)  # the utterance to run again
    confirm_clicked = Signal(int)  # the utterance to run again, with the user's yes
    merge_clicked = Signal(str, str)  # the new entry, and the listed one it is the same as
    settings_clicked = Signal(str)  # the settings page to open
    choice_clicked = Signal(int, int)  # the utterance, and the reading of it picked (from 1)
    closed = Signal()  # faded out or dismissed

    def __init__(self, seconds: float, parent: QWidget | None = None, room: QWidget | None = None) -> None:
        """`room`: the strip of the main window the toast sits in while that window is shown (empty but for the
        toast: shown, and as tall as the toast, only while the toast is)."""
        flags = Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
        super().__init__(parent, flags)
        self.setObjectName("toast")
        self.setStyleSheet(STYLE)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.content: ToastContent | None = None
        self._room = room
        if room is not None:  # it follows its room when the window moves, resizes, hides or shows
            room.installEventFilter(self)
            room.window().installEventFilter(self)

        self.title, self.message, self.details = ElidedLabel(TITLE_LINES), QLabel(), QLabel()
        for label, name in ((self.title, "toastTitle"), (self.message, "toastMessage"), (self.details, "toastDetails")):
            label.setObjectName(name)
            label.setWordWrap(True)
            plain_label(label)  # the model's words: "<a href=...>Sign in</a>" must not become a link
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details_area = QScrollArea()  # an import's list of lines it could not read can be long
        self.details_area.setObjectName("toastDetailsArea")
        self.details_area.setFrameShape(QFrame.Shape.NoFrame)
        self.details_area.setWidgetResizable(True)
        self.details_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.details_area.setWidget(self.details)
        self.details_area.setVisible(False)
        self.details_button = QToolButton()
        self.details_button.setText("Details")
        self.details_button.setCheckable(True)
        self.details_button.toggled.connect(self._on_details_toggled)
        self.undo_button = QPushButton("Undo")
        self.undo_button.clicked.connect(self._on_undo_clicked)
        self.retry_button = QPushButton("Retry")
        self.retry_button.clicked.connect(self._on_retry_clicked)
        self.merge_button = QPushButton("Merge")
        self.merge_button.setToolTip("They are the same: keep the listed one, with what was just said")
        self.merge_button.clicked.connect(self._on_merge_clicked)
        self.settings_button = QPushButton("Settings…")
        self.settings_button.clicked.connect(self._on_settings_clicked)
        self.readings = ReadingButtons(QBoxLayout.Direction.TopToBottom)
        self.readings.reading_chosen.connect(self._on_reading_chosen)
        self._close_button = QToolButton()
        self._close_button.setObjectName("toastClose")
        self._close_button.setText("✕")
        self._close_button.setToolTip("Dismiss")
        self._close_button.setAutoRaise(True)
        self._close_button.clicked.connect(self.dismiss)

        self._head, self._buttons = QHBoxLayout(), QHBoxLayout()
        self._body = QVBoxLayout(self)
        self._roomy_margins = self._body.contentsMargins()
        self._body.addLayout(self._head)
        self._body.addWidget(self.message)
        self._body.addWidget(self.readings)
        self._body.addWidget(self.details_area)
        self._body.addLayout(self._buttons)
        self._compact = True
        self._arrange(compact=False)

        self._timer = QTimer(self, singleShot=True, interval=round(seconds * 1000))
        self._timer.timeout.connect(self._on_timer_timeout)
        self._fade = QPropertyAnimation(self, b"windowOpacity", self)
        self._fade.setDuration(FADE_MS)
        self._fade.setStartValue(1.0)
        self._fade.setEndValue(0.0)
        self._fade.setEasingCurve(QEasingCurve.Type.InQuad)
        self._fade.finished.connect(self._on_fade_finished)

    def set_seconds(self, seconds: float) -> None:
        self._timer.setInterval(round(seconds * 1000))

    def show_content(self, content: ToastContent) -> None:
        self.content = content
        self.setProperty("error", content.error)
        for widget in (self, *self.findChildren(QWidget)):  # the labels' colour hangs on the toast's property
            widget.style().unpolish(widget)
            widget.style().polish(widget)
        self.title.setText(content.title)
        self.message.setText(content.message)
        self.details_button.setChecked(False)
        self.details_area.setVisible(False)
        self.undo_button.setVisible(content.undo_id is not None)
        self.retry_button.setVisible(content.retry_utterance_id is not None)
        self.retry_button.setText("Do it" if content.confirm else "Retry")
        self.merge_button.setVisible(content.merge is not None)
        self.settings_button.setVisible(content.settings_page is not None)
        self.settings_button.setToolTip(f"Open Settings → {content.settings_page}" if content.settings_page else "")
        self.readings.show_readings(content.readings.labels if content.readings else ())
        self.show_again()

    def show_again(self) -> None:
        """Show the current content (again) for the full time."""
        if self.content is None:
            return
        self._fade.stop()
        self.setWindowOpacity(1.0)
        self._fit()
        self.show()
        self.raise_()
        if not self._stays():
            self._timer.start()

    def dismiss(self) -> None:
        """Close it at the user's word (its ✕, or a button of it): its room in the window goes with it."""
        self._close()
        if self._room is not None:
            self._room.hide()

    def _close(self) -> None:
        self._timer.stop()
        self._fade.stop()
        if self.isVisible():
            self.hide()
            self.closed.emit()

    def _shown_room(self) -> tuple[QWidget, QWidget, QLayout] | None:
        """The window's room for the toast, the column it lies in and that column's layout, while the user can see
        that window (shown, not minimised)."""
        room = self._room
        parent = room.parentWidget() if room is not None else None
        column = parent.layout() if parent is not None else None
        if room is None or parent is None or column is None:
            return None
        if not room.window().isVisible() or room.window().isMinimized():
            return None
        return room, parent, column

    def _fit(self) -> None:
        """Size the toast for where it goes, then put it there: the window's room (made as tall as the toast),
        else the screen's corner."""
        shown = self._shown_room()
        if shown is None:
            if self._room is not None:
                self._room.hide()
            self._arrange(compact=False)
            self._size_within(MAX_WIDTH, self._screen_area(self).height() // 2)
            self._place_in_corner()
            return
        room, parent, column = shown
        self._arrange(compact=room.window().height() < COMPACT_BELOW)
        # The column's own width, less its margins: its layout may not have been laid out at that width yet.
        margins = column.contentsMargins()
        inner = parent.width() - margins.left() - margins.right()
        width = max(MIN_WIDTH, min(MAX_WIDTH, inner - 2 * GAP))
        self._size_within(width, round(room.window().height() * ROOM_SHARE) - 2 * GAP)
        room.show()
        room.setFixedHeight(self.height() + 2 * GAP)
        column.invalidate()  # the room takes its place now, not at the next layout pass
        column.activate()
        self._place_in_room(room)

    def _arrange(self, compact: bool) -> None:
        """One row in a small window: the title cut to a line, then the buttons (the message under Details);
        else the title over the message over the buttons."""
        if compact != self._compact:
            self._compact = compact
            for row in (self._head, self._buttons):
                while row.count():
                    row.takeAt(0)
            self._head.addWidget(self.title, 1)
            actions = self._head if compact else self._buttons
            actions.addWidget(self.details_button)
            if not compact:
                actions.addStretch(1)
            for button in (self.settings_button, self.retry_button, self.merge_button, self.undo_button):
                actions.addWidget(button)
            self._head.addWidget(self._close_button, 0, Qt.AlignmentFlag.AlignTop)
            self._body.setContentsMargins(COMPACT_MARGINS if compact else self._roomy_margins)
            self.title.set_lines(1 if compact else TITLE_LINES)
        content = self.content or ToastContent(title="")
        shown_message = content.message if compact else ""  # with the details, when it has no line of its own
        self.message.setVisible(bool(content.message) and not compact)
        self.details.setText("\n".join([shown_message, *content.details] if shown_message else content.details))
        self.details_button.setVisible(bool(shown_message or content.details))

    def _size_within(self, width: int, height: int) -> None:
        """`width` wide (the words wrap less); the details, when shown, as tall as their lines but for what would
        make the toast taller than `height` (they scroll)."""
        self.setFixedWidth(width)
        self._fit_height()
        if self.details_area.isHidden():
            return
        margins = self._body.contentsMargins()
        inner = width - margins.left() - margins.right() - 2 * self.frameWidth()
        lines = max(0, self.details.heightForWidth(inner))  # none for no lines
        self.details_area.setFixedHeight(lines)
        self._fit_height()
        if self.height() > height:
            self.details_area.setFixedHeight(max(self.fontMetrics().height(), lines - (self.height() - height)))
            self._fit_height()

    def _fit_height(self) -> None:
        """As tall as the words need at the toast's width (a size hint would measure them wrapped narrower)."""
        self._body.activate()
        self.resize(self.width(), max(self._body.totalHeightForWidth(self.width()), self.minimumSizeHint().height()))

    def _place_in_room(self, room: QWidget) -> None:
        """Centred in the part of the room on the screen, GAP below its top."""
        spot = QRect(room.mapToGlobal(QPoint(0, 0)), room.size())
        shown = spot.intersected(self._screen_area(room))
        across = shown if shown.width() >= self.width() else spot
        self.move(across.center().x() - self.width() // 2 + 1, spot.top() + GAP)

    def _place_in_corner(self) -> None:
        area = self._screen_area(self.parentWidget() or self)
        self.move(
            max(area.left(), area.right() - self.width() - MARGIN),
            max(area.top(), area.bottom() - self.height() - MARGIN),
        )

    @staticmethod
    def _screen_area(widget: QWidget) -> QRect:
        screen = widget.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The toast goes with its room: moved, it follows; resized (the window was), it fits again, as when the
        window moves, hides or shows; hidden, its room still fits the window's size."""
        kind, room = event.type(), watched is self._room
        if self.isVisible():
            if room and kind == QEvent.Type.Move and (shown := self._shown_room()) is not None:
                self._place_in_room(shown[0])
            elif (room and kind == QEvent.Type.Resize) or (not room and kind in _WINDOW_CHANGES):
                self._fit()
        elif kind == QEvent.Type.Resize and self._room is not None and self._room.isVisible():
            self._fit()  # the room kept for the next toast fits the window's new size
        return super().eventFilter(watched, event)

    # Hovering keeps it; leaving gives it the full time again.

    def enterEvent(self, event: QEnterEvent) -> None:
        self._hold()
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        if self.isVisible() and not self._stays():
            self._timer.start()
        super().leaveEvent(event)

    def _stays(self) -> bool:
        """It waits for the user: for the pick of a reading (fading, it would leave the question unseen), or to
        close the details they opened (faded, it would leave its room as tall as they made it)."""
        asks = self.content is not None and self.content.readings is not None
        return asks or self.details_button.isChecked()

    def _on_timer_timeout(self) -> None:
        self._fade.start()

    def _on_fade_finished(self) -> None:
        self._close()  # its room stays: nothing under the pointer moves as it fades

    def _hold(self) -> None:
        self._timer.stop()
        self._fade.stop()
        self.setWindowOpacity(1.0)

    def _on_details_toggled(self, shown: bool) -> None:
        self.details_area.setVisible(shown)
        self._fit()
        if self._stays():
            self._hold()
        elif not self.underMouse():  # closed from the keyboard: it fades as it would have
            self._timer.start()

    def _on_undo_clicked(self) -> None:
        if self.content and self.content.undo_id is not None:
            undo_id = self.content.undo_id
            self.dismiss()
            self.undo_clicked.emit(undo_id)

    def _on_merge_clicked(self) -> None:
        if self.content and self.content.merge is not None:
            new_id, into_id = self.content.merge
            self.dismiss()
            self.merge_clicked.emit(new_id, into_id)

    def _on_settings_clicked(self) -> None:
        if self.content and self.content.settings_page is not None:
            page = self.content.settings_page
            self.dismiss()
            self.settings_clicked.emit(page)

    def _on_retry_clicked(self) -> None:
        if self.content and self.content.retry_utterance_id is not None:
            utterance_id, confirm = self.content.retry_utterance_id, self.content.confirm
            self.dismiss()
            (self.confirm_clicked if confirm else self.retry_clicked).emit(utterance_id)

    def _on_reading_chosen(self, number: int) -> None:
        if self.content and self.content.readings is not None:
            utterance_id = self.content.readings.utterance_id
            self.dismiss()
            self.choice_clicked.emit(utterance_id, number)
