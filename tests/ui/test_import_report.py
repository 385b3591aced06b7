"""File → Import of a todo.txt with a due that is no date, in the real window after something was said: no line is
dropped without a word (the toast names the line skipped and why), and the Details of the toast and of the line
of what happened show the import's own lines, not the steps of the run before it. The file dialog is the
platform's own and modal, so its answer is given in its place (QFileDialog's static function is patched)."""

from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from tests.support.app_window import WAIT_MS, summaries, type_and_enter

TODO_TXT = """(A) Call the dentist due:2026-12-01
Buy bread
Water the plants due:notadate
Pay rent +home due:2026-12-03
Book the flights @laptop
"""
SKIPPED = "line 3: skipped: due:notadate is not a date (todo.txt writes due:YYYY-MM-DD)"


def test_an_unreadable_line_is_named_and_the_details_are_the_imports_own(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        type_and_enter(qtbot, murmur, "buy milk")
    activity = murmur.window.activity
    run_steps = [activity.progress.item(row).text() for row in range(activity.progress.count())]
    assert run_steps and activity.details.isVisible()  # the run's steps, behind Details
    chosen = tmp_path / "todo.txt"
    chosen.write_text(TODO_TXT)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(chosen), ""))

    importing = next(a for a in murmur.window.findChildren(QAction) if a.text() == "Import…")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        importing.trigger()

    assert sorted(summaries(murmur)) == [
        "Book the flights @laptop",
        "Buy bread",
        "Buy milk",
        "Call the dentist",
        "Pay rent +home",
    ]
    toast = murmur.toast
    assert toast.title.text() == "Imported 4 entries from todo.txt; line 3 skipped"
    assert toast.message.isVisible() and toast.message.text() == "L" + SKIPPED[1:]
    assert toast.details.text().splitlines() == ["4 new", SKIPPED]
    assert activity.outcome.text() == toast.title.text()
    steps = [activity.progress.item(row).text() for row in range(activity.progress.count())]
    assert steps == ["4 new", SKIPPED] and activity.details.isVisible()
    assert not set(run_steps) & set(steps)
