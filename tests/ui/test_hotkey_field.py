"""The hotkey in Settings -> General: shown as the desktop writes keys, kept in pynput's syntax, and a refused one
explained on a line of its own under the field, which keeps its width, in a dialog that keeps its own."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox, QWidget
from pytestqt.qtbot import QtBot

from app.config import Settings, UiSettings
from app.ui.key_names import native_text, pynput_combination
from app.ui.settings.dialog import SettingsDialog


@pytest.mark.parametrize(
    ("kept", "shown"),
    [
        ("<ctrl>+<alt>+<space>", "Ctrl+Alt+Space"),
        ("<ctrl>+<shift>+m", "Ctrl+Shift+M"),
        ("<alt>+<f9>", "Alt+F9"),
        ("<ctrl>++", "Ctrl++"),
        ("<ctrl>+<esc>", "Ctrl+Esc"),
        ("<ctrl>+<enter>", "Ctrl+Return"),
        ("<cmd>+<page_up>", "Meta+PgUp"),
    ],
)
def test_a_combination_is_shown_in_the_desktops_words_and_read_back(kept: str, shown: str) -> None:
    assert native_text(kept) == shown
    assert pynput_combination(shown) == kept


@pytest.mark.parametrize("odd", ["<ctrl>+<bogus>", "<ctrl_l>+x", "banana", "<ctrl>+"])
def test_what_qt_cannot_name_is_shown_and_kept_as_written(odd: str) -> None:
    assert native_text(odd) == odd and pynput_combination(odd) == odd


def test_the_field_shows_ctrl_alt_space_and_the_setting_keeps_pynputs_syntax(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    page = dialog.general_page
    assert page.hotkey.text() == "Ctrl+Alt+Space" and page.hotkey.placeholderText() == "Ctrl+Alt+Space"
    assert dialog.result_settings().ui.hotkey == "<ctrl>+<alt>+<space>"
    page.hotkey.clear()
    qtbot.keyClicks(page.hotkey, "Ctrl+Shift+M")
    assert dialog.result_settings().ui.hotkey == "<ctrl>+<shift>+m"
    qtbot.mouseClick(page.record_hotkey, Qt.MouseButton.LeftButton)
    qtbot.keyClick(page.record_hotkey, Qt.Key.Key_F9, Qt.KeyboardModifier.AltModifier)
    assert page.hotkey.text() == "Alt+F9" and dialog.result_settings().ui.hotkey == "<alt>+<f9>"


def test_a_combination_kept_in_another_order_is_kept_as_written_while_untouched(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings(ui=UiSettings(hotkey="<alt>+<ctrl>+k")))
    qtbot.addWidget(dialog)
    assert dialog.general_page.hotkey.text() == "Ctrl+Alt+K"
    assert dialog.result_settings().ui.hotkey == "<alt>+<ctrl>+k"


def top_in(page: QWidget, widget: QWidget) -> int:
    return widget.mapTo(page, QPoint(0, 0)).y()


def test_a_refused_hotkey_is_explained_under_the_field_and_nothing_widens(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    page = dialog.general_page
    field_width, dialog_width = page.hotkey.width(), dialog.width()
    assert not page.hotkey_note.isVisible()
    page.hotkey.setText("banana")
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(page.hotkey_note.isVisible)
    qtbot.wait(50)  # the layouts settle on posted events
    assert "'banana' is not a hotkey" in page.hotkey_note.text() and page.hotkey_note.wordWrap()
    assert "write it like Ctrl+Alt+Space" in page.hotkey_note.text()  # as the field shows keys
    assert top_in(page, page.hotkey_note) >= top_in(page, page.hotkey) + page.hotkey.height()
    assert page.hotkey.width() == field_width and dialog.width() == dialog_width

    qtbot.keyClicks(page.hotkey, "x")  # typing again takes the note away
    qtbot.wait(50)
    assert not page.hotkey_note.isVisible()
    assert page.hotkey.width() == field_width and dialog.width() == dialog_width
