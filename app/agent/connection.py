"""Checking that a configured model server answers, knows its model, and what the model can do with tools
(Settings -> Test, `murmur config test`). The whole check takes at most llm.deadline_seconds, as an utterance
does: a frozen server is found out as fast as it would cost the user."""

import time
from dataclasses import dataclass

import httpx2 as httpx
import openai

from app.agent import ledger
from app.agent.client import describe_transport_error, make_openai_client
from app.agent.probe import probe_tools
from app.agent.provider import NO_FLAGS, ProviderConfig, ProviderFlags, configured_base_url, resolve_provider
from app.config import LlmSettings, without_password
from app.errors import LlmError, Setting, UsageError, command
from app.store import Store


@dataclass(frozen=True)
class ConnectionReport:
    """What the test found, line by line; `ok` when the model can do the work."""

    lines: list[str]
    ok: bool

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def test_connection(
    settings: LlmSettings, api_key: str | None, flags: ProviderFlags = NO_FLAGS, store: Store | None = None
) -> ConnectionReport:
    """Lines saying the server answers and knows the model, then how the model calls tools and how fast it
    writes; a MurmurError with one line if the server cannot be reached or nothing usable is configured. With
    a `store`, what was found is remembered for the model, as if utterances had shown it: the protocol that
    worked, or that the model cannot call tools (it is set aside; a test that finds it working takes it back)."""
    provider = resolve_provider(settings, flags, stored_key=api_key)
    if provider is None:
        raise _unconfigured(settings, flags)
    started = time.monotonic()
    models = _listed_models(provider)
    lines = [_connected_line(provider, models)]
    time_left = provider.deadline_seconds - (time.monotonic() - started)
    try:
        probe = probe_tools(provider, time_left)
    except LlmError as error:
        return ConnectionReport([*lines, f"A test request to the model failed: {error}"], ok=False)
    lines += probe.lines()
    if store is not None and probe.protocol is not None:
        ledger.learn_protocol(
            store, provider.server, provider.model, probe.protocol.value, f"`config test`: {probe.verdict}"
        )
        ledger.reinstate(store, provider.server, provider.model)
    elif store is not None:
        ledger.set_aside(store, provider.server, provider.model, f"`config test`: {probe.verdict}")
        lines.append("The model is set aside: the built-in rules file what you say until a test finds it working.")
    return ConnectionReport(lines, ok=probe.protocol is not None)


def _unconfigured(settings: LlmSettings, flags: ProviderFlags) -> UsageError:
    """Why there is no model to test: nothing set, or a remote server without a key."""
    base_url = configured_base_url(settings, flags)
    if base_url:
        key = command("config", "set-key", instead=Setting("llm.api_key"), joint=": ")
        return UsageError(f"the model server at {without_password(base_url)} needs an API key", key)
    return UsageError("no LLM is configured: set llm.preset or llm.base_url, and an API key for a remote server")


def _listed_models(provider: ProviderConfig) -> list[str]:
    """The server's models, asked once (no retry: a dead server would cost twice) within the test's time."""
    seconds = min(provider.read_wait_seconds, provider.deadline_seconds)
    timeout = httpx.Timeout(seconds, connect=min(5.0, seconds))
    try:
        with make_openai_client(provider) as client:  # closed after, so no socket is left open
            listed = client.with_options(max_retries=0, timeout=timeout).models.list()
            return [model.id for model in listed]
    except openai.APITimeoutError:
        raise LlmError(
            f"the model server at {provider.server} did not answer within {seconds:g} s (llm.deadline_seconds)"
        ) from None
    except Exception as error:  # every transport failure becomes one line
        raise describe_transport_error(error, provider) from None


def _connected_line(provider: ProviderConfig, models: list[str]) -> str:
    where = f"{provider.server} (preset {provider.preset})" if provider.preset else provider.server
    if models and provider.model not in models:
        # llama.cpp lists its file and takes any name, Ollama lists "name:tag": the tool test tells
        shown = ", ".join(models[:8]) + (" …" if len(models) > 8 else "")
        return f"Connected to {where}; it does not list the model {provider.model!r} (it has: {shown})"
    return f"Connected to {where}; model {provider.model!r} is ready"
