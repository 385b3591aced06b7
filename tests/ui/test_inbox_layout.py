"""The Inbox's table at the window's sizes: the When column shows its whole text, the words said take the room
left, and an empty inbox says why it is empty instead of showing bare column headers."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from pytestqt.qtbot import QtBot

from app.domain.enums import UtteranceOutcome, UtteranceSource
from app.store.models import Utterance
from app.ui.inbox_view import InboxView

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 11, 26, 18, 0, tzinfo=UTC)
SAID = Utterance(
    id=7,
    text="the laundry is done",
    source=UtteranceSource.TYPED,
    created_at=datetime(2026, 11, 26, 17, 8, tzinfo=UTC),
    outcome=UtteranceOutcome.FAILED,
    error="no open entry matches 'the laundry'",
)
SIZES = [(1280, 800), (480, 360)]


def shown_inbox(qtbot: QtBot, size: tuple[int, int], utterances: list[Utterance]) -> InboxView:
    inbox = InboxView()
    qtbot.addWidget(inbox)
    inbox.resize(*size)
    inbox.set_utterances(utterances, NOW, BERLIN)
    inbox.show()
    qtbot.waitExposed(inbox)
    return inbox


@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "480x360"])
def test_the_when_column_is_as_wide_as_its_text(qtbot: QtBot, size: tuple[int, int]) -> None:
    inbox = shown_inbox(qtbot, size, [SAID])
    row = inbox.tree.topLevelItem(0)
    assert row is not None
    when = row.text(1)
    needed = inbox.tree.fontMetrics().horizontalAdvance(when)
    header = inbox.tree.header().fontMetrics().horizontalAdvance(inbox.tree.headerItem().text(1))
    assert inbox.tree.columnWidth(1) >= max(needed, header), when
    assert inbox.tree.columnWidth(0) >= inbox.tree.columnWidth(1)  # the words said take the room left


def test_the_words_said_stretch_with_the_window(qtbot: QtBot) -> None:
    inbox = shown_inbox(qtbot, (480, 360), [SAID])
    narrow = inbox.tree.columnWidth(0)
    inbox.resize(1280, 800)
    qtbot.waitUntil(lambda: inbox.tree.columnWidth(0) > narrow)
    viewport = inbox.tree.viewport().width()
    assert sum(inbox.tree.columnWidth(column) for column in range(3)) == viewport  # no gap, no scrolling


def test_why_it_waits_is_whole_in_its_tooltip(qtbot: QtBot) -> None:
    inbox = shown_inbox(qtbot, (480, 360), [SAID])
    row = inbox.tree.topLevelItem(0)
    assert row is not None and "no open entry matches" in row.toolTip(2)


def test_an_empty_inbox_says_why_instead_of_bare_headers(qtbot: QtBot) -> None:
    inbox = shown_inbox(qtbot, (1280, 800), [])
    assert inbox.empty.isVisible() and not inbox.tree.isVisible()
    assert inbox.empty.title.text() == "Nothing waiting"
    assert inbox.empty.body.text() == "What Murmur couldn't place lands here."
    assert not inbox.empty.button.isVisible() and not inbox.retry_button.isVisible()
    inbox.set_utterances([SAID], NOW, BERLIN)
    assert inbox.tree.isVisible() and not inbox.empty.isVisible() and inbox.retry_button.isVisible()
