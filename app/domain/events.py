"""What a pipeline run reports while it works, for the GUI's progress line and for tests.

Events are frozen dataclasses handed to one plain callback (seed 002, Home Assistant's
assist_pipeline): a test does `events.append`, the GUI's bridge re-emits them as Qt signals.
A run always ends with exactly one `DONE` event, also when it failed (then `ERROR` comes first).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any


class EventType(StrEnum):
    TRANSCRIPT = "transcript"  # data: text, source, utterance_id: the text was saved and is being read
    THINKING = "thinking"  # data: turn: a request to the model started (or the offline rules run)
    TOOL_CALL = "tool_call"  # data: id, name, arguments: a complete tool call, about to run
    TOOL_RESULT = "tool_result"  # data: id, name, content, ok: what the tool call did ("Error: ..." when not ok)
    MESSAGE = "message"  # data: text, question (bool): the model's words to the user
    ERROR = "error"  # data: message: the run failed; what was said waits in the inbox
    DONE = "done"  # data: utterance_id, summary, undo_id, applied (int), failures (int)


@dataclass(frozen=True)
class PipelineEvent:
    type: EventType
    data: dict[str, Any] = field(default_factory=dict)
    timestamp: datetime = field(default_factory=lambda: datetime.now(UTC))


EventCallback = Callable[[PipelineEvent], None]


def ignore_events(_event: PipelineEvent) -> None:
    """The callback for callers that do not watch progress (the plain CLI)."""
