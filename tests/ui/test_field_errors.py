"""Words the details panel cannot save (a repeat it cannot read, an emptied summary or text) are refused next to
their field, naming what it takes, and change nothing; a change the service refuses anyway (from the list's own
editor) is said in the toast and the activity line, and the microphone and the tray go back to ready, since
nothing waits for the user to act on."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit
from pytestqt.qtbot import QtBot

from app.domain.enums import Status
from app.ui.application import Murmur
from app.ui.icons import AppState, state_icon
from tests.ui.selection import WAIT_MS, said_and_selected


def typed_over(qtbot: QtBot, field: QLineEdit | QPlainTextEdit, words: str) -> None:
    """Select what the field holds, type `words` over it (nothing: delete it), and leave the field as a user does."""
    field.setFocus()
    field.selectAll()
    if words:
        qtbot.keyClicks(field, words)
    else:
        qtbot.keyClick(field, Qt.Key.Key_Delete)
    field.clearFocus()


def assert_ready(murmur: Murmur) -> None:
    assert murmur.state() is AppState.IDLE
    assert murmur.window.mic.icon().cacheKey() == state_icon(AppState.IDLE).cacheKey()
    assert murmur.window.activity.status.text().startswith("Ready")


@pytest.mark.parametrize(
    ("field", "words", "note"),
    [
        ("repeat", "every blursday", "Not saved: can't read a repeat from 'every blursday'; say e.g. 'every other"),
        ("summary", "", "Not saved: summary cannot be empty"),
        ("content", "", "Not saved: content cannot be empty"),
    ],
)
def test_words_the_panel_cannot_save_are_refused_beside_their_field(
    qtbot: QtBot, murmur: Murmur, field: str, words: str, note: str
) -> None:
    said_and_selected(qtbot, murmur, "water the plants every monday")
    details = murmur.window.details
    [before] = murmur.service.entries([Status.ACTIVE])
    with qtbot.assertNotEmitted(details.edited):
        typed_over(qtbot, getattr(details, field), words)
    assert details.problem(field).isVisible() and details.problem(field).text().startswith(note)
    assert details.problem(field).property("problem")  # in the red of what went wrong
    assert [(e.summary, e.content, e.recurrence) for e in murmur.service.entries([Status.ACTIVE])] == [
        (before.summary, before.content, before.recurrence)
    ]
    assert not murmur.toast.isVisible()
    assert_ready(murmur)
    right, kept = ("every tuesday", "FREQ=WEEKLY;BYDAY=TU") if field == "repeat" else ("Water the ferns",) * 2
    typed_over(qtbot, getattr(details, field), right)
    stored = "recurrence" if field == "repeat" else field
    qtbot.waitUntil(lambda: getattr(murmur.service.entries([Status.ACTIVE])[0], stored) == kept, timeout=WAIT_MS)
    assert not details.problem(field).text().startswith("Not saved")


@pytest.mark.qt_log_ignore("systemTrayWindowChanged")  # a tray icon offscreen: no tray to dock in
def test_a_change_the_service_refuses_leaves_the_app_ready(qtbot: QtBot, murmur_in_the_tray: Murmur) -> None:
    murmur = murmur_in_the_tray
    entry_id = said_and_selected(qtbot, murmur, "water the plants every monday")
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        murmur.window.model.edited.emit(entry_id, {"repeat": "every blursday"})  # as the list's own editor asks
    toast = murmur.toast
    assert toast.isVisible() and toast.content is not None and toast.content.error
    assert toast.title.text().startswith("Can't read a repeat from 'every blursday'; say e.g. 'every other monday'")
    assert murmur.window.activity.outcome.text() == toast.title.text()
    [entry] = murmur.service.entries([Status.ACTIVE])
    assert entry.recurrence is not None and "BYDAY=MO" in entry.recurrence
    assert_ready(murmur)
    assert murmur.tray is not None and murmur.tray.icon.icon().cacheKey() == state_icon(AppState.IDLE).cacheKey()
    assert "Murmur: Ready" in murmur.tray.icon.toolTip()


def test_none_as_the_repeat_field_offers_ends_the_repeat(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_selected(qtbot, murmur, "water the plants every monday")
    details = murmur.window.details
    with qtbot.waitSignal(murmur.entries_shown, timeout=WAIT_MS):
        typed_over(qtbot, details.repeat, "none")
    [entry] = murmur.service.entries([Status.ACTIVE])
    assert entry.recurrence is None
    assert_ready(murmur)
