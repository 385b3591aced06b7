"""Play and Hear again for one utterance's recording (the Inbox's and the details pane's): disabled, with the
reason in the tooltip, when there is no sound to play or nothing to hear again; Play reads Stop while a recording
plays."""

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

PLAY_TIP = "Play what you said, as it was recorded"
STOP_TIP = "Stop playing"
HEAR_TIP = "Hear the recording again with the best speech engine installed, and run what it hears"


class RecordingButtons(QWidget):
    play_requested = Signal(int)  # the utterance: play its recording, or stop it when it plays
    hear_again_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.play_button = QPushButton("Play")
        self.play_button.setAccessibleName("Play")
        self.play_button.clicked.connect(self._on_play_clicked)
        self.hear_button = QPushButton("Hear again")
        self.hear_button.setAccessibleName("Hear again")
        self.hear_button.clicked.connect(self._on_hear_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.play_button)
        layout.addWidget(self.hear_button)
        self._utterance_id: int | None = None
        self._playing = False
        self.show_for(None)

    def show_for(self, utterance_id: int | None, missing: str | None = None, not_hearable: str | None = None) -> None:
        """The buttons for utterance `utterance_id` (None: nothing chosen); `missing`: why it has no sound to play;
        `not_hearable`: why its sound cannot be heard again, though it plays."""
        self._utterance_id = utterance_id
        chosen = utterance_id is not None
        _offer(self.play_button, chosen and missing is None, PLAY_TIP, missing)
        _offer(self.hear_button, chosen and missing is None and not_hearable is None, HEAR_TIP, missing or not_hearable)
        self._show_play_state()

    def show_playing(self, utterance_id: int | None) -> None:
        """The utterance whose recording plays now (None: none): Play reads Stop meanwhile."""
        self._playing = utterance_id is not None
        self._show_play_state()

    def _show_play_state(self) -> None:
        # One plays at a time: a press while one plays stops it, whichever is chosen.
        self.play_button.setText("Stop" if self._playing else "Play")
        if self.play_button.isEnabled():
            _tip(self.play_button, STOP_TIP if self._playing else PLAY_TIP)

    def _on_play_clicked(self) -> None:
        if self._utterance_id is not None:
            self.play_requested.emit(self._utterance_id)

    def _on_hear_clicked(self) -> None:
        if self._utterance_id is not None:
            self.hear_again_requested.emit(self._utterance_id)


def _offer(button: QPushButton, enabled: bool, tip: str, why_not: str | None) -> None:
    """`button` enabled with `tip`, or disabled with the reason (a disabled button still shows its tooltip)."""
    button.setEnabled(enabled)
    _tip(button, tip if enabled else why_not or "")


def _tip(button: QPushButton, tip: str) -> None:
    button.setToolTip(tip)
    button.setAccessibleDescription(tip)
