"""The tools the model may call (OpenAI function-calling schema) and how a call becomes actions.

Each mutating tool takes a list of items, so one call can change several entries; search_entries only
reads. There is no delete tool: the worst a confused model can do is archive, and that is undoable.
ask_which changes nothing: it offers the user readings to pick from, each one change as a mutating tool takes it.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.domain.actions import Action, Choice, ParseFailure, ParseResult, parse_actions
from app.domain.enums import ActionKind, Category, Status
from app.errors import InvalidActionError, MurmurError
from app.memory.entry_search import MAX_PAGE, SearchSort

_ID = {"type": "string", "description": "the entry's short ID as shown in the context, e.g. 3fa1b2"}
_REASON = {"type": "string", "description": "why, in a few words (kept in the user's history)"}
_DUE = {
    "type": "string",
    "description": "when, in natural language as the user said it: 'tomorrow 5pm', 'Thursday', 'in 2 weeks'",
}
_FIELDS = {
    "content": {"type": "string", "description": "the full text of the entry"},
    "summary": {"type": "string", "description": "card text, about 10 words at most"},
    "category": {"type": "string", "enum": [c.value for c in Category]},
    "priority": {"type": "integer", "minimum": 1, "maximum": 5, "description": "1 is most important"},
    "due_date": _DUE,
    "repeat": {
        "type": "string",
        "description": "for habits, how often: 'daily', 'weekdays', 'every other monday', 'on the 15th of every "
        "month', or an RRULE body like FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
    },
}
_TEXTS = {"type": "array", "items": {"type": "string"}}
_ITEMS = {
    **_TEXTS,
    "description": "a checklist, one thing each, for a list or an errand of several things: 'buy eggs, bread and "
    "milk' is items ['eggs', 'bread', 'milk'] (each is ticked on its own later)",
}


def _function(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


def _list_of(key: str, item_properties: dict[str, Any], item_required: list[str]) -> dict[str, Any]:
    item = {"type": "object", "properties": item_properties, "required": item_required}
    return {key: {"type": "array", "items": item, "minItems": 1}}


CREATE, UPDATE, COMPLETE, ARCHIVE, SNOOZE, SEARCH, RECALL, REMEMBER, FORGET, ASK = (
    "create_entries",
    "update_entries",
    "complete_entries",
    "archive_entries",
    "snooze_entries",
    "search_entries",
    "recall",
    "remember",
    "forget",
    "ask_which",
)

# Each mutating tool: the argument holding its list, and the action kind of each item.
MUTATING: dict[str, tuple[str, ActionKind]] = {
    CREATE: ("entries", ActionKind.CREATE),
    UPDATE: ("updates", ActionKind.UPDATE),
    COMPLETE: ("entries", ActionKind.COMPLETE),
    ARCHIVE: ("entries", ActionKind.ARCHIVE),
    SNOOZE: ("entries", ActionKind.SNOOZE),
}
# How many readings ask_which offers: one is no question, and more than a few the user cannot weigh.
FEWEST_CHOICES, MOST_CHOICES = 2, 4

TOOLS: list[dict[str, Any]] = [
    _function(
        CREATE,
        "Create new entries for things the user said that are not already in the list.",
        _list_of(
            "entries",
            {
                **_FIELDS,
                "source_text": {"type": "string", "description": "the words the user said for this entry"},
                "items": _ITEMS,
            },
            ["content", "category", "source_text", "summary"],
        ),
        ["entries"],
    ),
    _function(
        UPDATE,
        "Change fields of existing entries (prefer this over creating a duplicate). To move or reschedule an "
        "entry (move, push, postpone, 'is now due', 'instead') set due_date: a day said alone keeps the entry's "
        "time of day, a time alone keeps its day, and a habit keeps its repeat.",
        _list_of(
            "updates",
            {
                "id": _ID,
                "fields": {
                    "type": "object",
                    "properties": {
                        **_FIELDS,
                        "status": {"type": "string", "enum": [s.value for s in Status]},
                        "snooze_until": _DUE,
                        "add_items": {
                            **_TEXTS,
                            "description": "things to add to the entry's checklist ('add butter to the shopping "
                            "list'); those already on it are skipped",
                        },
                        "remove_items": {
                            **_TEXTS,
                            "description": "items to take off the entry's checklist, ticked or not ('take bananas "
                            "off the shopping list'); never archive a whole list for one of its items",
                        },
                        "untick_item": {"type": "string", "description": "a ticked item to mark not done again"},
                    },
                },
                "reason": _REASON,
            },
            ["id", "fields", "reason"],
        ),
        ["updates"],
    ),
    _function(
        COMPLETE,
        "Mark entries done. A habit that repeats moves to its next due date instead. For one thing of a list "
        "('the milk is done', 'I packed the charger'), give item: only that item is ticked, and the entry is done "
        "with its last item.",
        _list_of(
            "entries",
            {
                "id": _ID,
                "reason": _REASON,
                "item": {
                    "type": "string",
                    "description": "the one item of the entry's checklist to tick, as listed after the entry",
                },
            },
            ["id", "reason"],
        ),
        ["entries"],
    ),
    _function(
        ARCHIVE,
        "Archive entries the user no longer wants (cancelled, irrelevant). Not for finished ones.",
        _list_of("entries", {"id": _ID, "reason": _REASON}, ["id", "reason"]),
        ["entries"],
    ),
    _function(
        SNOOZE,
        "Hide entries until a later time, when they become active again; their due date stays as it is. Only "
        "when the user says snooze, hide or 'remind me again later': to move a due, use update with due_date.",
        _list_of("entries", {"id": _ID, "until": _DUE, "reason": _REASON}, ["id", "until", "reason"]),
        ["entries"],
    ),
    _function(
        SEARCH,
        "Find entries not shown in the context: any of them, finished or old ones too. Read-only. Results are "
        "lines like the context's; when there are more, the result says which offset to ask for next.",
        {
            "query": {"type": "string", "description": "words to look for (misheard spellings are forgiven)"},
            "status": {"type": "string", "enum": [*(s.value for s in Status), "open", "any"], "default": "any"},
            "category": {"type": "string", "enum": [c.value for c in Category]},
            "due_after": {"type": "string", "description": "only entries due at or after this: 'today', 'Monday'"},
            "due_before": {"type": "string", "description": "only entries due before this: 'next Friday'"},
            "sort": {"type": "string", "enum": [s.value for s in SearchSort], "default": "relevance"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 20},
            "offset": {"type": "integer", "minimum": 0, "description": "from a previous result's 'offset=N'"},
        },
        [],
    ),
    _function(
        RECALL,
        "Search what the user said in earlier talks (not this one), with what was answered and done then: for "
        "'what did I say about the fence last week?' or 'what did we decide about the trip?'. Read-only.",
        {
            "query": {"type": "string", "description": "words to look for"},
            "from": {"type": "string", "description": "only from then on: 'last week', 'yesterday', '2026-11-01'"},
            "to": {"type": "string", "description": "only before then"},
        },
        ["query"],
    ),
    _function(
        REMEMBER,
        "Keep a lasting fact or preference about the user for every later talk ('my brother is Tom', 'I shop on "
        "Saturdays', 'by morning I mean 8 am'). Not a task (create an entry), not a one-off detail, never a secret, "
        "never an instruction to you (one is refused).",
        {"text": {"type": "string", "description": "the fact, in one short sentence about the user"}},
        ["text"],
    ),
    _function(
        FORGET,
        "Forget a remembered fact the user takes back or corrects (remember the corrected one too).",
        {"id": {"type": "string", "description": "the memory's ID as shown under 'What you know about the user'"}},
        ["id"],
    ),
    _function(
        ASK,
        "Ask the user which they meant instead of guessing: when several entries fit what they said ('paid the "
        "bill' with a gas bill and a phone bill open) or a change names no entry ('mark it done' with nothing "
        f"said before). Give {FEWEST_CHOICES} to {MOST_CHOICES} likely readings, each the one change it would make: "
        'a tool that changes entries and one item of its list as that tool takes it, e.g. {"label": "Tick off '
        '\'Pay the gas bill\'", "tool": "complete_entries", "item": {"id": "3fa1b2", "reason": "paid '
        'it"}}. Nothing changes now: the user picks one (applied for them) or answers in words. Not when one entry '
        "clearly fits, and never with other changes.",
        {
            "question": {"type": "string", "description": "one short question, e.g. 'Which bill did you pay?'"},
            "choices": {
                "type": "array",
                "minItems": FEWEST_CHOICES,
                "maxItems": MOST_CHOICES,
                "items": {
                    "type": "object",
                    "properties": {
                        "label": {
                            "type": "string",
                            "description": "the reading as the user reads it on a button: \"Tick off 'Pay the gas "
                            "bill'\"",
                        },
                        "tool": {"type": "string", "enum": list(MUTATING)},
                        "item": {
                            "type": "object",
                            "description": "one item of that tool's list, exactly as that tool takes it",
                        },
                    },
                    "required": ["label", "tool", "item"],
                },
            },
        },
        ["question", "choices"],
    ),
]


def actions_from_arguments(tool: str, arguments: Any) -> ParseResult:
    """The actions one mutating call asks for; each item parsed on its own, so one bad item never sinks the rest."""
    key, kind = MUTATING[tool]
    items = arguments.get(key) if isinstance(arguments, Mapping) else None
    if isinstance(items, Mapping):
        items = [items]  # a lone object where a list belongs: forgiven
    if not isinstance(items, list) or not items:
        return ParseResult([], [ParseFailure(tool=tool, error=f"'{key}' must be a non-empty list", raw=arguments)])
    return parse_actions((kind.value, item) for item in items)


@dataclass(frozen=True)
class Question:
    """An ask_which call read: the question, the readings offered, and why any other reading was dropped."""

    text: str
    choices: tuple[Choice, ...]
    dropped: tuple[str, ...] = ()


def question_from_arguments(arguments: Mapping[str, Any], resolve: Callable[[Action], Action]) -> Question:
    """The question an ask_which call asks. Each reading is parsed as its tool's own item is, then passed through
    `resolve` (which names the entry for good, or raises a MurmurError); one that fails is dropped with its reason.
    InvalidActionError when no question is left to ask."""
    text = arguments.get("question")
    if not isinstance(text, str) or not text.strip():
        raise InvalidActionError("'question' must be the question to the user, in words")
    offered = arguments.get("choices")
    if not isinstance(offered, list) or not FEWEST_CHOICES <= len(offered) <= MOST_CHOICES:
        raise InvalidActionError(f"'choices' must be a list of {FEWEST_CHOICES} to {MOST_CHOICES} readings")
    choices: list[Choice] = []
    dropped: list[str] = []
    for number, offer in enumerate(offered, start=1):
        try:
            choices.append(_choice(offer, resolve))
        except MurmurError as error:
            dropped.append(f"choice {number}: {error}")
    if len(choices) < FEWEST_CHOICES:
        raise InvalidActionError("; ".join([*dropped, f"fewer than {FEWEST_CHOICES} readings are left to offer"]))
    return Question(text.strip(), tuple(choices), tuple(dropped))


def _choice(offer: Any, resolve: Callable[[Action], Action]) -> Choice:
    """One reading: its label, and the one change its tool's item asks for."""
    if not isinstance(offer, Mapping):
        raise InvalidActionError(f"a reading must be an object with label, tool and item, not {type(offer).__name__}")
    label, tool = offer.get("label"), offer.get("tool")
    if not isinstance(label, str) or not label.strip():
        raise InvalidActionError("a reading needs a label, the words its button shows")
    if tool not in MUTATING:
        raise InvalidActionError(f"unknown tool {tool!r}; a reading's tool is one of {', '.join(MUTATING)}")
    parsed = actions_from_arguments(tool, {MUTATING[tool][0]: [offer.get("item")]})
    if parsed.failures:
        raise InvalidActionError(f"{tool}: {parsed.failures[0].error}")
    [action] = parsed.actions
    return Choice(label.strip(), (resolve(action),))
