"""The details panel: everything of the selected entry, its edits going through the service (undoable),
the due read back as typed with a warning when no reminder could fire, and its history in words."""

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import QDate, Qt, QTime
from pytestqt.qtbot import QtBot

from app.config import LocaleSettings, Settings
from app.domain.enums import Status
from app.presentation.times import in_sentence, moment_words
from app.ui.application import Murmur
from app.ui.details_panel import NO_REMINDER, PLACEHOLDER
from app.ui.microphone import real_dictation
from tests.ui.conftest import started_murmur
from tests.ui.selection import WAIT_MS, said_and_selected

SAID = "remind me to call the dentist thursday at 3pm"


def test_the_panel_shows_everything_of_the_selected_entry(qtbot: QtBot, murmur: Murmur) -> None:
    details = murmur.window.details
    assert not details.placeholder.isHidden() and details.placeholder.text() == PLACEHOLDER
    entry_id = said_and_selected(qtbot, murmur, SAID)
    assert details.isVisible() and details.placeholder.isHidden()
    assert details.summary.text() == "Call the dentist"
    assert details.category.currentText() == "Reminder" and details.priority.currentText() == "None"
    [entry] = murmur.service.entries([Status.ACTIVE])
    clock = murmur.service.clock()
    assert entry.due_at is not None and entry.due_at.astimezone(clock.tz).weekday() == 3  # the next Thursday
    assert details.due.text() == moment_words(entry.due_at, clock.now, clock.tz) and details.due.text().endswith(
        "15:00"
    )
    assert details.due_reading.text() == f"Due {in_sentence(entry.due_at, clock.now, clock.tz)}"
    assert details.status.text() == "Open"
    assert details.said.text() == f"“{SAID}”"
    history = [details.changes.item(i).text() for i in range(details.changes.count())]
    assert len(history) == 1 and history[0].endswith(f"Created “Call the dentist”, from “{SAID}”")
    short_id = murmur.service.short_ids()[entry_id]
    assert details.meta.text().endswith(f"ID {short_id}") and entry_id not in details.meta.text()


def test_an_edit_in_the_panel_is_applied_and_undoable(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_selected(qtbot, murmur, SAID)
    details = murmur.window.details
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        details.priority.setCurrentIndex(details.priority.findData("2"))
        details.priority.activated.emit(details.priority.currentIndex())
    [entry] = murmur.service.entries([Status.ACTIVE])
    assert entry.priority == 2 and details.priority.currentText() == "2 · High"
    assert details.changes.item(0).text().endswith("Updated “Call the dentist”: priority 2")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.undo_last()
    [entry] = murmur.service.entries([Status.ACTIVE])
    assert entry.priority is None and details.priority.currentText() == "None"


def test_an_unreadable_due_is_flagged_before_it_is_kept(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_selected(qtbot, murmur, SAID)
    details = murmur.window.details
    details.due.setFocus()
    details.due.selectAll()
    qtbot.keyClicks(details.due, "when pigs fly")
    assert details.due_reading.text() == NO_REMINDER
    details.due.selectAll()
    qtbot.keyClicks(details.due, "friday 5pm")
    assert details.due_reading.text().startswith("Due Fri ") and details.due_reading.text().endswith(" 17:00")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        qtbot.keyClick(details.due, Qt.Key.Key_Return)
    [entry] = murmur.service.entries([Status.ACTIVE])
    assert entry.due_text == "friday 5pm" and entry.due_at is not None and entry.due_at.weekday() == 4


def test_the_panel_gives_way_in_a_narrow_window_and_ctrl_i_toggles_it(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_selected(qtbot, murmur, SAID)
    window = murmur.window
    assert window.details.isVisible()
    window.details_action.trigger()
    assert not window.details.isVisible()
    window.details_action.trigger()
    assert window.details.isVisible()
    window.resize(700, 500)
    qtbot.waitUntil(lambda: not window.details.isVisible())


NEW_YORK = ZoneInfo("America/New_York")
# The user's own clock: their zone (MURMUR_TZ), their country's named days and the hour they call evening.
MONDAY_MORNING_IN_NEW_YORK = datetime(2026, 11, 23, 10, 0, tzinfo=NEW_YORK)
AMERICAN = Settings(locale=LocaleSettings(country="US", evening="20:30"))


@pytest.fixture
def murmur_in_new_york(qtbot: QtBot, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Murmur]:
    monkeypatch.setenv("MURMUR_TZ", NEW_YORK.key)
    yield from started_murmur(qtbot, db_path, real_dictation, arm=False, settings=AMERICAN)


def test_the_due_read_back_is_the_due_saved(qtbot: QtBot, murmur_in_new_york: Murmur) -> None:
    """The reading under the due field is the service's: its zone, evening hour and named days, and what the
    words leave unsaid kept from the entry's due, as the edit keeps them."""
    murmur = murmur_in_new_york
    # A morning, not the wall clock: "this evening" said after its hour is later today, not the evening's hour.
    wall_clock = murmur.service.clock
    murmur.service.clock = lambda: replace(wall_clock(), now=MONDAY_MORNING_IN_NEW_YORK)
    said_and_selected(qtbot, murmur, SAID)
    details = murmur.window.details
    for words in ("this evening", "on Thanksgiving"):
        details.due.setFocus()
        details.due.selectAll()
        qtbot.keyClicks(details.due, words)
        shown = details.due_reading.text()
        with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
            qtbot.keyClick(details.due, Qt.Key.Key_Return)
        [entry] = murmur.service.entries([Status.ACTIVE])
        assert entry.due_text == words and entry.due_at is not None
        due = entry.due_at.astimezone(NEW_YORK)
        assert shown == f"Due {in_sentence(due, MONDAY_MORNING_IN_NEW_YORK, NEW_YORK)}"
        assert (due.hour, due.minute) == (20, 30)  # the evening's hour, and then the time the day alone keeps
    assert (due.month, due.weekday(), (due.day - 1) // 7) == (11, 3, 3)  # the fourth Thursday of November


def test_the_picker_starts_at_the_hour_a_day_alone_is_due_and_writes_the_due_as_the_field_shows_it(
    qtbot: QtBot, murmur: Murmur
) -> None:
    said_and_selected(qtbot, murmur, "buy milk")
    details = murmur.window.details
    picker = details.due_picker()
    assert picker is not None
    tomorrow = murmur.service.read_due("tomorrow")
    assert tomorrow is not None and (tomorrow.hour, tomorrow.minute) == (9, 0)
    assert picker.time.time() == QTime(9, 0)  # not the minute the picker was opened at
    assert picker.calendar.selectedDate() == QDate(tomorrow.year, tomorrow.month, tomorrow.day)
    picker.time.setTime(QTime(17, 30))
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        details.take_picked_due(picker.chosen())
    [entry] = murmur.service.entries([Status.ACTIVE])
    due = entry.due_at.astimezone(murmur.service.clock().tz)  # type: ignore[union-attr]
    assert (due.date(), due.hour, due.minute) == (tomorrow.date(), 17, 30)
    clock = murmur.service.clock()
    assert details.due.text() == moment_words(due, clock.now, clock.tz) and details.due.text().endswith(" 17:30")
    reopened = details.due_picker()
    assert reopened is not None and reopened.time.time() == QTime(17, 30)  # an entry with a due: at its due


# Late on a Saturday in New York: a reminder set for earlier this evening is overdue, a daily one too.
SATURDAY_LATE = datetime(2026, 11, 28, 23, 34, tzinfo=NEW_YORK)


@pytest.mark.parametrize(
    ("said", "repeats"),
    [("remind me to call the plumber at 9:50pm", False), ("water the plants every day at 9pm", True)],
)
def test_an_overdue_due_is_shown_once_as_the_app_says_it(
    qtbot: QtBot, murmur_in_new_york: Murmur, said: str, repeats: bool
) -> None:
    """The due field and the line under it name the one due the entry has, as the rest of the app words a
    moment ("Today 21:50"): the field's own words are not read again as if typed, which moved a time of today
    that has passed to tomorrow."""
    murmur = murmur_in_new_york
    wall_clock = murmur.service.clock
    murmur.service.clock = lambda: replace(wall_clock(), now=SATURDAY_LATE.replace(hour=20))
    entry_id = said_and_selected(qtbot, murmur, said)
    murmur.service.clock = lambda: replace(wall_clock(), now=SATURDAY_LATE)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()
    assert murmur.window.select_entry(entry_id)
    [entry] = murmur.service.entries([Status.ACTIVE])
    assert entry.due_at is not None and entry.due_at < SATURDAY_LATE and (entry.recurrence is not None) == repeats
    details, due = murmur.window.details, moment_words(entry.due_at, SATURDAY_LATE, NEW_YORK)
    assert due.startswith("Today ") and details.due.text() == due
    assert details.due_reading.text() == f"Due {in_sentence(entry.due_at, SATURDAY_LATE, NEW_YORK)}"
