"""Which model server to talk to, with which model and key: presets, and the order sources win in.

Order, first wins: command-line flags, the environment (MURMUR_LLM_BASE_URL, MURMUR_LLM_MODEL,
MURMUR_LLM_API_KEY, then the openai client's own OPENAI_BASE_URL / OPENAI_API_KEY), the settings
file (the key: the keyring), the preset's defaults. With no key and no local server, there is no
provider and the offline rules run.
"""

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from urllib.parse import urlparse

from app.agent.reply_text import REMOTE_STOP_SEQUENCES, STOP_SEQUENCES, TEXT_PROTOCOL_STOP
from app.config import LlmSettings, url_problem, without_password
from app.errors import Setting, UsageError, command
from app.secrets import get_api_key

OPENAI_BASE_URL = "https://api.openai.com/v1"
# How the command line offers the settings a provider cannot do without.
_ANOTHER = "set another with {}"
_NAME_ONE = "use --model, MURMUR_LLM_MODEL or {}"


@dataclass(frozen=True)
class Preset:
    name: str
    label: str
    base_url: str
    default_model: str
    needs_key: bool


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("openai", "OpenAI", OPENAI_BASE_URL, "gpt-4o-mini", needs_key=True),
        Preset("ollama", "Ollama (local)", "http://localhost:11434/v1", "llama3.1", needs_key=False),
        Preset("llamacpp", "llama.cpp server (local)", "http://localhost:8080/v1", "default", needs_key=False),
        Preset("lmstudio", "LM Studio (local)", "http://localhost:1234/v1", "local-model", needs_key=False),
        Preset("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", "openai/gpt-4o-mini", needs_key=True),
    )
}

# USD per million tokens for well-known models; settings.llm.pricing adds to and overrides these.
DEFAULT_PRICING: dict[str, dict[str, float]] = {
    "gpt-4o-mini": {"input": 0.15, "output": 0.60},
    "gpt-4o": {"input": 2.50, "output": 10.00},
    "gpt-4.1": {"input": 2.00, "output": 8.00},
    "gpt-4.1-mini": {"input": 0.40, "output": 1.60},
    "gpt-4.1-nano": {"input": 0.10, "output": 0.40},
    "gpt-5-mini": {"input": 0.25, "output": 2.00},
    "openai/gpt-4o-mini": {"input": 0.15, "output": 0.60},
}


class ToolProtocol(StrEnum):
    """How the model calls tools: the server's function calling, <execute> blocks in its words
    (app/agent/text_protocol.py), or native until the server or the model shows it cannot."""

    NATIVE = "native"
    TEXT = "text"
    AUTO = "auto"


@dataclass(frozen=True)
class Price:
    input_per_million: float = 0.0
    output_per_million: float = 0.0
    known: bool = False  # False: a local or unknown model, counted as free

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input_per_million + completion_tokens * self.output_per_million) / 1_000_000


@dataclass(frozen=True)
class ProviderConfig:
    """Everything needed to send one request; `api_key` is never logged or printed (see __repr__)."""

    base_url: str
    model: str
    api_key: str = field(repr=False)
    timeout_seconds: float
    max_turns: int
    max_mutations: int
    stream: bool
    monthly_budget: float
    follow_up_seconds: float
    price: Price
    request_seconds: float = 120.0  # the whole request, however slowly the server answers
    context_tokens: int = 1500  # the entry lines of a request's context, at most (app/memory/context.py)
    max_output_tokens: int = 1024  # what one answer may run to: a small model can ramble to its context's end
    deadline_seconds: float = 45.0  # all the requests for one utterance together, however many turns
    tool_protocol: ToolProtocol = ToolProtocol.AUTO
    confirm_over: int = 5  # changes of one kind (archive, complete, snooze, update, forget) made without asking
    first_token_seconds: float = 90.0  # the wait for an answer's first word (a CPU server reads the prompt first)
    preset: str = ""  # the preset it came from, if any (named when it is tested)

    @property
    def read_wait_seconds(self) -> float:
        """How long a read may wait: as long as a first word may take (silences later are the deadline's)."""
        return max(self.timeout_seconds, self.first_token_seconds)

    @property
    def is_local(self) -> bool:
        return is_local_url(self.base_url)

    @property
    def server(self) -> str:
        """The server's address as it may be kept (the database names models by it) and shown: no password."""
        return without_password(self.base_url)

    def limits(self, protocol: ToolProtocol = ToolProtocol.NATIVE) -> dict[str, Any]:
        """How long an answer may run, in the words this server takes: OpenAI's newer models refuse
        `max_tokens` and stop sequences; the servers people run at home take both, and a small model
        there writes its chat template's turn markers and goes on as the user without the stops.
        With the text protocol the answer ends at its call block: the model would write the results itself."""
        if self.base_url == OPENAI_BASE_URL:
            return {"max_completion_tokens": self.max_output_tokens}
        if not self.is_local:
            stops = REMOTE_STOP_SEQUENCES[:-1] if protocol is ToolProtocol.TEXT else REMOTE_STOP_SEQUENCES
        else:
            stops = STOP_SEQUENCES
        text = [TEXT_PROTOCOL_STOP] if protocol is ToolProtocol.TEXT else []
        return {"max_tokens": self.max_output_tokens, "stop": [*text, *stops]}


def is_local_url(url: str) -> bool:
    """A server on this machine or the local network (Ollama, llama.cpp, LM Studio) needs no key."""
    host = urlparse(url).hostname or ""
    if host in ("localhost", "localhost.localdomain") or host.endswith(".local"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def price_for(model: str, settings: LlmSettings) -> Price:
    table = {**DEFAULT_PRICING, **settings.pricing}
    entry = table.get(model)
    if not entry:
        return Price()
    return Price(float(entry.get("input", 0.0)), float(entry.get("output", 0.0)), known=True)


@dataclass(frozen=True)
class ProviderFlags:
    """What the command line said (None: not given)."""

    base_url: str | None = None
    model: str | None = None
    preset: str | None = None


NO_FLAGS = ProviderFlags()


def _first(*values: str | None) -> str:
    return next((v.strip() for v in values if v and v.strip()), "")


def _preset(settings: LlmSettings, flags: ProviderFlags, env: Mapping[str, str]) -> Preset | None:
    name = _first(flags.preset, env.get("MURMUR_LLM_PRESET"), settings.preset)
    if name and name not in PRESETS:
        raise UsageError(f"unknown LLM preset {name!r}; presets are {', '.join(PRESETS)}")
    return PRESETS.get(name)


def configured_base_url(
    settings: LlmSettings, flags: ProviderFlags = NO_FLAGS, environ: Mapping[str, str] | None = None
) -> str:
    """The server address as configured (flags, environment, settings, preset), or "" when none is."""
    env = os.environ if environ is None else environ
    preset = _preset(settings, flags, env)
    return _first(
        flags.base_url,
        env.get("MURMUR_LLM_BASE_URL"),
        env.get("OPENAI_BASE_URL"),
        settings.base_url,
        preset.base_url if preset else None,
    )


def resolve_provider(
    settings: LlmSettings,
    flags: ProviderFlags = NO_FLAGS,
    environ: Mapping[str, str] | None = None,
    stored_key: str | None = None,
    look_in_keyring: bool = True,
) -> ProviderConfig | None:
    """The provider to use, or None when nothing is configured (then the offline rules run); a UsageError
    when what is configured cannot be used (an unknown preset, an address that is no server's)."""
    env = os.environ if environ is None else environ
    preset = _preset(settings, flags, env)
    base_url = configured_base_url(settings, flags, env)
    if base_url and (problem := url_problem(base_url)):
        another = command("config", "set", "llm.base_url", "URL", instead=Setting("llm.base_url"), phrase=_ANOTHER)
        raise UsageError(f"the LLM address {problem}", another)
    key = _first(
        env.get("MURMUR_LLM_API_KEY"),
        env.get("OPENAI_API_KEY"),
        stored_key,
        get_api_key() if look_in_keyring else None,
    )
    if not key and not (base_url and is_local_url(base_url)):
        return None
    base_url = base_url or OPENAI_BASE_URL
    default_model = preset.default_model if preset else ("gpt-4o-mini" if base_url == OPENAI_BASE_URL else "")
    model = _first(flags.model, env.get("MURMUR_LLM_MODEL"), settings.model, default_model)
    if not model:
        name_one = command("config", "set", "llm.model", "NAME", instead=Setting("llm.model"), phrase=_NAME_ONE)
        raise UsageError("no LLM model is set", name_one)
    return ProviderConfig(
        base_url=base_url.rstrip("/"),
        model=model,
        # Local servers ignore the key, but the openai client insists on one.
        api_key=key or "not-needed",
        timeout_seconds=settings.timeout_seconds,
        max_turns=max(1, settings.max_turns),
        max_mutations=max(1, settings.max_mutations),
        stream=settings.stream,
        monthly_budget=max(0.0, settings.monthly_budget),
        follow_up_seconds=max(0.0, settings.follow_up_seconds),
        price=price_for(model, settings),
        request_seconds=settings.request_seconds,
        context_tokens=settings.context_tokens,
        max_output_tokens=settings.max_output_tokens,
        deadline_seconds=settings.deadline_seconds,
        tool_protocol=ToolProtocol(settings.tool_protocol),
        confirm_over=settings.confirm_over,
        first_token_seconds=settings.first_token_seconds,
        preset=preset.name if preset else "",
    )
