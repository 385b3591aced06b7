"""File → Export and File → Import in the real window: the file chosen is written owner-only in the format its
type names, an import lands in the list as one batch that the toast's Undo takes back, and what could not be
read is listed. The file dialogs are the platform's own and modal, so their answer is given in their place
(QFileDialog's static functions are patched, and only they)."""

import re
import shutil
import stat
from pathlib import Path

import icalendar
import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from app import __version__
from app.paths import data_dir
from app.store.backups import backups_dir
from app.ui.application import Murmur
from tests.support.app_window import menu_action, summaries, type_and_enter


def test_export_writes_the_type_chosen_for_the_user_alone(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "remind me to call the dentist Thursday at 3pm")
    chosen = tmp_path / "for-my-phone"
    answer = (str(chosen), "iCalendar tasks, for calendar apps (*.ics)")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: answer)

    menu_action(murmur, "Export…").trigger()

    written = chosen.with_suffix(".ics")
    qtbot.waitUntil(lambda: murmur.toast.title.text() == "Exported to for-my-phone.ics", timeout=10_000)
    todo = icalendar.Calendar.from_ical(written.read_text()).walk("VTODO")[0]
    assert str(todo["SUMMARY"]) == "Call the dentist"
    assert stat.S_IMODE(written.stat().st_mode) == 0o600


def test_import_lands_in_the_list_and_undo_takes_it_back(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = tmp_path / "todo.txt"
    chosen.write_text("(A) Call Mom @phone\n2026-11-22 Pick up the parcel due:2026-13-45\nBuy stamps +todo\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(chosen), ""))

    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        menu_action(murmur, "Import…").trigger()

    assert sorted(summaries(murmur)) == ["Buy stamps", "Call Mom @phone"]
    toast = murmur.toast
    assert toast.title.text() == "Imported 2 entries from todo.txt; line 2 skipped" and toast.undo_button.isVisible()
    assert "line 2: skipped: due:2026-13-45 is not a date" in toast.details.text()
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        toast.undo_button.click()
    assert summaries(murmur) == []


def test_the_toast_counts_and_names_the_lines_skipped(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = tmp_path / "sheet.csv"
    rows = ["summary,priority,due", "Fine,9,", '"unclosed,1,', "Far off,,9999-12-31", ",,", "Also fine,,"]
    rows += [f",2,2026-12-0{day}" for day in range(1, 4)]  # no summary: skipped
    chosen.write_text("\n".join(rows) + "\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(chosen), ""))

    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        menu_action(murmur, "Import…").trigger()

    assert sorted(summaries(murmur)) == ["Also fine", "Fine"]  # "Fine" kept without its priority 9
    toast = murmur.toast
    assert toast.title.text() == "Imported 2 entries from sheet.csv; lines 3, 4, 7 and 2 more skipped"
    assert "line 2: priority '9' is not 1 to 5; kept without a priority" in toast.details.text()
    # The date as read: the calendar's last day is brought inside every zone's reach first (9999-12-30).
    assert re.search(
        r"line 4: skipped: due_at 9999-12-3\d is not between the years 1900 and 2200", toast.details.text()
    )


def test_a_daily_backup_that_cannot_be_made_is_said(qtbot: QtBot, murmur: Murmur) -> None:
    in_the_way = backups_dir(murmur.service.store.path)
    shutil.rmtree(in_the_way)  # the day's backup, taken as the app started
    in_the_way.write_text("a file where the backups folder goes")

    murmur.take_daily_backup()

    qtbot.waitUntil(lambda: murmur.toast.title.text() == "Today's backup could not be made", timeout=10_000)
    assert "cannot make the backups folder" in murmur.toast.message.text()


def test_about_gives_the_version_and_where_the_data_is(qtbot: QtBot, murmur: Murmur) -> None:
    menu_action(murmur, "About Murmur").trigger()

    box = murmur.window.findChild(QMessageBox, "about")
    assert box is not None and box.isVisible()
    assert f"Murmur {__version__}" in box.text() and str(data_dir()) in box.text() and "murmur doctor" in box.text()
    box.close()
