"""The conversation as typed messages, checked at the edges: what is sent, stored and read back.

Plain dicts only at the edges: `to_wire` for the request, `from_wire` when a stored conversation
is read back; a stored message that does not fit is an error, not a silent drop.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.agent.turn import ToolCall
from app.errors import LlmError


class Role(StrEnum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()  # assistant messages only
    tool_call_id: str = ""  # tool messages only: which call this answers

    @classmethod
    def system(cls, content: str) -> "ChatMessage":
        return cls(Role.SYSTEM, content)

    @classmethod
    def user(cls, content: str) -> "ChatMessage":
        return cls(Role.USER, content)

    @classmethod
    def tool(cls, call_id: str, content: str) -> "ChatMessage":
        return cls(Role.TOOL, content, tool_call_id=call_id)

    def to_wire(self) -> dict[str, Any]:
        """The chat-completions form of this message."""
        if self.role is Role.TOOL:
            return {"role": "tool", "tool_call_id": self.tool_call_id, "content": self.content}
        wire: dict[str, Any] = {"role": self.role.value, "content": self.content or None}
        if self.tool_calls:
            wire["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in self.tool_calls
            ]
        elif self.role is not Role.ASSISTANT:
            wire["content"] = self.content
        return wire

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> "ChatMessage":
        try:
            role = Role(data["role"])
            calls = tuple(
                ToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"])
                for c in data.get("tool_calls") or ()
            )
            return cls(role, data.get("content") or "", calls, data.get("tool_call_id") or "")
        except (KeyError, TypeError, ValueError) as error:
            raise LlmError(f"a stored conversation message is malformed ({error!r}); starting afresh") from None


def to_wire(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    return [message.to_wire() for message in messages]
