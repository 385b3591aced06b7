"""The History view's lines: a batch that came from no words is named by its label as kept, names and all."""

from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from tests.support.app_window import said_and_shown


def test_a_label_keeps_the_capitals_of_the_names_in_it(qtbot: QtBot, murmur: Murmur) -> None:
    murmur.service.remember("My brother Tom lives in Lisbon")
    said_and_shown(qtbot, murmur)
    top = murmur.window.history.tree.topLevelItem(0)
    assert top is not None and top.text(0) == 'Remembered "My brother Tom lives in Lisbon"'
