"""What an empty list says instead of a blank grid: on the first run what to say and the hotkey (with a
button to try the microphone), else why this view is empty ("Nothing due today", "Nothing waiting")."""

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from app.ui.entry_sections import View
from app.ui.plain_text import plain_label

QUIET = {
    View.TODAY: ("Nothing due today", "Enjoy the calm. Upcoming shows what comes next."),
    View.UPCOMING: ("Nothing planned", "Say a day and Murmur files it here: “dentist on Thursday at 3”."),
    View.ALL: ("Nothing open", "Everything is done. Say what comes next."),
    View.DONE: ("Nothing done yet", "Tick an entry off, or say “milk is done”."),
    View.ARCHIVED: ("Nothing archived", "An entry archived waits here, to be brought back with Unarchive."),
}
INBOX_QUIET = ("Nothing waiting", "What Murmur couldn't place lands here.")


class EmptyState(QWidget):
    try_microphone = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("emptyState")
        self.title = plain_label(QLabel())
        self.title.setObjectName("emptyTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.body = plain_label(QLabel())
        self.body.setObjectName("emptyBody")
        self.body.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.body.setWordWrap(True)
        self.body.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.button = QPushButton("Try the microphone")
        self.button.setObjectName("tryMicrophone")
        self.button.clicked.connect(self.try_microphone)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.title)
        layout.addWidget(self.body)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)

    def show_first_run(self, hotkey: str) -> None:
        held = f"Hold {hotkey} and say" if hotkey else "Click the microphone and say"
        self._say(
            "Say what’s on your mind",
            f"{held}: “remind me to call the dentist Thursday”.\nOr type it in the box above and press Enter.",
            microphone=True,
        )

    def show_no_match(self, search: str) -> None:
        self._say(f"Nothing matches “{search}”", "The search looks through every entry, done ones too.")

    def show_quiet(self, view: View, category_plural: str | None) -> None:
        if category_plural:
            self._say(f"No open {category_plural.lower()}", "Say one, or type it in the box above.")
        else:
            self._say(*QUIET[view])

    def show_inbox_quiet(self) -> None:
        self._say(*INBOX_QUIET)

    def _say(self, title: str, body: str, microphone: bool = False) -> None:
        self.title.setText(title)
        self.body.setText(body)
        self.button.setVisible(microphone)
