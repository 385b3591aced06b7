"""Each tool's call: its arguments checked, one call into the application service, the result in words and data.

A call that cannot be carried out raises a MurmurError (the server turns it into an MCP tool error); whatever
changes, changes in one batch marked with the client's name, as `MurmurService.apply_asked` and `submit` make it.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.api.as_json import applied_json, failure_json, iso, memory_json, page_json, undo_json
from app.api.edits import Caps, ExecutionResult
from app.api.limits import MAX_ROW_ID, whole
from app.api.reads import render_hits
from app.api.runs import Again, Run, RunOptions, Stages, drive
from app.api.service import MurmurService, PipelineResult
from app.api.tools import MUTATING, RECALL, SEARCH, UPDATE, render_page
from app.domain.enums import DueSpan, UtteranceSource
from app.errors import UndoError, UsageError
from app.mcp.catalog import ADD, CHOOSE, MEMORIES, RESCHEDULE, UNDO, WHATS_DUE
from app.presentation.assistants import asked_words, batch_words, unsure_words
from app.presentation.run_report import run_report
from app.presentation.undo import changed_entries, undo_text


@dataclass(frozen=True)
class Reply:
    """A tool's result: words for the assistant to read, and the same as data (IDs, fields)."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Caller:
    """Who calls, on what: the service, the client's name (marked on its batches), what it may change unasked."""

    service: MurmurService
    client: str
    caps: Caps
    may_remember: bool = False  # the user's mcp.allow_memories: whether its words may become memories
    # The batches this server process made: a client's name is only what it says it is, so what it may take back
    # is what it made through this very connection.
    made: set[int] = field(default_factory=set)


Call = Callable[[Caller, Mapping[str, Any]], Reply]
Reshape = tuple[str, Callable[[Mapping[str, Any]], Mapping[str, Any]]]  # a list's key, and each item reshaped


def _search(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
    page, tz = caller.service.search(arguments), caller.service.clock().tz
    return Reply(render_page(page, tz), page_json(page, tz))


def _whats_due(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
    when = arguments.get("when") or DueSpan.TODAY.value
    if when not in {span.value for span in DueSpan}:
        raise UsageError(f"when {when!r} is not one of {', '.join(span.value for span in DueSpan)}")
    offset = whole(arguments.get("offset") or 0, "offset", 0)
    page, tz = caller.service.due(DueSpan(when), offset), caller.service.clock().tz
    return Reply(render_page(page, tz, WHATS_DUE), page_json(page, tz))


def _recall(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
    words = arguments.get("query")
    if not isinstance(words, str) or not words.strip():
        raise UsageError("query must be the words to look for")
    hits = caller.service.recall(words, since=arguments.get("from") or None, until=arguments.get("to") or None)
    tz = caller.service.clock().tz
    data = [{"said_at": iso(h.said_at, tz), "said": h.said, "reply": h.reply, "done": h.done} for h in hits]
    return Reply(render_hits(hits, tz), {"hits": data})


def _memories(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
    kept = caller.service.memories()
    tz = caller.service.clock().tz
    text = "\n".join(f"{short} {memory.text}" for short, memory in kept) or "Nothing is kept about the user."
    return Reply(text, {"memories": [memory_json(memory, short, tz) for short, memory in kept]})


def _add(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
    text = arguments.get("text")
    if not isinstance(text, str):
        raise UsageError("text must be the user's words")
    options = RunOptions(origin=caller.client, may_remember=caller.may_remember)
    result = _driven(caller, Run(UtteranceSource.TYPED, text=text, options=options))
    return _changed(caller, result, result.message)


def _choose(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
    said = whole(arguments.get("utterance"), "utterance (the number 'add' returned)", 1, MAX_ROW_ID)
    number = whole(arguments.get("choice"), "choice (a reading's number)", 1)
    options = RunOptions(origin=caller.client, choice=number, may_remember=caller.may_remember)
    result = _driven(caller, Run(UtteranceSource.TYPED, again=Again(said), options=options))
    return _changed(caller, result, result.message)


def _driven(caller: Caller, run: Run) -> PipelineResult:
    """What an assistant's words did: a run of their own, from reading them to what changed."""
    drive(run, Stages(caller.service))
    assert run.result is not None, "a run that raised nothing has its result"
    return run.result


def _by_id(tool: str, reshaped: Reshape | None = None) -> Call:
    """The call of a tool that changes entries: each item of its list one action of the agent's tool `tool`;
    `reshaped`: the list's key and each item as `tool` takes it, for a tool of the server's own."""
    key, kind = MUTATING[tool]
    listed, as_asked = reshaped or (key, dict)

    def call(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
        items = arguments.get(listed)
        if not isinstance(items, list) or not items or not all(isinstance(item, Mapping) for item in items):
            raise UsageError(f"'{listed}' must be a non-empty list of objects; nothing was changed")
        ids = [str(item.get("id", "")) for item in items]
        words = asked_words(caller.client, kind.value, ids)
        asked = [(kind.value, as_asked(item)) for item in items]
        return _changed(caller, caller.service.apply_asked(asked, caller.client, words, caller.caps), None)

    return call


def _rescheduled(item: Mapping[str, Any]) -> dict[str, Any]:
    """A reschedule_entries item as update_entries takes it."""
    return {"id": item.get("id"), "fields": {"due_date": item.get("due_date")}, "reason": item.get("reason", "")}


def _changed(caller: Caller, result: ExecutionResult | PipelineResult, message: str | None) -> Reply:
    """What a change did (with the model's words, when it read them), line by line, and as data."""
    clock = caller.service.clock()
    report = run_report(result, clock.now, clock.tz)
    lines = [message] if message else []
    lines += report.lines
    lines.append(batch_words(report.summary, report.undo_id))
    if report.undo_id is not None:
        caller.made.add(report.undo_id)
    if report.choices and report.utterance_id is not None:
        lines.append(unsure_words(report.utterance_id, report.choices))
    data = {
        "applied": [applied_json(item, clock.tz) for item in report.applied],
        "failures": [failure_json(failure) for failure in report.failures],
        "batch": report.undo_id,
        "message": message,
        "choices": [{"choice": n, "reading": label} for n, label in enumerate(report.choices, start=1)],
        "utterance": report.utterance_id,
    }
    return Reply("\n".join(lines), data)


def _undo(caller: Caller, arguments: Mapping[str, Any]) -> Reply:
    batch = whole(arguments.get("batch"), "batch (the number a change returned)", 1, MAX_ROW_ID)
    if batch not in caller.made:
        raise UndoError(f"batch {batch} was not made by {caller.client} in this session; only its own can be undone")
    result = caller.service.undo_batch(batch, origin=caller.client)
    names = caller.service.names_now(changed_entries(result))
    return Reply(undo_text(result, names), undo_json(result, caller.service.clock().tz))


CALLS: dict[str, Call] = {
    SEARCH: _search,
    WHATS_DUE: _whats_due,
    RECALL: _recall,
    MEMORIES: _memories,
    ADD: _add,
    **{tool: _by_id(tool) for tool in MUTATING},
    RESCHEDULE: _by_id(UPDATE, ("entries", _rescheduled)),
    UNDO: _undo,
    CHOOSE: _choose,
}
