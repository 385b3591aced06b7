"""The entry list's right-click menu, at a fixed Sunday evening (18:30): Snooze offers only the times that would hide
the selected entries, Move to changes their due in one undoable change, and a change made by hand that is refused is
worded as that change, not as something said that waits in the Inbox."""

from datetime import datetime

import pytest
from PySide6.QtCore import QDate, QTime
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.ui.application import Murmur
from app.ui.icons import AppState
from tests.support.clock import BERLIN, FIXED_CLOCK
from tests.ui.selection import WAIT_MS, said_and_selected


@pytest.fixture
def sunday_evening(murmur: Murmur) -> Murmur:
    murmur.service.clock = lambda: FIXED_CLOCK
    return murmur


def test_a_refused_snooze_by_hand_says_so_and_nothing_waits(qtbot: QtBot, sunday_evening: Murmur) -> None:
    murmur = sunday_evening
    said_and_selected(qtbot, murmur, "call mom thursday at 7pm")  # due after tomorrow: snoozing to then hides nothing
    snooze = next(action for action in murmur.window.entries.actions() if action.text() == "Snooze until tomorrow")

    snooze.trigger()  # Ctrl+S

    refused = (
        "Couldn't snooze “Call mom”: it is due Thu 26 Nov 19:00, after Mon 23 Nov 09:00: nothing to snooze"
        " (to change its due, move it)"
    )
    qtbot.waitUntil(lambda: murmur.toast.title.text() == refused, timeout=WAIT_MS)
    assert "Inbox" not in murmur.toast.message.text() and murmur.toast.content is not None
    assert murmur.toast.content.error and murmur.toast.content.retry_utterance_id is None
    assert murmur.window.activity.outcome.text() == refused
    assert murmur.state() is AppState.IDLE  # nothing waits for the user: the mic does not stay red
    assert murmur.service.inbox() == []


def submenu(murmur: Murmur, title: str) -> QMenu:
    menu = murmur.window.entries.context_menu()
    assert menu is not None
    found = next(action.menu() for action in menu.actions() if action.text() == title)
    assert isinstance(found, QMenu)
    return found


def offered(menu: QMenu) -> dict[str, bool]:
    """Each choice, and whether it can be picked."""
    return {action.text(): action.isEnabled() for action in menu.actions()}


def pick(qtbot: QtBot, murmur: Murmur, menu: QMenu, label: str) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        next(action for action in menu.actions() if action.text() == label).trigger()


def due_of(murmur: Murmur, entry_id: str) -> datetime | None:
    entry = murmur.service.open_entry(entry_id)
    assert entry is not None and entry.due_at is not None
    return entry.due_at.astimezone(BERLIN)


@pytest.mark.parametrize(
    ("said", "can_pick"),
    [
        # Due tomorrow 19:00: every snooze ends before it (next week starts tomorrow, a Monday), so none hides it.
        ("call mom tomorrow at 7pm", [False, False, False, False]),
        ("call mom at 7pm", [True, False, True, True]),  # due 19:00: this evening (19:00) is not past it, 1 hour is
        ("call mom", [True, True, True, True]),  # no due: any time ahead
    ],
)
def test_snooze_offers_only_the_times_that_would_hide_the_entry(
    qtbot: QtBot, sunday_evening: Murmur, said: str, can_pick: list[bool]
) -> None:
    said_and_selected(qtbot, sunday_evening, said)
    labels = ["For 1 hour", "Until this evening", "Until tomorrow", "Until next week"]
    assert offered(submenu(sunday_evening, "Snooze")) == dict(zip(labels, can_pick, strict=True))


def test_a_snooze_from_the_menu_hides_the_entry(qtbot: QtBot, sunday_evening: Murmur) -> None:
    murmur = sunday_evening
    entry_id = said_and_selected(qtbot, murmur, "call mom at 7pm")
    pick(qtbot, murmur, submenu(murmur, "Snooze"), "For 1 hour")
    entry = murmur.service.open_entry(entry_id)
    assert entry is not None and entry.status is Status.SNOOZED and entry.snooze_until is not None
    assert entry.snooze_until.astimezone(BERLIN) == datetime(2026, 11, 22, 19, 30, tzinfo=BERLIN)


def test_move_to_tomorrow_keeps_the_time_of_day_and_undo_brings_the_due_back(
    qtbot: QtBot, sunday_evening: Murmur
) -> None:
    murmur = sunday_evening
    entry_id = said_and_selected(qtbot, murmur, "call mom thursday at 7pm")
    move = submenu(murmur, "Move to")
    assert offered(move) == {"Today": True, "Tomorrow": True, "Next week": True, "Pick a date…": True}

    pick(qtbot, murmur, move, "Tomorrow")

    assert due_of(murmur, entry_id) == datetime(2026, 11, 23, 19, 0, tzinfo=BERLIN)
    assert murmur.toast.content is not None and not murmur.toast.content.error
    assert offered(submenu(murmur, "Move to"))["Tomorrow"] is False  # it is there already
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.toast.undo_button.click()
    assert due_of(murmur, entry_id) == datetime(2026, 11, 26, 19, 0, tzinfo=BERLIN)


def test_a_habit_moved_to_a_picked_date_keeps_its_repeat(qtbot: QtBot, sunday_evening: Murmur) -> None:
    murmur = sunday_evening
    entry_id = said_and_selected(qtbot, murmur, "water the plants every monday at 8am")
    before = murmur.service.open_entry(entry_id)
    assert before is not None and before.recurrence
    next(a for a in submenu(murmur, "Move to").actions() if a.text() == "Pick a date…").trigger()
    picker = murmur.window.entries.due_picker()
    assert picker is not None and picker.chosen() == datetime(2026, 11, 23, 8, 0)  # opened at its due
    picker.calendar.setSelectedDate(QDate(2026, 12, 2))
    picker.time.setTime(QTime(10, 15))

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        picker.accept()

    after = murmur.service.open_entry(entry_id)
    assert after is not None and after.recurrence == before.recurrence
    assert due_of(murmur, entry_id) == datetime(2026, 12, 2, 10, 15, tzinfo=BERLIN)
    assert murmur.window.entries.due_picker() is None  # closed and gone
