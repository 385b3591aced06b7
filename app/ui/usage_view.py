"""What the language model cost: tokens and money by day and by month, and what is left of the budget."""

from datetime import date

from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.domain.usage import UsageRow, UsageSummary
from app.presentation.times import period_words

HEADERS = ["Period", "Requests", "Prompt tokens", "Completion tokens", "Cost (USD)"]


def budget_text(summary: UsageSummary) -> str:
    spent = f"Spent this month: ${summary.spent_this_month:.4f}"
    left = summary.budget_left
    if left is None:
        return f"{spent}; no monthly budget (set one in Settings)"
    return f"{spent} of ${summary.monthly_budget:.2f}; left: ${left:.4f}"


def _table(name: str) -> QTreeWidget:
    tree = QTreeWidget()
    tree.setObjectName(name)
    tree.setRootIsDecorated(False)
    tree.setHeaderLabels(HEADERS)
    tree.setAccessibleName(name.replace("_", " "))
    return tree


def _fill(tree: QTreeWidget, rows: list[UsageRow], today: date) -> None:
    tree.clear()
    for row in rows:
        tree.addTopLevelItem(
            QTreeWidgetItem(
                [
                    period_words(row.period, today),
                    str(row.requests),
                    f"{row.prompt_tokens:,}",
                    f"{row.completion_tokens:,}",
                    f"{row.cost_usd:.4f}",
                ]
            )
        )


class UsageView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.budget = QLabel("No requests to a language model yet")
        self.budget.setObjectName("budget")
        self.by_day = _table("usage_by_day")
        self.by_month = _table("usage_by_month")
        layout = QVBoxLayout(self)
        layout.addWidget(self.budget)
        layout.addWidget(QLabel("By day (last 31 days)"))
        layout.addWidget(self.by_day, 2)
        layout.addWidget(QLabel("By month"))
        layout.addWidget(self.by_month, 1)

    def set_summary(self, summary: UsageSummary, today: date) -> None:
        self.budget.setText(budget_text(summary))
        _fill(self.by_day, summary.by_day, today)
        _fill(self.by_month, summary.by_month, today)
