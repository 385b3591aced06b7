"""The tools an assistant is offered over MCP, their input schemas taken from the agent's own tools.

The tools that change entries by ID and the two that search are the agent's (app/agent/tools.py), schema and
words, so the two never drift; `reschedule_entries` is update's due_date alone, made of update's own schema;
`whats_due`, `add`, `undo` and `memories` are the MCP server's own.
"""

from dataclasses import dataclass
from typing import Any

from app.api.tools import ARCHIVE, COMPLETE, CREATE, RECALL, SEARCH, SNOOZE, TOOLS, UPDATE
from app.domain.enums import DueSpan

WHATS_DUE, ADD, RESCHEDULE, UNDO, MEMORIES = "whats_due", "add", "reschedule_entries", "undo", "memories"
CHOOSE = "choose_reading"
BY_ID = (UPDATE, COMPLETE, SNOOZE, ARCHIVE)

# What the agent's descriptions call "the context" is, for an assistant, what these tools listed.
_IDS = " Entry IDs are the short IDs search_entries and whats_due list."
_ONE_BATCH = " All the changes of one call are one undoable batch, applied whole or not at all."


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]
    writes: bool  # changes the list: hidden and refused when mcp.read_only is set


def _agent_tool(name: str) -> tuple[str, dict[str, Any]]:
    """The agent's description and parameters of tool `name`."""
    [function] = [tool["function"] for tool in TOOLS if tool["function"]["name"] == name]
    return function["description"], function["parameters"]


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


def _from_agent(name: str, writes: bool, note: str = "") -> ToolSpec:
    description, parameters = _agent_tool(name)
    return ToolSpec(name, description + note, parameters, writes)


def _reschedule() -> ToolSpec:
    """update_entries narrowed to a new due: its ID, due_date and reason, each as update describes it."""
    update = _agent_tool(UPDATE)[1]["properties"]["updates"]["items"]["properties"]
    item = {"id": update["id"], "due_date": update["fields"]["properties"]["due_date"], "reason": update["reason"]}
    entries = {"type": "array", "minItems": 1, "items": _schema(item, ["id", "due_date", "reason"])}
    description = (
        "Move entries to a new due (postpone, push, 'is now due'): a day said alone keeps the entry's time of day, a "
        "time alone keeps its day, and a habit keeps its repeat."
    )
    return ToolSpec(RESCHEDULE, description + _IDS + _ONE_BATCH, _schema({"entries": entries}, ["entries"]), True)


def tool_specs(allow_memories: bool) -> list[ToolSpec]:
    """Every tool, in the order a client lists them; `memories` only when the user lets assistants read them."""
    specs = [
        _from_agent(SEARCH, writes=False),
        ToolSpec(
            WHATS_DUE,
            "What is due: overdue (late now), today (due by midnight, the late ones too) or week (the next seven "
            "days). Read-only. Active entries, soonest first, 50 at a time.",
            _schema(
                {
                    "when": {"type": "string", "enum": [span.value for span in DueSpan], "default": "today"},
                    "offset": {"type": "integer", "minimum": 0, "description": "from a previous result's 'offset=N'"},
                },
                [],
            ),
            writes=False,
        ),
        _from_agent(RECALL, writes=False),
        ToolSpec(
            ADD,
            "Add what the user says, in their own words ('call the dentist Thursday, and milk is done'): Murmur "
            "reads them as if spoken (dates, lists, completions) and returns what changed, one undoable batch.",
            _schema({"text": {"type": "string", "description": "the user's words, as they would say them"}}, ["text"]),
            writes=True,
        ),
        ToolSpec(
            CHOOSE,
            "When Murmur was unsure what 'add' was given meant, it changed nothing and returned the likely readings, "
            "numbered, with the utterance they belong to: ask the user which they meant, then apply that one here.",
            _schema(
                {
                    "utterance": {"type": "integer", "minimum": 1, "description": "the utterance 'add' returned"},
                    "choice": {"type": "integer", "minimum": 1, "description": "the reading's number, from 1"},
                },
                ["utterance", "choice"],
            ),
            writes=True,
        ),
        _from_agent(CREATE, writes=True, note=_ONE_BATCH),
        *(_from_agent(name, writes=True, note=_IDS + _ONE_BATCH) for name in BY_ID),
        _reschedule(),
        ToolSpec(
            UNDO,
            "Take back one batch of changes this assistant made in this session, by the batch number a change "
            "returned. Batches the user (or another session) made cannot be undone from here.",
            _schema({"batch": {"type": "integer", "minimum": 1, "description": "the batch number"}}, ["batch"]),
            writes=True,
        ),
    ]
    if allow_memories:
        memories = ToolSpec(
            MEMORIES, "The facts the user asked Murmur to keep in mind about them. Read-only.", _schema({}, []), False
        )
        specs.append(memories)
    return specs
