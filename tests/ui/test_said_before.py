"""The search box finds what was said before, as well as entries: typed words, a pause, then past talk that
matches shows under the list (plain text), and goes when the search is cleared."""

from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.background import _Relay
from tests.support.app_window import type_and_enter


def test_the_search_box_shows_past_talk_that_matches(qtbot: QtBot, murmur: Murmur) -> None:
    for said in ("remind me to ask Tom about the <b>fence</b>", "buy milk"):
        with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
            type_and_enter(qtbot, murmur, said)
    said_before = murmur.window.said_before
    qtbot.keyClicks(murmur.window.search, "fence")
    qtbot.waitUntil(lambda: said_before.isVisible() and said_before.hits.count() == 1, timeout=10_000)
    shown = said_before.hits.item(0)
    assert "remind me to ask Tom about the <b>fence</b>" in shown.text()
    assert "created" in shown.toolTip() and "&lt;b&gt;" in shown.toolTip()  # what was done, never as markup
    murmur.window.search.clear()
    assert not said_before.isVisible()


def test_a_search_with_no_past_match_shows_nothing(qtbot: QtBot, murmur: Murmur) -> None:
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        type_and_enter(qtbot, murmur, "buy milk")
    with qtbot.waitSignal(murmur.window.recall_requested, timeout=10_000):  # the pause after typing has passed
        qtbot.keyClicks(murmur.window.search, "zebra")
    qtbot.waitUntil(lambda: not murmur.window.findChildren(_Relay), timeout=10_000)  # and the search was answered
    assert not murmur.window.said_before.isVisible()
