"""The Inbox's one-line offer, when a better speech engine is installed than the one that heard what waits there:
"3 waiting items can be heard again with Whisper", and one button that hears them all again."""

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QSizePolicy, QWidget

from app.ui.elided_label import ElidedLabel

# A tint of the window's accent that reads on the light and the dark theme alike: an offer, not a problem.
STYLE = """
QFrame#rehearOffer { background: rgba(64, 132, 214, 0.10); border: 1px solid rgba(64, 132, 214, 0.45);
    border-radius: 6px; }
QFrame#rehearOffer QLabel { background: transparent; border: none; }
"""


class RehearBanner(QFrame):
    accepted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rehearOffer")
        self.setStyleSheet(STYLE)
        self.setAccessibleName("Hear again offer")
        self.line = ElidedLabel(lines=2)  # a narrow window wraps it, then cuts it (the tooltip has it whole)
        self.line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.button = QPushButton("Hear them again")
        self.button.setAccessibleName("Hear them again")
        self.button.clicked.connect(self.accepted)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 4, 2)
        layout.addWidget(self.line, 1)
        layout.addWidget(self.button)
        self.hide()

    def show_offer(self, text: str | None) -> None:
        """Offer `text` ("2 waiting items can be heard again with Whisper (whisper-base)"); None: hide it."""
        self.line.setText(f"{text} —" if text else "")
        self.setVisible(bool(text))
