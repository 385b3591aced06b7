"""A run's events as a snapshot test writes them out: (stage, kind, key fields), with what varies (IDs,
times) left out or put in words, so that a whole run reads as one list."""

from collections.abc import Callable, Sequence

from app.domain.events import (
    AppliedEvent,
    ErrorEvent,
    FallingBack,
    FinalTranscript,
    MessageEvent,
    PartialTranscript,
    PipelineEvent,
    ReplyFinished,
    ReplyStarted,
    RunEnd,
    RunStart,
    Stage,
    SummingUp,
    ThinkingEvent,
    ToolCallEvent,
    ToolResultEvent,
    TranscriptEvent,
)

Reduced = tuple[str, str, tuple[object, ...]]


def key_fields(event: PipelineEvent, summary_of: Callable[[str], str]) -> tuple[object, ...]:
    """What tells one event of its kind from another; an entry's ID is named by its summary (`summary_of`)."""
    match event:
        case RunStart():
            return (event.source.value,)
        case PartialTranscript() | FinalTranscript():
            return (event.text,)
        case TranscriptEvent():
            return (event.text, event.source.value)
        case ThinkingEvent():
            return (event.turn, event.interpreter)
        case SummingUp():
            return (event.talks,)
        case FallingBack():
            return (event.reason,)
        case ToolCallEvent() | ToolResultEvent():
            return (event.name,)
        case AppliedEvent():
            return (event.applied, event.failures)
        case MessageEvent():
            return (event.text, event.question)
        case ErrorEvent():
            return (event.message, event.code.value)
        case RunEnd():
            touched = tuple(summary_of(entry_id) for entry_id in event.touched)
            return (event.summary, event.applied, event.failures, event.undo_id is not None, touched)
        case ReplyStarted():
            return (event.text,)
        case ReplyFinished():
            return (event.listen,)
        case _:
            return ()


def of_kind(kind: type[object] | tuple[type[object], ...]) -> Callable[[object], bool]:
    """For `BridgeEvents.first` (tests/support/bridge_events.py): an event of `kind`."""
    return lambda event: isinstance(event, kind)


def not_spoken(event: object) -> bool:
    """For `BridgeEvents.first`: the reply could not be spoken (the run's last event when no voice is there)."""
    return isinstance(event, ErrorEvent) and event.stage is Stage.REPLY


def reduced(events: Sequence[PipelineEvent], summary_of: Callable[[str], str]) -> list[Reduced]:
    """The events of one run, reduced; fails unless they all carry the same run ID."""
    ids = {event.run_id for event in events}
    assert len(ids) == 1 and "" not in ids, f"not one run: {ids}"
    return [(event.stage.value, type(event).__name__, key_fields(event, summary_of)) for event in events]
