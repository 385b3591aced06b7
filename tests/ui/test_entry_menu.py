"""The entry list's right-click menu, at a fixed Sunday evening (18:30): Snooze offers only the times that would hide
the selected entries, Move to changes their due in one undoable change, and a change made by hand that is refused is
worded as that change, not as something said that waits in the Inbox."""

import pytest
from pytestqt.qtbot import QtBot

from app.ui.application import Murmur
from app.ui.icons import AppState
from tests.support.clock import FIXED_CLOCK
from tests.ui.selection import WAIT_MS, said_and_selected


@pytest.fixture
def sunday_evening(murmur: Murmur) -> Murmur:
    murmur.service.clock = lambda: FIXED_CLOCK
    return murmur


def test_a_refused_snooze_by_hand_says_so_and_nothing_waits(qtbot: QtBot, sunday_evening: Murmur) -> None:
    murmur = sunday_evening
    said_and_selected(qtbot, murmur, "call mom thursday at 7pm")  # due after tomorrow: snoozing to then hides nothing
    snooze = next(action for action in murmur.window.entries.actions() if action.text() == "Snooze until tomorrow")

    snooze.trigger()  # Ctrl+S

    refused = (
        "Couldn't snooze “Call mom”: it is due Thu 26 Nov 19:00, after Mon 23 Nov 09:00: nothing to snooze"
        " (to change its due, move it)"
    )
    qtbot.waitUntil(lambda: murmur.toast.title.text() == refused, timeout=WAIT_MS)
    assert "Inbox" not in murmur.toast.message.text() and murmur.toast.content is not None
    assert murmur.toast.content.error and murmur.toast.content.retry_utterance_id is None
    assert murmur.window.activity.outcome.text() == refused
    assert murmur.state() is AppState.IDLE  # nothing waits for the user: the mic does not stay red
    assert murmur.service.inbox() == []
