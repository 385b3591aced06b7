"""The words of the entry list's right-click menu: its submenus, and each choice of a time with the phrase the service
reads for it, so what the menu says is what is done."""

from dataclasses import dataclass

SNOOZE = "Snooze"
MOVE = "Move to"
PICK_DATE = "Pick a date…"


@dataclass(frozen=True)
class TimeChoice:
    label: str  # "Until this evening"
    phrase: str  # "this evening", as the service reads it


SNOOZE_CHOICES = (
    TimeChoice("For 1 hour", "in 1 hour"),
    TimeChoice("Until this evening", "this evening"),
    TimeChoice("Until tomorrow", "tomorrow"),
    TimeChoice("Until next week", "next week"),
)
MOVE_CHOICES = (
    TimeChoice("Today", "today"),
    TimeChoice("Tomorrow", "tomorrow"),
    TimeChoice("Next week", "next week"),
)
