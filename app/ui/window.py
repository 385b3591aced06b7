"""The main window: mic button and live activity, typed input, and the entry / inbox / history / usage / memory tabs.

Thin: it shows what it is given and asks through signals; `application.Murmur` does the work.
Closing hides it to the tray when there is one. Geometry and view state persist.
"""

from zoneinfo import ZoneInfo

from PySide6.QtCore import QEvent, QObject, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QMainWindow,
    QScrollArea,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.domain.enums import Category, Status
from app.paths import config_dir
from app.ui.activity import ActivityPanel
from app.ui.entry_model import OPEN_STATUSES, EntryFilterModel, EntryTableModel
from app.ui.entry_view import EntryView
from app.ui.history_view import HistoryView
from app.ui.icons import AppState, app_icon, state_icon
from app.ui.inbox_view import InboxView
from app.ui.memory_view import MemoryView
from app.ui.said_before_view import MIN_LETTERS, SaidBeforeView
from app.ui.usage_view import UsageView

STATUS_FILTERS: dict[str, frozenset[Status]] = {
    "Open": OPEN_STATUSES,
    "Active": frozenset({Status.ACTIVE}),
    "Snoozed": frozenset({Status.SNOOZED}),
    "Completed": frozenset({Status.COMPLETED}),
    "Archived": frozenset({Status.ARCHIVED}),
    "All": frozenset(Status),
}
ALL_CATEGORIES = "All categories"
RECALL_DELAY_MS = 350  # the search box's pause before past talk is searched

STYLE = """
QLabel#status { font-weight: 600; }
QLabel#status[error="true"] { color: #c62828; }
QLabel#transcript { font-size: 15px; padding: 2px 0; }
QToolButton#mic { border-radius: 32px; }
"""


class FittingScrollArea(QScrollArea):
    """As tall as what it shows while the window has room (a plain scroll area asks for little and cuts
    its text short); it scrolls only when the window is squeezed."""

    def sizeHint(self) -> QSize:
        shown = self.widget()
        return QSize(super().sizeHint().width(), shown.sizeHint().height()) if shown else super().sizeHint()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the text grew or shrank: ask the window for room again
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)


class TypedInput(QLineEdit):
    """The input box: Ctrl+Z undoes its own typing; with nothing typed to undo it is the window's
    "undo the last change" (a line edit takes Ctrl+Z for itself even when it has nothing to undo)."""

    def event(self, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.matches(QKeySequence.StandardKey.Undo)
            and not self.isUndoAvailable()
        ):
            event.ignore()
            return False
        return super().event(event)


class MainWindow(QMainWindow):
    typed = Signal(str)  # Enter in the input box
    mic_pressed = Signal()
    mic_released = Signal()
    settings_requested = Signal()
    undo_last_requested = Signal()
    recall_requested = Signal(str)  # search what was said before for these words

    def __init__(self, model: EntryTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Murmur")
        self.setWindowIcon(app_icon())
        self.setStyleSheet(STYLE)
        self.hide_on_close = False

        self.mic = QToolButton()
        self.mic.setObjectName("mic")
        self.mic.setToolTip("Hold to talk, or click to start and click again to stop")
        self.mic.setIcon(state_icon(AppState.IDLE))
        self.mic.setIconSize(QSize(56, 56))
        self.mic.setAutoRaise(True)
        self.mic.pressed.connect(self.mic_pressed)
        self.mic.released.connect(self.mic_released)
        self.activity = ActivityPanel()
        self.input = TypedInput()
        self.input.setObjectName("input")
        self.input.setPlaceholderText("Type what you would say, then press Enter")
        self.input.setClearButtonEnabled(True)
        self.input.returnPressed.connect(self._on_input_return_pressed)

        self.proxy = EntryFilterModel(self)
        self.proxy.setSourceModel(model)
        self.entries = EntryView(self.proxy)
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText("Search")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.set_search)
        self.said_before = SaidBeforeView()
        self._recall_timer = QTimer(self, singleShot=True, interval=RECALL_DELAY_MS)
        self._recall_timer.timeout.connect(self._on_recall_timer_timeout)
        self.search.textChanged.connect(self._on_search_text_changed)
        self.category = QComboBox()
        self.category.setObjectName("category")
        self.category.addItem(ALL_CATEGORIES, None)
        for category in Category:
            self.category.addItem(category.value.capitalize(), category)
        self.category.currentIndexChanged.connect(self._on_category_index_changed)
        self.status_filter = QComboBox()
        self.status_filter.setObjectName("statusFilter")
        self.status_filter.addItems(list(STATUS_FILTERS))
        self.status_filter.currentTextChanged.connect(self._on_status_filter_text_changed)
        self.inbox = InboxView()
        self.history = HistoryView()
        self.usage = UsageView()
        self.memory = MemoryView()

        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        self.tabs.addTab(self._entries_tab(), "Entries")
        self.tabs.addTab(self.inbox, "Inbox")
        self.tabs.addTab(self.history, "History")
        self.tabs.addTab(self.usage, "Usage")
        self.tabs.addTab(self.memory, "Memory")

        top = QHBoxLayout()
        top.addWidget(self.mic, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self._scrolling(self.activity), 1)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addLayout(top)
        layout.addWidget(self.input)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self._add_menu()
        self.resize(900, 640)

    def _scrolling(self, panel: QWidget) -> QScrollArea:
        """`panel` in a frameless scroll area no taller than the mic at least: in a small window the live
        transcript and progress scroll, and the entry list keeps its rows."""
        area = FittingScrollArea()
        area.setObjectName("activityArea")
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidgetResizable(True)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.setMinimumHeight(self.mic.sizeHint().height())
        area.setWidget(panel)
        return area

    def _entries_tab(self) -> QWidget:
        filters = QHBoxLayout()
        filters.addWidget(self.search, 1)
        filters.addWidget(self.category)
        filters.addWidget(self.status_filter)
        tab = QWidget()
        layout = QVBoxLayout(tab)
        layout.addLayout(filters)
        layout.addWidget(self.entries, 1)
        layout.addWidget(self.said_before)
        return tab

    def _add_menu(self) -> None:
        menu = self.menuBar().addMenu("&Murmur")
        undo = QAction("Undo last change", self, shortcut=QKeySequence(QKeySequence.StandardKey.Undo))
        undo.triggered.connect(self.undo_last_requested)
        settings = QAction("Settings…", self, shortcut=QKeySequence("Ctrl+,"))
        settings.triggered.connect(self.settings_requested)
        find = QAction("Find", self, shortcut=QKeySequence(QKeySequence.StandardKey.Find))
        find.triggered.connect(self.search.setFocus)
        menu.addActions([undo, find, settings])
        self.quit_action = QAction("Quit", self, shortcut=QKeySequence(QKeySequence.StandardKey.Quit))
        menu.addSeparator()
        menu.addAction(self.quit_action)

    def set_inbox_count(self, count: int) -> None:
        self.tabs.setTabText(self.tabs.indexOf(self.inbox), f"Inbox ({count})" if count else "Inbox")

    def set_state(self, state: AppState) -> None:
        self.mic.setIcon(state_icon(state))

    def show_entry(self, entry_id: str) -> None:
        """Bring the window up with `entry_id` selected (from a reminder)."""
        self.raise_to_front()
        self.tabs.setCurrentIndex(0)
        model = self.proxy.sourceModel()
        assert isinstance(model, EntryTableModel)
        row = model.row_of(entry_id)
        if row is None:
            return
        index = self.proxy.mapFromSource(model.index(row, 0))
        if not index.isValid():  # filtered out: show everything
            self.search.clear()
            self.status_filter.setCurrentText("All")
            self.category.setCurrentIndex(0)
        self.select_entry(entry_id)

    def select_entry(self, entry_id: str) -> bool:
        """Select `entry_id` and scroll to it, if the list shows it (filters stay as they are)."""
        model = self.proxy.sourceModel()
        assert isinstance(model, EntryTableModel)
        row = model.row_of(entry_id)
        index = self.proxy.mapFromSource(model.index(row, 0)) if row is not None else None
        if index is None or not index.isValid():
            return False
        self.entries.select_row(index.row())
        return True

    def raise_to_front(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def _on_input_return_pressed(self) -> None:
        text = self.input.text().strip()
        if text:
            self.input.setText("")  # unlike clear(), not undoable: Ctrl+Z then undoes the entry it made
            self.typed.emit(text)

    def _on_search_text_changed(self, text: str) -> None:
        """Past talk is searched once typing pauses; a short or empty search hides it at once."""
        if len(text.strip()) < MIN_LETTERS:
            self._recall_timer.stop()
            self.said_before.set_hits([], ZoneInfo("UTC"))
        else:
            self._recall_timer.start()

    def _on_recall_timer_timeout(self) -> None:
        self.recall_requested.emit(self.search.text().strip())

    def _on_category_index_changed(self, _index: int) -> None:
        chosen = self.category.currentData()  # Qt hands the enum back as its plain string
        self.proxy.set_category(Category(chosen) if chosen else None)

    def _on_status_filter_text_changed(self, text: str) -> None:
        self.proxy.set_statuses(STATUS_FILTERS[text])

    # -- persistence --------------------------------------------------------------------------

    @staticmethod
    def _settings() -> QSettings:
        return QSettings(str(config_dir() / "window.ini"), QSettings.Format.IniFormat)

    def save_view_state(self) -> None:
        settings = self._settings()
        settings.setValue("geometry", self.saveGeometry())
        settings.setValue("columns", self.entries.horizontalHeader().saveState())
        settings.setValue("tab", self.tabs.currentIndex())
        settings.setValue("status", self.status_filter.currentText())
        settings.setValue("category", self.category.currentIndex())
        settings.sync()

    def restore_view_state(self) -> None:
        settings = self._settings()
        if (geometry := settings.value("geometry")) is not None:
            self.restoreGeometry(geometry)
        if (columns := settings.value("columns")) is not None:
            self.entries.horizontalHeader().restoreState(columns)
        self.tabs.setCurrentIndex(int(settings.value("tab", 0)))  # type: ignore[call-overload]
        self.status_filter.setCurrentText(str(settings.value("status", "Open")))
        self.category.setCurrentIndex(int(settings.value("category", 0)))  # type: ignore[call-overload]

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_view_state()
        if self.hide_on_close:
            event.ignore()
            self.hide()
        else:
            super().closeEvent(event)
