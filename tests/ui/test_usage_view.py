"""The Usage tab: requests recorded in the real ledger show as tokens and cost by day and month."""

from dataclasses import replace

from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.agent.ledger import record_request
from app.presentation.times import MONTHS, short_day
from app.store.models import LlmRequest
from app.ui.application import Murmur


def request(prompt: int, completion: int, cost: float) -> LlmRequest:
    return LlmRequest(
        base_url="http://127.0.0.1:1/v1",
        model="test-model",
        turn=1,
        request="[]",
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=cost,
    )


def texts(row: QTreeWidgetItem) -> list[str]:
    return [row.text(column) for column in range(row.columnCount())]


def test_usage_tab_shows_tokens_cost_and_budget_left(qtbot: QtBot, murmur: Murmur) -> None:
    usage = murmur.window.usage
    assert usage.by_day.topLevelItemCount() == 0
    record_request(murmur.service.store, request(1200, 30, 0.25))
    record_request(murmur.service.store, request(800, 20, 0.5))
    settings = murmur.settings
    with qtbot.waitSignal(murmur.entries_shown, timeout=15_000):
        murmur.apply_settings(replace(settings, llm=replace(settings.llm, monthly_budget=2.0)))

    clock = murmur.service.clock()
    day = clock.now.astimezone(clock.tz).date()
    today, month = short_day(day, day), f"{MONTHS[day.month - 1]} {day.year}"  # "Thu 26 Nov", "November 2026"
    assert usage.by_day.topLevelItemCount() == 1 and usage.by_month.topLevelItemCount() == 1
    assert texts(usage.by_day.topLevelItem(0)) == [today, "2", "2,000", "50", "0.7500"]
    assert texts(usage.by_month.topLevelItem(0)) == [month, "2", "2,000", "50", "0.7500"]
    assert usage.budget.text() == "Spent this month: $0.7500 of $2.00; left: $1.2500"
    murmur.window.show_place("usage")
    assert murmur.window.pages.currentWidget() is usage
