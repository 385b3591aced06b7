"""The tray: its tooltip says the state, how many things are due today and the next one; its menu lists
the next three under "Due today", and picking one asks to show it. Whatever is due, the menu keeps its rows in
their places, Quit last; paused, the menu offers to resume, and the icon and tooltip say it is paused."""

from datetime import timedelta

import pytest
from pytestqt.qtbot import QtBot

from app.domain.clock import Clock
from app.domain.enums import Category
from app.store.models import Entry
from app.ui.application import Murmur
from app.ui.entry_model import EntryListModel
from app.ui.icons import AppState, state_icon
from app.ui.jobs import EntrySnapshot
from app.ui.plain_text import plain_tooltip
from app.ui.tray import Tray
from app.ui.window import DUE_NOW


def due_rows(clock: Clock, *names_and_hours: tuple[str, float]) -> EntryListModel:
    entries = [
        Entry(
            content=name, summary=name, category=Category.TODO, source_text=name, due_at=clock.now + timedelta(hours=h)
        )
        for name, h in names_and_hours
    ]
    model = EntryListModel()
    model.set_snapshot(EntrySnapshot(entries, {}, clock.now, clock.tz))
    return model


def test_the_tooltip_and_menu_name_what_is_due_today(qtbot: QtBot, clock: Clock) -> None:
    # 18:30: one late, three later tonight, one tomorrow (not today's).
    model = due_rows(clock, ("Feed the cat", -1), ("Call Ana", 0.5), ("Pay rent", 2), ("Read", 4), ("Dentist", 20))
    tray = Tray()
    tray.set_state(AppState.IDLE, "ready")
    tray.show_due(model.rows_in(DUE_NOW))
    assert tray.icon.toolTip() == plain_tooltip("Murmur: ready\n4 due today · next: Feed the cat, Today 17:30")
    due = tray.menu.actions()[0]
    assert due.text() == "Due today (4)" and due.isEnabled() and due.menu() is tray.due_menu
    texts = [action.text() for action in tray.due_menu.actions()]
    assert texts == ["Feed the cat · Today 17:30", "Call Ana · in 30 min", "Pay rent · Today 20:30"]
    with qtbot.waitSignal(tray.reminder_clicked) as shown:
        tray.due_menu.actions()[1].trigger()
    assert model.row_of(shown.args[0]).summary == "Call Ana"  # type: ignore[union-attr]

    tray.show_due([])  # all done: the list goes, its line says so
    assert tray.icon.toolTip() == plain_tooltip("Murmur: ready\nnothing due today")
    assert (due.text(), due.isEnabled(), tray.due_menu.actions()) == ("Nothing due today", False, [])
    tray.set_state(AppState.RECORDING, "listening")
    assert tray.icon.toolTip() == plain_tooltip("Murmur: listening\nnothing due today")
    tray.show_sync("Sync: Last sync Sun 22 Nov 18:30 · 2 changes waiting")  # a line of its own, after the rest
    assert tray.icon.toolTip() == plain_tooltip(
        "Murmur: listening\nnothing due today\nSync: Last sync Sun 22 Nov 18:30 · 2 changes waiting"
    )


def test_an_ampersand_in_a_summary_stays_in_the_menu(qtbot: QtBot, clock: Clock) -> None:
    tray = Tray()
    tray.show_due(due_rows(clock, ("Milk & eggs", 1)).rows_in(DUE_NOW))
    assert tray.due_menu.actions()[0].text() == "Milk && eggs · Today 19:30"  # shown as "Milk & eggs", no shortcut


def test_quit_stays_last_and_in_its_place_whatever_is_due(qtbot: QtBot, clock: Clock) -> None:
    """A menu that grew by a line since it was last opened would put Pause listening where Quit was."""
    tray = Tray()
    nothing_due = tray.menu.actions()
    tray.show_due(due_rows(clock, ("Feed the cat", -1)).rows_in(DUE_NOW))
    one_due = tray.menu.actions()
    tray.show_due(
        due_rows(clock, ("Feed the cat", -1), ("Call Ana", 0.5), ("Pay rent", 2), ("Read", 4)).rows_in(DUE_NOW)
    )
    assert nothing_due == one_due == tray.menu.actions()
    assert nothing_due[-1].text() == "Quit"


@pytest.mark.qt_log_ignore("systemTrayWindowChanged")  # a tray icon offscreen: no tray to dock in
def test_pausing_is_said_by_the_menu_the_icon_and_the_tooltip(murmur_in_the_tray: Murmur) -> None:
    murmur, tray = murmur_in_the_tray, murmur_in_the_tray.tray
    assert tray is not None
    rows = tray.menu.actions()
    pause = next(action for action in rows if action.text() == "Pause listening")
    assert not pause.isCheckable()  # a check mark alone is easily missed: the words say what a click does

    pause.trigger()
    assert murmur.hotkey.paused and murmur.state() is AppState.PAUSED
    assert pause.text() == "Resume listening" and tray.menu.actions() == rows and rows[-1].text() == "Quit"
    assert tray.icon.icon().cacheKey() == state_icon(AppState.PAUSED).cacheKey()
    assert "Murmur: Paused" in tray.icon.toolTip()
    assert murmur.window.activity.status.text().startswith("Paused")

    pause.trigger()
    assert not murmur.hotkey.paused and murmur.state() is AppState.IDLE
    assert pause.text() == "Pause listening"
    assert tray.icon.icon().cacheKey() == state_icon(AppState.IDLE).cacheKey()
    assert "Murmur: Ready" in tray.icon.toolTip()
