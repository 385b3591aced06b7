"""Checking that a configured model server answers, knows its model, and what the model can do with tools
(Settings -> Test, `murmur config test`)."""

from app.agent import ledger
from app.agent.client import describe_transport_error, make_openai_client
from app.agent.probe import probe_tools
from app.agent.provider import NO_FLAGS, ProviderFlags, resolve_provider
from app.config import LlmSettings
from app.errors import LlmError, UsageError
from app.store import Store


def test_connection(
    settings: LlmSettings, api_key: str | None, flags: ProviderFlags = NO_FLAGS, store: Store | None = None
) -> str:
    """Lines saying the server answers and knows the model, then how the model calls tools and how fast it
    writes; a MurmurError with one line if the server cannot be reached. With a `store`, the protocol that
    worked is remembered for the model, as if an utterance had shown it."""
    provider = resolve_provider(settings, flags, stored_key=api_key)
    if provider is None:
        raise UsageError("no LLM is configured: set llm.preset or llm.base_url, and an API key for a remote server")
    try:
        with make_openai_client(provider) as client:  # closed after, so no socket is left open
            models = [model.id for model in client.models.list()]
    except Exception as error:  # every transport failure becomes one line below
        raise describe_transport_error(error, provider) from None
    lines = [f"Connected to {provider.base_url}; model {provider.model!r} is ready"]
    if models and provider.model not in models:
        # llama.cpp lists its file and takes any name, Ollama lists "name:tag": the tool test below tells
        shown = ", ".join(models[:8]) + (" …" if len(models) > 8 else "")
        lines = [f"Connected to {provider.base_url}; it does not list the model {provider.model!r} (it has: {shown})"]
    try:
        probe = probe_tools(provider)
    except LlmError as error:
        return "\n".join([*lines, f"A test request to the model failed: {error}"])
    lines += probe.lines()
    if store is not None and probe.protocol is not None:
        why = f"`config test`: {probe.verdict}"
        ledger.learn_protocol(store, provider.base_url, provider.model, probe.protocol.value, why)
    return "\n".join(lines)
