"""Nothing the window shows is cut off without saying so, at 1280x800 and at 480x360: the Usage tables' headers,
the short columns of History and Memory (their times and states, whole), the budget line (wrapped), and the
details pane's Said line, which ends in "…" with the whole of what was said in its tooltip."""

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtWidgets import QTreeWidget, QWidget
from pytestqt.qtbot import QtBot

from app.domain.enums import MemorySource
from app.domain.usage import UsageRow, UsageSummary
from app.store.models import Memory
from app.ui.application import Murmur
from app.ui.memory_view import MemoryView
from app.ui.usage_view import UsageView
from tests.support.app_window import said_and_shown
from tests.ui.selection import said_and_selected

SIZES = [(1280, 800), (480, 360)]
IDS = ["1280x800", "480x360"]
BERLIN = ZoneInfo("Europe/Berlin")
BUSY_DAY = UsageRow("2026-11-26", 1234, 12_345_678, 9_876_543, 123.4567)
SUMMARY = UsageSummary([BUSY_DAY], [BUSY_DAY], monthly_budget=200.0, spent_this_month=123.4567)
TODAY = date(2026, 11, 26)
LONG_SAID = (
    "remind me to call the dentist on thursday about the crown that came loose at lunch last week because the "
    "letter from the insurance says they only cover the repair of the crown if it is done within a month"
)


def shown(qtbot: QtBot, widget: QWidget, size: tuple[int, int]) -> None:
    qtbot.addWidget(widget)
    widget.resize(*size)
    widget.show()
    qtbot.waitExposed(widget)


def needed(tree: QTreeWidget, column: int) -> int:
    """The width the column's header and cells need to show their text whole."""
    header, header_metrics = tree.headerItem(), tree.header().fontMetrics()
    widths = [header_metrics.horizontalAdvance(line) for line in header.text(column).split("\n")]
    for row in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(row)
        assert item is not None
        widths += [tree.fontMetrics().horizontalAdvance(each.text(column)) for each in (item, *_children(item))]
    return max(widths)


def _children(item: object) -> list:  # type: ignore[type-arg]
    return [item.child(i) for i in range(item.childCount())]  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_usage_headers_and_figures_are_whole(qtbot: QtBot, size: tuple[int, int]) -> None:
    usage = UsageView()
    usage.set_summary(SUMMARY, TODAY)
    shown(qtbot, usage, size)
    for tree in (usage.by_day, usage.by_month):
        for column in range(tree.columnCount()):
            assert tree.columnWidth(column) >= needed(tree, column), tree.headerItem().text(column)
        assert sum(tree.columnWidth(column) for column in range(tree.columnCount())) <= tree.viewport().width()
    assert usage.budget.wordWrap() and usage.budget.height() >= usage.budget.heightForWidth(usage.budget.width())


def test_the_usage_headers_take_two_lines_only_where_one_has_no_room(qtbot: QtBot) -> None:
    usage = UsageView()
    usage.set_summary(SUMMARY, TODAY)
    shown(qtbot, usage, (1280, 800))
    assert usage.by_day.headerItem().text(2) == "Prompt tokens"
    usage.resize(360, 300)  # the room the page has in a 480x360 window, beside the sidebar
    qtbot.waitUntil(lambda: usage.by_day.headerItem().text(2) == "Prompt\ntokens")
    usage.resize(1280, 800)
    qtbot.waitUntil(lambda: usage.by_day.headerItem().text(2) == "Prompt tokens")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_memory_s_time_is_whole_and_its_text_takes_the_rest(qtbot: QtBot, size: tuple[int, int]) -> None:
    memories = MemoryView()
    fact = Memory(id="m" * 32, text="My brother is Tom " * 12, source=MemorySource.USER)
    fact.used_at = datetime(2026, 11, 26, 17, 8, tzinfo=UTC)
    memories.set_memories([("mmmmmm", fact)], datetime(2026, 11, 26, 18, 0, tzinfo=UTC), BERLIN)
    shown(qtbot, memories, size)
    tree = memories.tree
    assert tree.columnWidth(1) >= needed(tree, 1)
    assert tree.columnWidth(0) + tree.columnWidth(1) == tree.viewport().width()  # no scrolling sideways


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_change_s_time_and_state_are_whole_in_the_history(
    qtbot: QtBot, murmur: Murmur, size: tuple[int, int]
) -> None:
    said_and_shown(qtbot, murmur, LONG_SAID, "eggs are done")
    murmur.window.show()
    murmur.window.resize(*size)
    murmur.window.show_place("history")
    tree = murmur.window.history.tree
    qtbot.waitUntil(lambda: tree.isVisible() and tree.topLevelItemCount() > 0)
    for column in (1, 2):
        assert tree.columnWidth(column) >= needed(tree, column), tree.headerItem().text(column)
    assert sum(tree.columnWidth(column) for column in range(3)) == tree.viewport().width()


def test_the_said_line_ends_in_an_ellipsis_and_its_tooltip_holds_all_of_it(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_selected(qtbot, murmur, LONG_SAID)
    said = murmur.window.details.said
    assert said.isVisible() and said.text().startswith("“remind me to call the dentist") and said.text().endswith("…")
    qtbot.waitUntil(lambda: said.height() >= said.heightForWidth(said.width()))  # every line it wraps on is seen
    assert 2 <= said.height() // said.fontMetrics().lineSpacing() <= 4
    assert f"“{LONG_SAID}”" in said.toolTip() and said.whole_text() == f"“{LONG_SAID}”"


def test_a_short_said_line_is_whole(qtbot: QtBot, murmur: Murmur) -> None:
    said_and_selected(qtbot, murmur, "buy milk")
    said = murmur.window.details.said
    assert said.text() == said.whole_text() == "“buy milk”" and "“buy milk”" in said.toolTip()
