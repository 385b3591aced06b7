"""The main window: a sidebar of views, the conversation (mic, live words, what happened), typed input with
what it would do under it, and the page of the chosen view: the entry list (with its search, empty state and
details) or the inbox, history, usage or memory.

Thin: it shows what it is given and asks through signals; `application.Murmur` does the work.
Closing hides it to the tray when there is one. Geometry and view state persist.
"""

from pathlib import Path

from PySide6.QtCore import QEvent, QMargins, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.api.data import SUFFIX
from app.api.settings import config_dir
from app.domain.enums import Format
from app.presentation.runs import RUNS_TITLE
from app.ui.about import about_box
from app.ui.activity import ActivityPanel
from app.ui.details_panel import DetailsPanel
from app.ui.empty_state import EmptyState
from app.ui.entry_model import EntryListModel
from app.ui.entry_sections import Part, Sort
from app.ui.entry_view import EntryView
from app.ui.history_view import HistoryView
from app.ui.icons import AppState, app_icon, state_icon
from app.ui.inbox_view import InboxView
from app.ui.memory_view import MemoryView
from app.ui.plain_text import plain_label
from app.ui.problems_bar import ProblemsBar
from app.ui.reading_line import ReadingLine
from app.ui.said_before_view import MIN_LETTERS, SaidBeforeView
from app.ui.setup_notes import SetupNotes
from app.ui.sidebar import PLURALS, Place, Sidebar
from app.ui.usage_view import UsageView

TYPE_PROMPT = "Type what you would say, then press Enter"
ANSWER_PROMPT = "Type your answer, then press Enter (or hold the key and say it)"
DUE_NOW = frozenset({Part.OVERDUE, Part.TODAY})  # the Today badge counts these
CONVERSATION_HEIGHT = 84  # the status, the words heard and one line of what happened
STEPS_HEIGHT = 100  # the raw steps, shown with Details
COMPACT_BELOW = 520  # window height under which the top part tightens, so the list keeps more rows in view
COMPACT_CONVERSATION_HEIGHT = 64  # the status (two lines when narrow) and the words heard; what happened scrolls
COMPACT_MARGIN = 4
NARROW_BELOW = 640  # window width under which the sidebar shows icons alone
DETAILS_WIDTH = 340
DETAILS_FROM = 900  # window width from which the details panel fits beside the list
# The save dialog's file types, each naming the format it writes (Qt gives back the type chosen).
EXPORT_TYPES = {
    "Murmur backup, everything (*.json)": Format.JSON,
    "iCalendar tasks, for calendar apps (*.ics)": Format.ICS,
    "Markdown, for notes apps (*.md)": Format.MARKDOWN,
    "todo.txt (*.txt)": Format.TODOTXT,
    "CSV, for spreadsheets (*.csv)": Format.CSV,
}
SORTS = {Sort.DUE: "By due", Sort.CREATED: "Newest first", Sort.KIND: "By kind", Sort.ALPHABETICAL: "A to Z"}
RECALL_DELAY_MS = 350  # the search box's pause before past talk is searched
READING_DELAY_MS = 250  # the typed box's pause before what the words would do is read

STYLE = """
QLabel#status { font-weight: 600; }
QLabel#status[error="true"] { color: #e0443a; }
QLabel#transcript { font-size: 15px; padding: 2px 0; }
QLabel#outcome[error="true"] { color: #e0443a; }
QToolButton#mic { border-radius: 32px; }
QLabel#pageTitle { font-size: 20px; font-weight: 600; }
QLabel#emptyTitle { font-size: 18px; font-weight: 600; }
"""


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


class Pages(QStackedWidget):
    """The views, one at a time, in the height the window leaves them: the toast's room takes some of it, and the
    page shows less of itself rather than push the room (and the toast) out of the window."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(1)

    def hasHeightForWidth(self) -> bool:
        return False  # a page's wrapped words would ask for their whole height as the least it can have


class MainWindow(QMainWindow):
    typed = Signal(str)  # Enter in the input box
    mic_pressed = Signal()
    mic_released = Signal()
    settings_requested = Signal()
    runs_requested = Signal()  # Murmur → Recent runs
    undo_last_requested = Signal()
    export_requested = Signal(Path, str)  # the file chosen, and the format its type names
    import_requested = Signal(Path)
    recall_requested = Signal(str)  # search what was said before for these words
    reading_requested = Signal(str)  # what would these typed words do, if Enter were pressed now?

    def __init__(self, model: EntryListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Murmur")
        self.setWindowIcon(app_icon())
        self.setStyleSheet(STYLE)
        self.hide_on_close = False
        self.hotkey = ""  # as the empty list names it: "Ctrl+Alt+Space"

        self.mic = QToolButton()
        self.mic.setObjectName("mic")
        self.mic.setAccessibleName("Microphone")
        self.mic.setToolTip("Hold to talk, or click to start and click again to stop")
        self.mic.setIcon(state_icon(AppState.IDLE))
        self.mic.setIconSize(QSize(56, 56))
        self.mic.setAutoRaise(True)
        self.mic.pressed.connect(self.mic_pressed)
        self.mic.released.connect(self.mic_released)
        self.activity = ActivityPanel()
        self.input = TypedInput()
        self.input.setObjectName("input")
        self.input.setAccessibleName("Say it in words")
        self.input.setPlaceholderText(TYPE_PROMPT)
        self.input.setClearButtonEnabled(True)
        self.input.returnPressed.connect(self._on_input_return_pressed)
        self.input.textChanged.connect(self._on_input_text_changed)
        self.reading = ReadingLine()
        self._reading_timer = QTimer(self, singleShot=True, interval=READING_DELAY_MS)
        self._reading_timer.timeout.connect(self._on_reading_timer_timeout)

        self.model = model
        self.entries = EntryView(model)
        self.empty = EmptyState()
        self.empty.try_microphone.connect(self.mic.click)
        self.page_title = plain_label(QLabel())
        self.page_title.setObjectName("pageTitle")
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setAccessibleName("Search")
        self.search.setPlaceholderText("Search everything")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._on_search_text_changed)
        self.sort = QComboBox()
        self.sort.setObjectName("sort")
        self.sort.setAccessibleName("Sort")
        self.sort.setToolTip("How the entries of each section are ordered")
        for sort, words in SORTS.items():
            self.sort.addItem(words, sort.value)
        self.sort.currentIndexChanged.connect(self._on_sort_current_index_changed)
        self.said_before = SaidBeforeView()
        self._recall_timer = QTimer(self, singleShot=True, interval=RECALL_DELAY_MS)
        self._recall_timer.timeout.connect(self._on_recall_timer_timeout)
        self.inbox = InboxView()
        self.history = HistoryView()
        self.usage = UsageView()
        self.memory = MemoryView()
        self.sidebar = Sidebar()
        self.details = DetailsPanel()
        self.setup_notes = SetupNotes()
        self.problems_bar = ProblemsBar()

        self.list_stack = QStackedWidget()
        self.list_stack.addWidget(self.entries)
        self.list_stack.addWidget(self.empty)
        self.list_page = self._list_page()
        self.pages = Pages()
        self.pages.setObjectName("pages")
        for page in (self.list_page, self.inbox, self.history, self.usage, self.memory):
            self.pages.addWidget(page)
        self._other_pages: dict[str, QWidget] = {
            "inbox": self.inbox,
            "history": self.history,
            "usage": self.usage,
            "memory": self.memory,
        }
        self.sidebar.place_chosen.connect(self._on_sidebar_place_chosen)
        model.modelReset.connect(self._on_model_reset)
        model.folds_changed.connect(self._save_folds)
        model.dataChanged.connect(self._on_model_reset)  # rows updated in place: the counts and details follow
        self.entries.selectionModel().currentChanged.connect(self._show_details)

        top = QHBoxLayout()
        top.addWidget(self.mic, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self._conversation(self.activity), 1)
        main = QWidget()
        layout = QVBoxLayout(main)
        self._main_layout, self._roomy_margins = layout, layout.contentsMargins()
        layout.addWidget(self.problems_bar)
        layout.addWidget(self.setup_notes)
        layout.addLayout(top)
        layout.addWidget(self.input)
        layout.addWidget(self.reading)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self._toast_room())
        central = QWidget()
        columns = QHBoxLayout(central)
        columns.setContentsMargins(0, 0, 0, 0)
        columns.setSpacing(0)
        columns.addWidget(self.sidebar)
        columns.addWidget(main, 1)
        self.setCentralWidget(central)
        self._add_menu()
        self.setMinimumSize(480, 360)
        self.resize(1000, 680)
        self.sidebar.choose("all")  # what was just said shows, whatever its day

    def _conversation(self, panel: ActivityPanel) -> QWidget:
        """The status line, always in view, over `panel` in a frameless scroll area: what is said and done scrolls
        inside it. The two keep a steady height, so the input box below never moves under the user's cursor;
        Details, when asked for, make room."""
        area = QScrollArea()
        area.setObjectName("activityArea")
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidgetResizable(True)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.setWidget(panel)
        bar = area.verticalScrollBar()
        bar.rangeChanged.connect(lambda _low, high: bar.setValue(high))  # the latest line in view
        conversation = QWidget()
        column = QVBoxLayout(conversation)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(panel.status)
        column.addWidget(area, 1)
        conversation.setFixedHeight(CONVERSATION_HEIGHT)
        self._conversation_box = conversation
        self.activity.details.toggled.connect(self._fit_height)
        return conversation

    def _toast_room(self) -> QWidget:
        """The strip under the page where the toast sits (app/ui/toast.py): nothing to click lives there. The first
        toast makes it as tall as itself, and it stays when the toast goes, so nothing above it moves then."""
        self.toast_room = QWidget()
        self.toast_room.setObjectName("toastRoom")
        self.toast_room.setVisible(False)
        return self.toast_room

    def _list_page(self) -> QWidget:
        header = QHBoxLayout()
        header.addWidget(self.page_title, 1)
        header.addWidget(self.sort)
        header.addWidget(self.search, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("listSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.list_stack)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setSizes([2 * DETAILS_WIDTH, DETAILS_WIDTH])  # until the user's own widths are restored
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.said_before)
        return page

    def _add_file_menu(self) -> None:
        menu = self.menuBar().addMenu("&File")
        export = QAction("Export…", self, shortcut=QKeySequence("Ctrl+Shift+E"))
        export.triggered.connect(self._choose_export)
        importing = QAction("Import…", self, shortcut=QKeySequence("Ctrl+Shift+I"))
        importing.triggered.connect(self._choose_import)
        menu.addActions([export, importing])

    def _choose_export(self) -> None:
        filters = ";;".join(EXPORT_TYPES)
        name, chosen = QFileDialog.getSaveFileName(self, "Export your list", str(Path.home() / "murmur.json"), filters)
        if name:
            fmt = EXPORT_TYPES.get(chosen, Format.JSON)
            path = Path(name)
            self.export_requested.emit(path if path.suffix else path.with_suffix(SUFFIX[fmt]), fmt.value)

    def _choose_import(self) -> None:
        filters = "Lists Murmur reads (*.json *.ics *.txt *.csv);;All files (*)"
        name, _ = QFileDialog.getOpenFileName(self, "Import into your list", str(Path.home()), filters)
        if name:
            self.import_requested.emit(Path(name))

    def _add_menu(self) -> None:
        self._add_file_menu()
        menu = self.menuBar().addMenu("&Murmur")
        undo = QAction("Undo last change", self, shortcut=QKeySequence(QKeySequence.StandardKey.Undo))
        undo.triggered.connect(self.undo_last_requested)
        settings = QAction("Settings…", self, shortcut=QKeySequence("Ctrl+,"))
        settings.triggered.connect(self.settings_requested)
        find = QAction("Find", self, shortcut=QKeySequence(QKeySequence.StandardKey.Find))
        find.triggered.connect(self._on_find_triggered)
        new = QAction("New entry", self, shortcut=QKeySequence(QKeySequence.StandardKey.New))
        new.triggered.connect(self.input.setFocus)
        self.details_action = QAction("Details panel", self, shortcut=QKeySequence("Ctrl+I"), checkable=True)
        self.details_action.setChecked(True)
        self.details_action.toggled.connect(self._fit_details)
        runs = QAction(f"{RUNS_TITLE}…", self)
        runs.triggered.connect(self.runs_requested)
        about = QAction("About Murmur", self)
        about.triggered.connect(lambda: about_box(self))
        menu.addActions([new, undo, find, self.details_action, settings, runs, about])
        self.quit_action = QAction("Quit", self, shortcut=QKeySequence(QKeySequence.StandardKey.Quit))
        menu.addSeparator()
        menu.addAction(self.quit_action)
        # "/" from the list starts typing, as in many list apps; in a text box it is just a slash.
        slash = QAction("Type", self.entries, shortcut=QKeySequence("/"))
        slash.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        slash.triggered.connect(self.input.setFocus)
        self.entries.addAction(slash)

    def expect_answer(self, asked: bool) -> None:
        """After a question the input box is where the answer goes."""
        self.input.setPlaceholderText(ANSWER_PROMPT if asked else TYPE_PROMPT)

    def set_inbox_count(self, count: int) -> None:
        self.sidebar.set_count("inbox", count)

    def set_state(self, state: AppState) -> None:
        self.mic.setIcon(state_icon(state))

    def show_place(self, key: str) -> None:
        self.sidebar.choose(key)

    def _on_sidebar_place_chosen(self, place: Place) -> None:
        if place.view is None:
            self.pages.setCurrentWidget(self._other_pages[place.key])
            return
        self.page_title.setText(place.title)
        self.model.set_view(place.view, place.category)
        self.pages.setCurrentWidget(self.list_page)

    def _on_model_reset(self) -> None:
        self.sidebar.set_count("today", len(self.model.rows_in(DUE_NOW)))
        self._show_list_or_empty()
        self._show_details()

    def _show_details(self) -> None:
        """The details follow the entry the keys are on (its latest, after a refresh)."""
        self.details.show_row(self.model.row_at(self.entries.currentIndex()))

    def _show_list_or_empty(self) -> None:
        if self.model.rowCount():
            self.list_stack.setCurrentWidget(self.entries)
            return
        place, search = self.sidebar.chosen(), self.search.text().strip()
        if search:
            self.empty.show_no_match(search)
        elif self.model.total == 0:
            self.empty.show_first_run(self.hotkey)
        elif place.view is not None:
            self.empty.show_quiet(place.view, PLURALS[place.category] if place.category else None)
        self.list_stack.setCurrentWidget(self.empty)

    def _on_find_triggered(self) -> None:
        if self.pages.currentWidget() is not self.list_page:
            self.sidebar.choose("all")
        self.search.setFocus()
        self.search.selectAll()

    def show_entry(self, entry_id: str) -> None:
        """Bring the window up with `entry_id` selected (from a reminder), in another view if need be."""
        self.raise_to_front()
        if self.pages.currentWidget() is self.list_page and self.select_entry(entry_id):
            return
        self.search.clear()
        for place in ("all", "done"):
            self.sidebar.choose(place)
            if self.select_entry(entry_id):
                return

    def select_entry(self, entry_id: str) -> bool:
        """Select `entry_id` and scroll to it, if the list shows it (the view stays as it is)."""
        return self.entries.select_entry(entry_id)

    def raise_to_front(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def _on_input_return_pressed(self) -> None:
        text = self.input.text().strip()
        if text:
            self.input.setText("")  # unlike clear(), not undoable: Ctrl+Z then undoes the entry it made
            self.typed.emit(text)

    def _on_input_text_changed(self, text: str) -> None:
        """What the words would do is read once typing pauses; with nothing typed there is nothing to say."""
        if text.strip():
            self._reading_timer.start()
        else:
            self._reading_timer.stop()
            self.reading.show_lines(())

    def _on_reading_timer_timeout(self) -> None:
        self.reading_requested.emit(self.input.text().strip())

    def _on_search_text_changed(self, text: str) -> None:
        """The list filters at once; past talk is searched once typing pauses (a short search hides it)."""
        if text.strip() and self.pages.currentWidget() is not self.list_page:
            self.sidebar.choose("all")
        self.model.set_search(text)
        if len(text.strip()) < MIN_LETTERS:
            self._recall_timer.stop()
            self.said_before.clear()
        else:
            self._recall_timer.start()

    def _on_recall_timer_timeout(self) -> None:
        self.recall_requested.emit(self.search.text().strip())

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.sidebar.set_narrow(event.size().width() < NARROW_BELOW)
        self._fit_details()
        self._fit_height()
        super().resizeEvent(event)

    def _fit_height(self) -> None:
        """A short window gets a smaller mic, a shorter conversation and thinner margins: the room goes to the list."""
        compact = self.height() < COMPACT_BELOW
        self.mic.setIconSize(QSize(32, 32) if compact else QSize(56, 56))
        self.entries.set_compact(compact)
        conversation = COMPACT_CONVERSATION_HEIGHT if compact else CONVERSATION_HEIGHT
        steps = STEPS_HEIGHT if self.activity.details.isChecked() else 0
        self._conversation_box.setFixedHeight(conversation + steps)
        margins = QMargins(*(COMPACT_MARGIN,) * 4) if compact else self._roomy_margins
        self._main_layout.setContentsMargins(margins)
        self._main_layout.setSpacing(COMPACT_MARGIN if compact else -1)  # -1: the style's own spacing

    def _fit_details(self) -> None:
        """The details panel shows when asked for and the window has room for it beside the list."""
        self.details.setVisible(self.details_action.isChecked() and self.width() >= DETAILS_FROM)

    # -- persistence --------------------------------------------------------------------------

    @staticmethod
    def _settings() -> QSettings:
        return QSettings(str(config_dir() / "window.ini"), QSettings.Format.IniFormat)

    def save_view_state(self) -> None:
        settings = self._settings()
        settings.setValue("geometry", self.saveGeometry())
        settings.setValue("place", self.sidebar.chosen().key)
        settings.setValue("splitter", self.splitter.saveState())
        settings.setValue("details", self.details_action.isChecked())
        settings.sync()

    def restore_view_state(self) -> None:
        settings = self._settings()
        if (geometry := settings.value("geometry")) is not None:
            self.restoreGeometry(geometry)
        if (splitter := settings.value("splitter")) is not None:
            self.splitter.restoreState(splitter)
        self.sidebar.choose(str(settings.value("place", "all")))
        self.details_action.setChecked(str(settings.value("details", "true")).lower() == "true")
        self.model.restore_folded(set(_strings(settings.value("folded", []))))
        self.sort.setCurrentIndex(max(0, self.sort.findData(str(settings.value("sort", Sort.DUE.value)))))

    def _on_sort_current_index_changed(self) -> None:
        self.model.set_sort(Sort(self.sort.currentData()))
        self._remember("sort", self.sort.currentData())

    def _save_folds(self) -> None:
        self._remember("folded", sorted(self.model.folded))

    def _remember(self, key: str, value: object) -> None:
        """Kept at once, not only when the window closes: a choice outlives an app that never closes cleanly."""
        settings = self._settings()
        settings.setValue(key, value)
        settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_view_state()
        if self.hide_on_close:
            event.ignore()
            self.hide()
        else:
            super().closeEvent(event)


def _strings(value: object) -> list[str]:
    """A list QSettings read back from an ini file: one item comes back as a string, none as nothing."""
    if isinstance(value, str):
        return [value] if value else []
    return [str(item) for item in value] if isinstance(value, list) else []
