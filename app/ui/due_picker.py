"""A calendar and a time, for a due picked rather than said (the details panel's Pick…, the list's Move to)."""

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from PySide6.QtCore import QDate, QTime
from PySide6.QtWidgets import QCalendarWidget, QDialog, QDialogButtonBox, QTimeEdit, QVBoxLayout, QWidget

# Where a due set to these words lands, given the entry's current due: the service's reading (MurmurService.read_due).
DueReader = Callable[[str, datetime | None], datetime | None]


class DuePicker(QDialog):
    """`start` and what is chosen are wall-clock times."""

    def __init__(self, start: datetime, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Due")
        self.calendar = QCalendarWidget()
        self.calendar.setSelectedDate(QDate(start.year, start.month, start.day))
        self.time = QTimeEdit(QTime(start.hour, start.minute))
        self.time.setDisplayFormat("HH:mm")
        self.time.setAccessibleName("Time")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.calendar)
        layout.addWidget(self.time)
        layout.addWidget(buttons)

    def chosen(self) -> datetime:
        day, time = self.calendar.selectedDate(), self.time.time()
        return datetime(day.year(), day.month(), day.day(), time.hour(), time.minute())


def due_picker(due: datetime | None, reader: DueReader | None, tz: ZoneInfo, parent: QWidget) -> DuePicker | None:
    """The picker at `due`; with none, where "tomorrow" lands (the hour a day said alone is due at)."""
    start = due or (reader("tomorrow", None) if reader else None)
    return DuePicker(start.astimezone(tz).replace(tzinfo=None), parent) if start else None
