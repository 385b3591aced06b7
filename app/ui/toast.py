"""The toast after each run or edit, so the user sees at once what changed and can undo it: a summary, the actions
on expand, Undo; partial failures say "(1 couldn't be processed)" with the reasons on expand; a
total failure is an error toast with Retry. It fades after a few seconds, but not while hovered."""

from dataclasses import dataclass, field

from PySide6.QtCore import QEasingCurve, QEvent, QPropertyAnimation, Qt, QTimer, Signal
from PySide6.QtGui import QEnterEvent, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.jobs import BatchReport
from app.ui.plain_text import plain_label

FADE_MS = 700
MARGIN = 16
# The toast is a window of its own (no parent), so the main window's stylesheet never reaches it: it
# carries its own. An error is white on a strong red, readable on a light and on a dark desktop alike.
STYLE = """
QFrame#toast { background: palette(window); border: 1px solid palette(mid); border-left: 4px solid #3b5bdb; }
QFrame#toast[error="true"] { background: #b3261e; border: 1px solid #8c1d18; border-left: 4px solid #8c1d18; }
QFrame#toast[error="true"] QLabel, QFrame#toast[error="true"] QToolButton#toastClose { color: #ffffff; }
QLabel#toastTitle { font-weight: 600; }
"""


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


def content_of(report: BatchReport) -> ToastContent:
    details = report.applied + report.failures  # the failures say "Couldn't …" themselves
    if report.confirm:
        return ToastContent(
            title="Waiting for your yes",
            message=f"{report.error}.",
            retry_utterance_id=report.utterance_id,
            error=True,
            confirm=True,
        )
    if report.failed:
        reason = report.error or "; ".join(report.failures) or "nothing to do was found in it"
        return ToastContent(
            title="Couldn't process what you said",
            message=f"{reason}. It waits in the Inbox.",
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
    closed = Signal()  # faded out or dismissed

    def __init__(self, seconds: float, parent: QWidget | None = None) -> None:
        flags = Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
        super().__init__(parent, flags)
        self.setObjectName("toast")
        self.setStyleSheet(STYLE)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumWidth(340)
        self.setMaximumWidth(460)
        self.content: ToastContent | None = None

        self.title, self.message, self.details = QLabel(), QLabel(), QLabel()
        for label, name in ((self.title, "toastTitle"), (self.message, "toastMessage"), (self.details, "toastDetails")):
            label.setObjectName(name)
            label.setWordWrap(True)
            plain_label(label)  # the model's words: "<a href=...>Sign in</a>" must not become a link
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
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
        close_button = QToolButton()
        close_button.setObjectName("toastClose")
        close_button.setText("✕")
        close_button.setToolTip("Dismiss")
        close_button.setAutoRaise(True)
        close_button.clicked.connect(self.dismiss)

        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(close_button, 0, Qt.AlignmentFlag.AlignTop)
        buttons = QHBoxLayout()
        buttons.addWidget(self.details_button)
        buttons.addStretch(1)
        buttons.addWidget(self.settings_button)
        buttons.addWidget(self.retry_button)
        buttons.addWidget(self.merge_button)
        buttons.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.message)
        layout.addWidget(self.details)
        layout.addLayout(buttons)

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
        self.message.setVisible(bool(content.message))
        self.details.setText("\n".join(content.details))
        self.details_button.setVisible(bool(content.details))
        self.details_button.setChecked(False)
        self.details.setVisible(False)
        self.undo_button.setVisible(content.undo_id is not None)
        self.retry_button.setVisible(content.retry_utterance_id is not None)
        self.retry_button.setText("Do it" if content.confirm else "Retry")
        self.merge_button.setVisible(content.merge is not None)
        self.settings_button.setVisible(content.settings_page is not None)
        self.settings_button.setToolTip(f"Open Settings → {content.settings_page}" if content.settings_page else "")
        self.show_again()

    def show_again(self) -> None:
        """Show the current content (again) for the full time."""
        if self.content is None:
            return
        self._fade.stop()
        self.setWindowOpacity(1.0)
        self.adjustSize()
        self._place()
        self.show()
        self.raise_()
        self._timer.start()

    def dismiss(self) -> None:
        self._timer.stop()
        self._fade.stop()
        if self.isVisible():
            self.hide()
            self.closed.emit()

    def _place(self) -> None:
        """At the bottom right of the main window while it is shown, else of the screen; never off the screen."""
        window = _shown_main_window()
        screen = (window or self.parentWidget() or self).screen() or QGuiApplication.primaryScreen()
        area = screen.availableGeometry()
        corner = area if window is None else window.geometry().intersected(area)
        if corner.isEmpty():  # the window is off its screen: fall back to the screen corner
            corner = area
        x = max(area.left(), corner.right() - self.width() - MARGIN)
        y = max(area.top(), corner.bottom() - self.height() - MARGIN)
        self.move(x, y)

    # Hovering keeps it; leaving gives it the full time again.

    def enterEvent(self, event: QEnterEvent) -> None:
        self._timer.stop()
        self._fade.stop()
        self.setWindowOpacity(1.0)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        if self.isVisible():
            self._timer.start()
        super().leaveEvent(event)

    def _on_timer_timeout(self) -> None:
        self._fade.start()

    def _on_fade_finished(self) -> None:
        self.dismiss()

    def _on_details_toggled(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.adjustSize()
        self._place()

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


def _shown_main_window() -> QWidget | None:
    """The app's main window when the user can see it (shown, not minimised): the toast sits in it."""
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QMainWindow) and widget.isVisible() and not widget.isMinimized():
            return widget
    return None
