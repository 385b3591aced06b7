"""The tray icon: shows the state (idle, recording, thinking, error) and what is due today, and offers the
menu, whose top lists the next things due (a click shows one in the window)."""

from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from app.ui.entry_sections import EntryRow
from app.ui.icons import AppState, state_icon
from app.ui.plain_text import plain_notification, plain_tooltip

MENU_DUE = 3  # the next things due, listed at the top of the menu


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
        self._due_actions: list[QAction] = []
        self._state_text = "ready"
        self._due_text = ""
        self._sync_text = ""
        self.dictate_action = self.menu.addAction("Dictate", self.dictate_clicked.emit)
        self.menu.addAction("Show / hide window", self.show_hide_clicked.emit)
        self.menu.addSeparator()
        self.menu.addAction("Recent toast", self.recent_clicked.emit)
        self.menu.addAction("Undo last", self.undo_last_clicked.emit)
        self.menu.addSeparator()
        # Paused, the hotkey is ignored and the microphone kept open for the pre-roll is closed.
        self.pause_action = QAction("Pause listening", self.menu, checkable=True)
        self.pause_action.toggled.connect(self.pause_toggled)
        self.menu.addAction(self.pause_action)
        self.menu.addAction("Settings…", self.settings_clicked.emit)
        self.menu.addSeparator()
        self.menu.addAction("Quit", self.quit_clicked.emit)
        self.icon = QSystemTrayIcon(state_icon(AppState.IDLE), self)
        self.icon.setContextMenu(self.menu)
        self.icon.setToolTip("Murmur")
        self.icon.activated.connect(self._on_icon_activated)
        self.icon.messageClicked.connect(self._on_message_clicked)
        self._notified_entry = ""

    def show(self) -> None:
        self.icon.show()

    def hide(self) -> None:
        self.icon.hide()

    def set_state(self, state: AppState, tooltip: str) -> None:
        self.icon.setIcon(state_icon(state))
        self._state_text = tooltip
        self._show_tooltip()

    def show_due(self, due: list[EntryRow]) -> None:
        """What is due today or overdue, soonest first: counted in the tooltip, the first few in the menu."""
        self._due_text = f"{len(due)} due today · next: {due[0].summary}, {due[0].due}" if due else "nothing due today"
        self._show_tooltip()
        for action in self._due_actions:
            self.menu.removeAction(action)
        # A menu reads "&" as the mark of a shortcut key: "Milk & eggs" must keep its ampersand.
        self._due_actions = [
            QAction(f"{row.summary} · {row.due}".replace("&", "&&"), self.menu) for row in due[:MENU_DUE]
        ]
        for action, row in zip(self._due_actions, due, strict=False):
            action.triggered.connect(partial(self.reminder_clicked.emit, row.id))
        if self._due_actions:
            self._due_actions.append(self.menu.insertSeparator(self.dictate_action))
        self.menu.insertActions(self.dictate_action, self._due_actions)

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

    def _on_icon_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason is QSystemTrayIcon.ActivationReason.Trigger:
            self.show_hide_clicked.emit()

    def _on_message_clicked(self) -> None:
        if self._notified_entry:
            self.reminder_clicked.emit(self._notified_entry)
        else:
            self.show_hide_clicked.emit()
