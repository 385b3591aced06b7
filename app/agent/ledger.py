"""The request ledger (usage, cost, the audit log) and the conversations kept for follow-ups.

Every request to the model is one row of `llm_requests`: the messages as sent (after redaction),
the answer, tokens, cost and timing. Usage totals and the monthly budget are sums over it, so
there is one record of truth, and `murmur log` shows exactly what the model saw and said.
"""

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import col, func, select

from app.store import Store
from app.store.models import Conversation, LlmRequest, ModelProtocol, ModelStanding, utc_now

# A model that fails this many utterances in a row is set aside: waiting on it again only costs the user time.
SET_ASIDE_AFTER = 3


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
