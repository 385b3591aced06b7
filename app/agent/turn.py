"""What one request to the model brought back: its words and its tool calls, however the server sent them."""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # raw text as the model wrote it; parsed and validated by the loop


LOOPING = "looping"  # the finish reason Murmur gives an answer it stopped reading because it repeated itself


@dataclass(frozen=True)
class AssistantTurn:
    content: str
    tool_calls: list[ToolCall]
    finish_reason: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    first_token_ms: float | None = None
    total_ms: float = 0.0
    # Calls already handed to on_tool_call while streaming (the rest are the caller's to run).
    delivered: int = 0
    raw_content: str = ""  # all the model wrote; `content` is its words to the user, call blocks taken out
    calls_in_words: bool = False  # the calls were written as text (the text protocol, or a model that ignores tools)

    @property
    def truncated(self) -> bool:
        """Cut before its end: by max_tokens, or by Murmur when the model went round in a loop."""
        return self.finish_reason in ("length", LOOPING)


ToolCallCallback = Callable[[ToolCall], None]
