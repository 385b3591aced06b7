"""What the model cost: totals by day and by month, and what is left of the monthly budget."""

from dataclasses import dataclass


@dataclass(frozen=True)
class UsageRow:
    period: str  # "2026-11-22" or "2026-11"
    requests: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float


@dataclass(frozen=True)
class UsageSummary:
    by_day: list[UsageRow]
    by_month: list[UsageRow]
    monthly_budget: float  # 0: none
    spent_this_month: float

    @property
    def budget_left(self) -> float | None:
        return None if self.monthly_budget <= 0 else max(0.0, self.monthly_budget - self.spent_this_month)
