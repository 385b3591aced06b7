"""The tray icon: shows the state (idle, paused, recording, thinking, error) and what is due today, and offers the
menu, whose first line opens the next things due (a click shows one in the window).

The menu keeps its lines, in their places, whatever is due: one that grew since it was last opened would put another
line where Quit was."""

from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from app.ui.entry_sections import EntryRow
from app.ui.icons import AppState, state_icon
from app.ui.plain_text import plain_notification, plain_tooltip

MENU_DUE = 3  # the next things due, listed under the menu's first line
PAUSE, RESUME = "Pause listening", "Resume listening"


class Tray(QObject):
    dictate_clicked = Signal()
    show_hide_clicked = Signal()
    recent_clicked = Signal()
    undo_last_clicked = Signal()
    pause_toggled = Signal(bool)
    settings_clicked = Signal()
    quit_clicked = Signal()
    reminder_clicked = Signal(str)  # an entry to show: of the last notification, or picked in the menu

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.menu = QMenu()
        self.due_menu = QMenu()
        self._state_text = "ready"
        self._due_text = ""
        self._sync_text = ""
        self._paused = False
        self.menu.addMenu(self.due_menu)
        self.menu.addSeparator()
        self.menu.addAction("Dictate", self.dictate_clicked.emit)
        self.menu.addAction("Show / hide window", self.show_hide_clicked.emit)
        self.menu.addSeparator()
        self.menu.addAction("Recent toast", self.recent_clicked.emit)
        self.menu.addAction("Undo last", self.undo_last_clicked.emit)
        self.menu.addSeparator()
        # Paused, the hotkey is ignored and the microphone kept open for the pre-roll is closed. Its words say what
        # a click does (a check mark alone is easily missed); the icon and the tooltip say that it is paused.
        self.pause_action = self.menu.addAction(PAUSE, self._on_pause_triggered)
        self.menu.addAction("Settings…", self.settings_clicked.emit)
        self.menu.addSeparator()
        self.menu.addAction("Quit", self.quit_clicked.emit)
        self.icon = QSystemTrayIcon(state_icon(AppState.IDLE), self)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._on_icon_activated)
        self.icon.messageClicked.connect(self._on_message_clicked)
        self._notified_entry = ""
        self.show_due([])

    def show(self) -> None:
        self.icon.show()

    def hide(self) -> None:
        self.icon.hide()

    def set_state(self, state: AppState, tooltip: str) -> None:
        self.icon.setIcon(state_icon(state))
        self._state_text = tooltip
        self._show_tooltip()

    def show_due(self, due: list[EntryRow]) -> None:
        """What is due today or overdue, soonest first: counted in the tooltip and the menu's first line, the first
        few under it."""
        self._due_text = f"{len(due)} due today · next: {due[0].summary}, {due[0].due}" if due else "nothing due today"
        self._show_tooltip()
        self.due_menu.setTitle(f"Due today ({len(due)})" if due else "Nothing due today")
        self.due_menu.setEnabled(bool(due))
        self.due_menu.clear()
        for row in due[:MENU_DUE]:
            # A menu reads "&" as the mark of a shortcut key: "Milk & eggs" must keep its ampersand.
            action = self.due_menu.addAction(f"{row.summary} · {row.due}".replace("&", "&&"))
            action.triggered.connect(partial(self.reminder_clicked.emit, row.id))

    def show_paused(self, paused: bool) -> None:
        self._paused = paused
        self.pause_action.setText(RESUME if paused else PAUSE)

    def show_sync(self, text: str) -> None:
        """How sync stands, a line of its own ("" when sync is not set up)."""
        self._sync_text = text
        self._show_tooltip()

    def _show_tooltip(self) -> None:
        lines = (f"Murmur: {self._state_text}", self._due_text, self._sync_text)
        self.icon.setToolTip(plain_tooltip("\n".join(line for line in lines if line)))

    def notify(self, title: str, text: str, entry_id: str = "", error: bool = False) -> None:
        self._notified_entry = entry_id
        kind = QSystemTrayIcon.MessageIcon.Warning if error else QSystemTrayIcon.MessageIcon.Information
        self.icon.showMessage(plain_notification(title), plain_notification(text), kind, 10_000)

    def _on_pause_triggered(self) -> None:
        self.pause_toggled.emit(not self._paused)

    def _on_icon_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason is QSystemTrayIcon.ActivationReason.Trigger:
            self.show_hide_clicked.emit()

    def _on_message_clicked(self) -> None:
        if self._notified_entry:
            self.reminder_clicked.emit(self._notified_entry)
        else:
            self.show_hide_clicked.emit()
