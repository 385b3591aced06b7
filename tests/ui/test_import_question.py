"""File → Import of a file that would add more entries at once than Murmur adds unasked, in the real window: a
yes/no question comes first, No imports nothing, Yes imports them all as one batch the toast's Undo takes back;
a file at the cap goes straight in. The file dialog is the platform's own and modal, so its answer is given in
its place (QFileDialog's static function is patched); the question is Murmur's own box, answered by its buttons."""

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from app.bounds.limits import MASS_CHANGE_CAP
from app.ui.application import Murmur
from tests.support.app_window import WAIT_MS, summaries


def _import(murmur: Murmur, monkeypatch: pytest.MonkeyPatch, path: Path, count: int) -> None:
    """Choose File → Import… and, in the file dialog, a CSV file of `count` tasks at `path`."""
    path.write_text("summary\n" + "".join(f"Task {number}\n" for number in range(count)))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(path), ""))
    next(a for a in murmur.window.findChildren(QAction) if a.text() == "Import…").trigger()


def _question(qtbot: QtBot, murmur: Murmur) -> QMessageBox:
    def asked() -> QMessageBox | None:
        box = murmur.window.findChild(QMessageBox, "import-question")
        return box if box is not None and box.isVisible() else None

    qtbot.waitUntil(lambda: asked() is not None, timeout=WAIT_MS)
    box = asked()
    assert box is not None
    return box


def test_one_entry_past_the_cap_asks_first_and_no_imports_nothing(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _import(murmur, monkeypatch, tmp_path / "<b>big list.csv", MASS_CHANGE_CAP + 1)

    box = _question(qtbot, murmur)

    assert box.windowTitle() == f"Import {MASS_CHANGE_CAP + 1} entries?"
    assert box.text().startswith(f"<b>big list.csv would add {MASS_CHANGE_CAP + 1} entries to your list at once")
    assert box.textFormat() is Qt.TextFormat.PlainText  # the file's name as it is, never read as markup
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.No)
    assert summaries(murmur) == [] and murmur.service.history() == []
    box.button(QMessageBox.StandardButton.No).click()
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=WAIT_MS)
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.refresh()  # one job at a time, in order: anything the No had queued has run before this
    assert summaries(murmur) == [] and murmur.service.history() == []


def test_yes_imports_them_all_as_one_batch_the_undo_takes_back(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _import(murmur, monkeypatch, tmp_path / "big.csv", MASS_CHANGE_CAP + 1)
    box = _question(qtbot, murmur)

    box.button(QMessageBox.StandardButton.Yes).click()

    toast = murmur.toast
    qtbot.waitUntil(lambda: len(summaries(murmur)) == MASS_CHANGE_CAP + 1, timeout=WAIT_MS)
    assert toast.title.text() == f"Imported {MASS_CHANGE_CAP + 1} entries from big.csv"
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        toast.undo_button.click()
    assert summaries(murmur) == []


def test_a_file_at_the_cap_is_imported_without_a_question(
    qtbot: QtBot, murmur: Murmur, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _import(murmur, monkeypatch, tmp_path / "tasks.csv", MASS_CHANGE_CAP)

    qtbot.waitUntil(lambda: len(summaries(murmur)) == MASS_CHANGE_CAP, timeout=WAIT_MS)
    assert murmur.window.findChild(QMessageBox, "import-question") is None
