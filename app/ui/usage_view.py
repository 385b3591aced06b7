"""What the language model cost: tokens and money by day and by month, and what is left of the budget."""

from datetime import date

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.domain.usage import UsageRow, UsageSummary
from app.presentation.times import period_words

HEADERS = ["Period", "Requests", "Prompt tokens", "Reply tokens", "Cost (USD)"]
NARROW_HEADERS = ["Period", "Requests", "Prompt\ntokens", "Reply\ntokens", "Cost\n(USD)"]  # two lines, no cut


def budget_text(summary: UsageSummary) -> str:
    spent = f"Spent this month: ${summary.spent_this_month:.4f}"
    left = summary.budget_left
    if left is None:
        return f"{spent}; no monthly budget (set one in Settings)"
    return f"{spent} of ${summary.monthly_budget:.2f}; left: ${left:.4f}"


class UsageTable(QTreeWidget):
    """Periods and their figures, every column sized to its contents; the headers on one line where the table
    has room for all of them whole, else on two lines, never cut short."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.setObjectName(name)
        self.setRootIsDecorated(False)
        self.setHeaderLabels(HEADERS)
        self.setAccessibleName(name.replace("_", " "))
        self.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)

    def fill(self, rows: list[UsageRow], today: date) -> None:
        self.clear()
        for row in rows:
            figures = [f"{row.prompt_tokens:,}", f"{row.completion_tokens:,}", f"{row.cost_usd:.4f}"]
            self.addTopLevelItem(QTreeWidgetItem([period_words(row.period, today), str(row.requests), *figures]))
        self._fit_headers()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_headers()

    def _fit_headers(self) -> None:
        self._label(HEADERS)  # measured on one line first
        header = self.header()
        needed = sum(
            max(header.sectionSizeHint(column), self.sizeHintForColumn(column)) for column in range(len(HEADERS))
        )
        if needed > self.viewport().width():
            self._label(NARROW_HEADERS)

    def _label(self, labels: list[str]) -> None:
        if self.headerItem().text(len(labels) - 1) != labels[-1]:
            self.setHeaderLabels(labels)


class UsageView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.budget = QLabel("No requests to a language model yet")
        self.budget.setObjectName("budget")
        self.budget.setWordWrap(True)
        self.by_day = UsageTable("usage_by_day")
        self.by_month = UsageTable("usage_by_month")
        layout = QVBoxLayout(self)
        layout.addWidget(self.budget)
        layout.addWidget(QLabel("By day (last 31 days)"))
        layout.addWidget(self.by_day, 2)
        layout.addWidget(QLabel("By month"))
        layout.addWidget(self.by_month, 1)

    def set_summary(self, summary: UsageSummary, today: date) -> None:
        self.budget.setText(budget_text(summary))
        self.by_day.fill(summary.by_day, today)
        self.by_month.fill(summary.by_month, today)
