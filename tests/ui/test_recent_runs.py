"""Murmur → Recent runs in the real window: the kept runs newest first, a column per stage in ms with a slow one in
bold, a failed run marked; the selected run's events with their moments; a run made while it is open shows, the
run looked at still selected."""

from PySide6.QtWidgets import QTreeWidget
from pytestqt.qtbot import QtBot

from app.presentation.runs import ENDED_HEADERS, HEADERS, SLOW_NOTE, STAGES
from app.ui.application import Murmur
from tests.support.app_window import WAIT_MS, menu_action, type_and_enter
from tests.support.kept_runs import FAILED

INTERPRET = len(HEADERS) + STAGES.index("interpret")
ENDED = len(HEADERS) + len(STAGES)


def rows(table: QTreeWidget) -> list[list[str]]:
    items = [table.topLevelItem(row) for row in range(table.topLevelItemCount())]
    return [[item.text(column) for column in range(table.columnCount())] for item in items if item is not None]


def test_recent_runs_mark_a_slow_stage_and_a_failed_run_and_show_the_selected_runs_events(
    qtbot: QtBot, murmur: Murmur
) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "buy milk")
    murmur.service.keep_run(FAILED)

    menu_action(murmur, "Recent runs…").trigger()

    dialog = murmur.runs
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.table.topLevelItemCount() == 2, timeout=WAIT_MS)
    failed, typed = rows(dialog.table)
    assert failed[:3] == ["f00dcafe", failed[1], "typed"] and failed[1].startswith("Today ")
    assert failed[INTERPRET] == "2,340" and failed[ENDED:] == ["failed: llm (LlmError)", ""]
    assert typed[2] == "typed" and typed[ENDED:] == ["1 changed", "offline"] and typed[INTERPRET]
    newest, older = dialog.table.topLevelItem(0), dialog.table.topLevelItem(1)
    assert newest is not None and older is not None
    assert newest.font(INTERPRET).bold() and newest.toolTip(INTERPRET) == SLOW_NOTE
    assert not older.font(INTERPRET).bold() and not newest.icon(ENDED).isNull() and older.icon(ENDED).isNull()
    assert dialog.table.headerItem().text(ENDED) == ENDED_HEADERS[0]
    # the newest is selected: its events, each at its moment from the run's start
    assert rows(dialog.events) == [["+0 ms", "interpret", "run began"], ["+2,340 ms", "interpret", "error"]]
    dialog.table.setCurrentItem(older)
    assert dialog.heading.text().startswith("Run ") and dialog.heading.text().endswith("typed: 1 changed (offline)")
    events = [row[2] for row in rows(dialog.events)]
    assert events[0] == "run began" and events[-1] == "run ended"

    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "buy bread")
    qtbot.waitUntil(lambda: dialog.table.topLevelItemCount() == 3, timeout=WAIT_MS)
    assert dialog.table.currentItem() is dialog.table.topLevelItem(2)  # the run looked at stays selected
