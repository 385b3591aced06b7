"""Switching the theme while the app runs: every part of the window, the toast, the problems bar and an open dialog
look as they do in an app started with that theme, pixel for pixel, and back."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.config import Settings
from app.presentation.problems import Problem, Trouble
from app.ui.application import Murmur
from app.ui.microphone import real_dictation
from app.ui.settings.dialog import SettingsDialog
from app.ui.theme import apply_theme
from app.ui.toast import ToastContent
from tests.support.app_window import said_and_shown
from tests.ui.conftest import started_murmur

SAID = ("buy milk", "call the plumber")


@contextmanager
def murmur_in(qtbot: QtBot, db_path: Path, theme: str) -> Iterator[Murmur]:
    """The app started with `theme`, its list showing SAID with "Buy milk" selected, its toast and a problem up."""
    settings = Settings(ui=replace(Settings().ui, audio_cues=False, theme=theme))
    for murmur in started_murmur(qtbot, db_path, real_dictation, arm=False, settings=settings):
        said_and_shown(qtbot, murmur, *SAID)
        window = murmur.window
        window.resize(1000, 1200)  # tall enough for every detail beside the toast: no scroll bar comes and goes
        window.show()
        qtbot.waitExposed(window)
        assert window.select_entry(entry_of(murmur, "Buy milk"))
        murmur.toast.show_content(ToastContent(title="Kept", message="Buy milk"))
        window.problems_bar.show_problems([Problem(Trouble.SYNC, "The sync server cannot be reached", None, True)])
        yield murmur


def entry_of(murmur: Murmur, summary: str) -> str:
    model = murmur.window.model
    return next(e for e in model.entry_ids() if (row := model.row_of(e)) is not None and row.summary == summary)


def open_dialog(qtbot: QtBot, murmur: Murmur) -> SettingsDialog:
    dialog = SettingsDialog(murmur.settings, murmur.window)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def looks(murmur: Murmur, dialog: SettingsDialog) -> dict[str, QImage]:
    """Each part as drawn now: the sidebar, a list row (its unchecked box), a field of the details, the status
    line, the view's title, the toast, the problems bar and a field of the open settings dialog."""
    window, entries = murmur.window, murmur.window.entries
    plumber = murmur.window.model.index_of(entry_of(murmur, "Call the plumber"))
    parts: dict[str, tuple[QWidget, QRect]] = {
        "sidebar": (window.sidebar, window.sidebar.rect()),
        "list row": (entries.viewport(), entries.visualRect(plumber)),
        "details field": (window.details.summary, window.details.summary.rect()),
        "status line": (window.activity.status, window.activity.status.rect()),
        "title": (window.page_title, window.page_title.rect()),
        "toast": (murmur.toast, murmur.toast.rect()),
        "problems bar": (window.problems_bar, window.problems_bar.rect()),
        "dialog field": (dialog.general_page.toast_seconds, dialog.general_page.toast_seconds.rect()),
    }
    return {name: widget.grab(rect).toImage() for name, (widget, rect) in parts.items()}


def switched(qtbot: QtBot, murmur: Murmur, theme: str) -> None:
    murmur.apply_settings(replace(murmur.settings, ui=replace(murmur.settings.ui, theme=theme)))
    qtbot.wait(50)  # the palette change and the repaints it asks for are posted events


def unlike(these: dict[str, QImage], those: dict[str, QImage]) -> list[str]:
    assert these.keys() == those.keys()
    return [name for name in these if these[name] != those[name]]


@pytest.fixture
def back_to_system(qapp: QApplication) -> Iterator[None]:
    yield
    apply_theme(qapp, "system")


@pytest.mark.usefixtures("back_to_system")
def test_a_live_switch_repaints_everything_as_a_fresh_start_does(qtbot: QtBot, tmp_path: Path) -> None:
    with murmur_in(qtbot, tmp_path / "switched.db", "light") as murmur:
        dialog = open_dialog(qtbot, murmur)
        started_light = looks(murmur, dialog)
        switched(qtbot, murmur, "dark")
        switched_dark = looks(murmur, dialog)
        assert unlike(switched_dark, started_light) == list(started_light)  # every part changed
        with murmur_in(qtbot, tmp_path / "dark.db", "dark") as fresh:
            started_dark = looks(fresh, open_dialog(qtbot, fresh))
        assert unlike(switched_dark, started_dark) == []
        switched(qtbot, murmur, "light")
        assert unlike(looks(murmur, dialog), started_light) == []
