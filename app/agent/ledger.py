"""The request ledger (usage, cost, the audit log) and the conversations kept for follow-ups.

Every request to the model is one row of `llm_requests`: the messages as sent (after redaction),
the answer, tokens, cost and timing. Usage totals and the monthly budget are sums over it, so
there is one record of truth, and `murmur log` shows exactly what the model saw and said.
"""

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import col, func, select

from app.store import Store
from app.store.models import Conversation, LlmRequest, ModelProtocol, ModelStanding, utc_now

# A model that fails this many utterances in a row is set aside: waiting on it again only costs the user time.
SET_ASIDE_AFTER = 3


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


def record_request(store: Store, request: LlmRequest) -> None:
    with store.write() as session:
        session.add(request)


def month_start(now: datetime, tz: ZoneInfo) -> datetime:
    local = now.astimezone(tz)
    return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def spent_since(store: Store, since: datetime) -> float:
    with store.read() as session:
        total = session.exec(select(func.sum(LlmRequest.cost_usd)).where(col(LlmRequest.created_at) >= since)).one()
    return float(total or 0.0)


def usage_summary(
    store: Store, now: datetime, tz: ZoneInfo, monthly_budget: float = 0.0, days: int = 31
) -> UsageSummary:
    """Totals by day (the last `days` days) and by month, newest first, in the user's timezone."""
    with store.read() as session:
        rows = session.exec(
            select(LlmRequest.created_at, LlmRequest.prompt_tokens, LlmRequest.completion_tokens, LlmRequest.cost_usd)
        ).all()
    day_totals: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    month_totals: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    first_day = (now.astimezone(tz) - timedelta(days=days - 1)).date()
    for created_at, prompt, completion, cost in rows:
        local = created_at.astimezone(tz)
        targets = [month_totals[f"{local:%Y-%m}"]]
        if local.date() >= first_day:
            targets.append(day_totals[f"{local:%Y-%m-%d}"])
        for total in targets:
            total[0] += 1
            total[1] += prompt
            total[2] += completion
            total[3] += cost

    def as_rows(totals: dict[str, list[float]]) -> list[UsageRow]:
        return [
            UsageRow(period, int(t[0]), int(t[1]), int(t[2]), round(t[3], 6))
            for period, t in sorted(totals.items(), reverse=True)
        ]

    this_month = month_totals.get(f"{now.astimezone(tz):%Y-%m}", [0, 0, 0, 0.0])[3]
    return UsageSummary(as_rows(day_totals), as_rows(month_totals), monthly_budget, round(this_month, 6))


def recent_requests(store: Store, limit: int = 20) -> list[LlmRequest]:
    with store.read() as session:
        return list(session.exec(select(LlmRequest).order_by(col(LlmRequest.id).desc()).limit(limit)).all())


# -- how each model calls tools ----------------------------------------------------------------


def learned_protocol(store: Store, base_url: str, model: str) -> ModelProtocol | None:
    with store.read() as session:
        return session.get(ModelProtocol, (base_url, model))


def learn_protocol(store: Store, base_url: str, model: str, protocol: str, reason: str) -> None:
    """Remember how this model calls tools (a newer finding replaces an older one)."""
    with store.write() as session:
        known = session.get(ModelProtocol, (base_url, model)) or ModelProtocol(
            base_url=base_url, model=model, protocol=protocol, reason=reason
        )
        known.protocol, known.reason, known.learned_at = protocol, reason, utc_now()
        session.add(known)


# -- whether a model is fit to use ----------------------------------------------------------------


def set_aside_reason(store: Store, base_url: str, model: str) -> str | None:
    """Why the model is set aside, or None when it is in use."""
    with store.read() as session:
        standing = session.get(ModelStanding, (base_url, model))
        return standing.set_aside if standing else None


def set_aside(store: Store, base_url: str, model: str, reason: str) -> None:
    with store.write() as session:
        standing = session.get(ModelStanding, (base_url, model)) or ModelStanding(base_url=base_url, model=model)
        standing.set_aside, standing.changed_at = reason, utc_now()
        session.add(standing)


def reinstate(store: Store, base_url: str, model: str) -> None:
    """The model works again (its test passed): in use, its failures forgotten."""
    with store.write() as session:
        if (standing := session.get(ModelStanding, (base_url, model))) is not None:
            session.delete(standing)


def note_run(store: Store, base_url: str, model: str, fault: str | None) -> str | None:
    """Count an utterance the model failed (`fault` says how) or did (None: the count starts again). Returns
    why it is set aside when this failure was one too many."""
    with store.read() as session:
        known = session.get(ModelStanding, (base_url, model))
    if fault is None:
        if known is not None and known.failures and not known.set_aside:
            reinstate(store, base_url, model)
        return None
    with store.write() as session:
        standing = session.get(ModelStanding, (base_url, model)) or ModelStanding(base_url=base_url, model=model)
        standing.failures += 1
        standing.changed_at = utc_now()
        if standing.failures >= SET_ASIDE_AFTER and not standing.set_aside:
            standing.set_aside = f"it failed {standing.failures} utterances in a row (the last: {fault})"
            session.add(standing)
            return standing.set_aside
        session.add(standing)
    return None


# -- conversations ----------------------------------------------------------------------------


def open_conversation(store: Store, now: datetime) -> Conversation | None:
    """The latest conversation still waiting for the user's answer, if any."""
    with store.read() as session:
        return session.exec(
            select(Conversation)
            .where(col(Conversation.open_until).is_not(None), col(Conversation.open_until) > now)
            .order_by(col(Conversation.id).desc())
            .limit(1)
        ).first()


def save_conversation(
    store: Store, conversation_id: int | None, messages: list[dict[str, Any]], open_until: datetime | None
) -> int:
    """Store the talk (a new row, or the continued one); it stays open for a follow-up until `open_until`."""
    now = utc_now()
    with store.write() as session:
        conversation = session.get(Conversation, conversation_id) if conversation_id else None
        if conversation is None:
            conversation = Conversation(started_at=now, messages="[]")
        conversation.messages = json.dumps(messages, ensure_ascii=False)
        conversation.updated_at = now
        conversation.open_until = open_until
        session.add(conversation)
        session.flush()
        assert conversation.id is not None
        return conversation.id
