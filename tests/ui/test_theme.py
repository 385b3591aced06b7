"""Light and dark: the setting (checked), the palette it puts on the whole app, the colours the list
paints by, and Settings changing it on the running app."""

from dataclasses import replace

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.config import Settings, with_value
from app.errors import UsageError
from app.ui.application import Murmur
from app.ui.settings.dialog import SettingsDialog
from app.ui.theme import DARK, LIGHT, apply_theme, colours, is_dark


def window_lightness(app: QApplication) -> int:
    return app.palette().color(QPalette.ColorRole.Window).lightness()


def test_the_theme_setting_takes_three_words() -> None:
    assert Settings().ui.theme == "system"
    assert with_value(Settings(), "ui.theme", "dark").ui.theme == "dark"
    with pytest.raises(UsageError, match="ui.theme must be one of system, light, dark, got 'purple'"):
        with_value(Settings(), "ui.theme", "purple")


def test_dark_and_light_change_the_whole_palette_and_the_list_colours(qapp: QApplication) -> None:
    try:
        assert apply_theme(qapp, "dark") is True
        assert is_dark() and window_lightness(qapp) < 60 and colours() is DARK
        text = qapp.palette().color(QPalette.ColorRole.Text)
        assert text.lightness() > 200  # light words on the dark rows
        assert apply_theme(qapp, "light") is False
        assert not is_dark() and window_lightness(qapp) > 200 and colours() is LIGHT
    finally:
        apply_theme(qapp, "system")


def test_settings_switch_the_running_app_to_dark_and_back(qtbot: QtBot, murmur: Murmur) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    dialog = SettingsDialog(murmur.settings)
    qtbot.addWidget(dialog)
    dialog.general_page.theme.setCurrentIndex(dialog.general_page.theme.findData("dark"))
    try:
        murmur.apply_settings(dialog.result_settings())
        assert murmur.settings.ui.theme == "dark" and is_dark()
        murmur.apply_settings(replace(murmur.settings, ui=replace(murmur.settings.ui, theme="light")))
        assert not is_dark()
    finally:
        apply_theme(app, "system")
