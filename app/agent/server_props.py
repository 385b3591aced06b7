"""What a llama.cpp server says about its model: its `/props` tells whether the chat template takes tools
(when it does not, the server drops `tools` without a word and the model never sees them)."""

from typing import Any

import httpx2 as httpx

_PROPS_SECONDS = 3.0


def server_props(base_url: str, seconds: float = _PROPS_SECONDS) -> dict[str, Any] | None:
    """The server's /props, or None when it has none (Ollama, LM Studio, OpenAI) or does not answer within
    `seconds` (at most a few: what is left of a caller's deadline, when that is less)."""
    seconds = min(seconds, _PROPS_SECONDS)
    if seconds <= 0:
        return None
    root = base_url.rstrip("/").removesuffix("/v1")
    try:
        response = httpx.get(f"{root}/props", timeout=seconds)
        body = response.json() if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def template_takes_tools(props: dict[str, Any] | None) -> bool | None:
    """True or False as the server says; None when it does not say."""
    caps = (props or {}).get("chat_template_caps")
    value = caps.get("supports_tool_calls") if isinstance(caps, dict) else None
    return value if isinstance(value, bool) else None
