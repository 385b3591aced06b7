"""The tray: its tooltip says the state, how many things are due today and the next one; its menu lists
the next three, and picking one asks to show it."""

from datetime import timedelta

from pytestqt.qtbot import QtBot

from app.domain.clock import Clock
from app.domain.enums import Category
from app.store.models import Entry
from app.ui.entry_model import EntryListModel
from app.ui.icons import AppState
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
    texts = [action.text() for action in tray.menu.actions()]
    assert texts[:4] == ["Feed the cat · Today 17:30", "Call Ana · in 30 min", "Pay rent · Today 20:30", ""]
    assert texts[4] == "Dictate"
    with qtbot.waitSignal(tray.reminder_clicked) as shown:
        tray.menu.actions()[1].trigger()
    assert model.row_of(shown.args[0]).summary == "Call Ana"  # type: ignore[union-attr]

    tray.show_due([])  # all done: the list goes, the menu is as before
    assert tray.icon.toolTip() == plain_tooltip("Murmur: ready\nnothing due today")
    assert tray.menu.actions()[0].text() == "Dictate"
    tray.set_state(AppState.RECORDING, "listening")
    assert tray.icon.toolTip() == plain_tooltip("Murmur: listening\nnothing due today")
    tray.show_sync("Sync: Last sync Sun 22 Nov 18:30 · 2 changes waiting")  # a line of its own, after the rest
    assert tray.icon.toolTip() == plain_tooltip(
        "Murmur: listening\nnothing due today\nSync: Last sync Sun 22 Nov 18:30 · 2 changes waiting"
    )


def test_an_ampersand_in_a_summary_stays_in_the_menu(qtbot: QtBot, clock: Clock) -> None:
    tray = Tray()
    tray.show_due(due_rows(clock, ("Milk & eggs", 1)).rows_in(DUE_NOW))
    assert tray.menu.actions()[0].text() == "Milk && eggs · Today 19:30"  # shown as "Milk & eggs", no shortcut
