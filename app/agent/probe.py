"""What a model can do with Murmur's tools, found by trying (`murmur config test`, Settings -> Test).

One tiny request that needs one tool call, natively; when that brings no call, the same in the text protocol.
Each is timed, and the answer's speed is given in tokens per second, so a user can tell a model that works
from one that never will, and a fast one from a slow one, before speaking to it.
"""

import json
import time
from dataclasses import dataclass, replace
from enum import StrEnum

from app.agent.client import ChatClient
from app.agent.model_presets import SUGGESTED
from app.agent.provider import ProviderConfig, ToolProtocol
from app.agent.server_props import server_props, template_takes_tools
from app.agent.tools import CREATE, TOOLS
from app.agent.turn import AssistantTurn
from app.domain.model_text import quoted_line
from app.errors import LlmError, ModelFault

_PROBE_TOOLS = [tool for tool in TOOLS if tool["function"]["name"] == CREATE]
_PROBE_MESSAGES = [
    {
        "role": "system",
        "content": "You keep the user's todo list. To add to it, call create_entries. Do not answer in words.",
    },
    {"role": "user", "content": "Add buy milk to my list."},
]
_PROBE_TOKENS = 200


class Verdict(StrEnum):
    NATIVE = "native tool calls work"
    TEXT = "only the text protocol works"
    NONE = "this model does not follow tool instructions"


@dataclass(frozen=True)
class ToolProbe:
    verdict: Verdict
    seconds: float  # the request that decided it
    tokens_per_second: float | None  # of the answer's writing, once it began
    template_takes_tools: bool | None  # what a llama.cpp server says of its chat template, when it says
    said: str  # what the model answered, when it made no call

    @property
    def protocol(self) -> ToolProtocol | None:
        """The protocol that worked, if one did."""
        return {Verdict.NATIVE: ToolProtocol.NATIVE, Verdict.TEXT: ToolProtocol.TEXT}.get(self.verdict)

    def lines(self) -> list[str]:
        speed = f", {self.tokens_per_second:.0f} tokens/s" if self.tokens_per_second else ""
        timing = f"({self.seconds:.1f} s{speed})"
        lines = []
        if self.template_takes_tools is False:
            lines.append(
                "The server says this model's chat template takes no tools (llama.cpp: start llama-server with "
                "--jinja, and a model whose template has tools)."
            )
        if self.verdict is Verdict.NATIVE:
            lines.append(f"Native tool calls work {timing}.")
        elif self.verdict is Verdict.TEXT:
            lines.append(
                f"Only the text protocol works {timing}: Murmur writes its tools into the prompt for this model."
            )
        else:
            lines.append(
                f"This model does not follow tool instructions {timing}: use a bigger model (for example "
                f"{SUGGESTED}) or the offline rules (--offline)."
            )
            if self.said:
                lines.append(f"It answered: {quoted_line(self.said)}")
        return lines


def _made_the_call(turn: AssistantTurn) -> bool:
    for call in turn.tool_calls:
        try:
            arguments = json.loads(call.arguments or "{}")
        except json.JSONDecodeError:
            continue
        if call.name == CREATE and "milk" in json.dumps(arguments).lower():
            return True
    return False


def _speed(turn: AssistantTurn) -> float | None:
    writing = (turn.total_ms - (turn.first_token_ms or 0.0)) / 1000
    return turn.completion_tokens / writing if turn.completion_tokens and writing > 0.05 else None


def probe_tools(config: ProviderConfig, seconds: float) -> ToolProbe:
    """Try the model within `seconds` (what is left of llm.deadline_seconds); a server that cannot be used at all
    raises its one-line LlmError."""
    config = replace(config, max_output_tokens=_PROBE_TOKENS)
    ends = time.monotonic() + seconds
    takes_tools = template_takes_tools(server_props(config.base_url, seconds)) if config.is_local else None
    client = ChatClient(config)
    try:
        turn: AssistantTurn | None = None
        if takes_tools is not False:
            try:
                turn = client.complete(_PROBE_MESSAGES, _PROBE_TOOLS, None, ends - time.monotonic())
            except ModelFault:
                raise  # out of time: the text protocol would have none either
            except LlmError:
                turn = None  # a server that refuses `tools` may still take the text protocol
            if turn is not None and _made_the_call(turn) and not turn.calls_in_words:
                return ToolProbe(Verdict.NATIVE, turn.total_ms / 1000, _speed(turn), takes_tools, "")
        turn = client.complete(_PROBE_MESSAGES, _PROBE_TOOLS, None, ends - time.monotonic(), ToolProtocol.TEXT)
    finally:
        client.close()
    verdict = Verdict.TEXT if _made_the_call(turn) else Verdict.NONE
    return ToolProbe(verdict, turn.total_ms / 1000, _speed(turn), takes_tools, turn.content)
