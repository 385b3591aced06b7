"""A finished session summed up by the model in one request without tools, so the next session starts
knowing what the user was doing, decided and left open."""

import json

from app.agent import ledger
from app.agent.client import ChatClient
from app.agent.messages import ChatMessage, Role, to_wire
from app.agent.provider import ProviderConfig
from app.config import PrivacySettings
from app.domain.clock import Clock
from app.domain.redaction import redact
from app.errors import BudgetExceededError, LlmError
from app.store import Store
from app.store.models import LlmRequest

SYNTHESIS_PROMPT = """\
You sum up a finished session between a user and Murmur, the voice-driven list keeper that keeps their \
todos, reminders and notes. In at most 120 words of plain sentences (no lists, no IDs), say what the user \
was doing, what they decided, what they asked, and what was left open. Write it for Murmur to read at the \
start of the user's next session. Never repeat a password, code or other secret."""
MAX_WORDS = 120
_EXPECTED_COMPLETION_TOKENS = 250


def synthesize(
    client: ChatClient, config: ProviderConfig, privacy: PrivacySettings, transcript: str, store: Store, clock: Clock
) -> str:
    """The synthesis of `transcript` (redacted before it is sent, and after), recorded in the ledger like any
    request; an LlmError or BudgetExceededError when it cannot be made."""
    said = redact(transcript).text if privacy.redact else transcript
    messages = to_wire([ChatMessage.system(SYNTHESIS_PROMPT), ChatMessage.user(said)])
    if config.monthly_budget > 0:
        spent = ledger.spent_since(store, ledger.month_start(clock.now, clock.tz))
        expected = config.price.cost(len(json.dumps(messages)) // 4, _EXPECTED_COMPLETION_TOKENS)
        if spent + expected > config.monthly_budget:
            raise BudgetExceededError("the monthly LLM budget is spent; the session was not summed up")
    record = LlmRequest(
        created_at=clock.now,
        base_url=config.base_url,
        model=config.model,
        turn=0,  # not a turn of an utterance: a session's synthesis
        request=json.dumps(messages, ensure_ascii=False),
    )
    try:
        reply = client.complete(messages, [], time_left=config.deadline_seconds)  # the user waits for it
    except LlmError as error:
        record.error = str(error)
        ledger.record_request(store, record)
        raise
    cost = config.price.cost(reply.prompt_tokens, reply.completion_tokens)
    record.response = json.dumps(ChatMessage(Role.ASSISTANT, reply.content).to_wire(), ensure_ascii=False)
    record.prompt_tokens, record.completion_tokens, record.cost_usd = reply.prompt_tokens, reply.completion_tokens, cost
    record.first_token_ms, record.total_ms = reply.first_token_ms, reply.total_ms
    ledger.record_request(store, record)
    words = reply.content.split()
    if not words:
        raise LlmError("the model gave an empty synthesis")
    text = " ".join(words[:MAX_WORDS]) + ("…" if len(words) > MAX_WORDS else "")
    return redact(text).text if privacy.redact else text
