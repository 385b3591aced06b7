"""Typed actions and their parsing from loose, JSON-like dicts (what an LLM or the interpreter says).

Parsing is forgiving, since a model's arguments are loose: each item is parsed on its own, so one
bad item never sinks the others; an unknown category becomes `note`, a priority is clamped to 1-5,
a repeat (an RRULE body, an old cadence word or spoken words such as "every other monday") that names
no repeat is dropped from a new entry and refused in an update, a malformed RRULE or an unknown status
is refused with a clear error, an empty reason becomes "No reason provided", and an empty source_text
becomes the content. Checklist items come as a list of texts or as one spoken list ("jam and butter").
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.bounds.checks import same_form
from app.domain.checklist import named_list, split_items
from app.domain.enums import ActionKind, Category, FailureKind, Status
from app.domain.recurrence import rule_from
from app.domain.summaries import card_summary
from app.errors import InvalidActionError

NO_REASON = "No reason provided"


@dataclass(frozen=True)
class CreateAction:
    content: str
    summary: str
    category: Category
    source_text: str
    priority: int | None = None
    due_text: str | None = None
    similar_to: str | None = None  # an open entry that looks alike: named in the result, to merge if meant
    recurrence: str | None = None  # an RRULE body (app/domain/recurrence.py)
    items: tuple[str, ...] = ()  # its checklist (app/domain/checklist.py), none ticked
    kind: ActionKind = field(default=ActionKind.CREATE, init=False)


@dataclass(frozen=True)
class UpdateAction:
    """`changes` holds only the fields to change, already validated (see UPDATABLE_FIELDS)."""

    entry_id: str
    changes: Mapping[str, Any]
    reason: str = NO_REASON
    kind: ActionKind = field(default=ActionKind.UPDATE, init=False)


@dataclass(frozen=True)
class CompleteAction:
    """With `item`, tick that one item of the entry's checklist; the entry completes with its last item."""

    entry_id: str
    reason: str = NO_REASON
    item: str | None = None
    kind: ActionKind = field(default=ActionKind.COMPLETE, init=False)


@dataclass(frozen=True)
class ArchiveAction:
    entry_id: str
    reason: str = NO_REASON
    kind: ActionKind = field(default=ActionKind.ARCHIVE, init=False)


@dataclass(frozen=True)
class SnoozeAction:
    entry_id: str
    until_text: str
    reason: str = NO_REASON
    kind: ActionKind = field(default=ActionKind.SNOOZE, init=False)


Action = CreateAction | UpdateAction | CompleteAction | ArchiveAction | SnoozeAction


@dataclass(frozen=True)
class Cause:
    """Why an action was not applied, as data: what a front end words without reading the error's sentence."""

    kind: FailureKind = FailureKind.INVALID
    subject: str | None = None  # the entry it concerned (its summary), or the words that named none or several
    prefix: str | None = None  # the entry ID asked for, when no one entry has it
    candidates: tuple[str, ...] = ()  # ambiguous words: the summaries of the entries they could mean


@dataclass(frozen=True)
class ParseFailure:
    """An item that could not become an action, and why, in words fit for the user and the model (and as data)."""

    tool: str
    error: str
    raw: Any = None
    cause: Cause = Cause()


@dataclass(frozen=True)
class Choice:
    """One likely reading of words Murmur was unsure of, offered back instead of guessed: how the user sees it
    ("Move 'Haircut' to Fri 16:00?") and what choosing it does."""

    label: str
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class ParseResult:
    actions: list[Action]
    failures: list[ParseFailure]
    answer: str | None = None  # a question answered from the list (nothing to change)
    remember: tuple[str, ...] = ()  # facts about the user to keep as memories ("my sister is allergic to peanuts")
    choices: tuple[Choice, ...] = ()  # unsure: the likely readings, for the user to pick; nothing is done meanwhile


UPDATABLE_FIELDS = (
    "content",
    "summary",
    "category",
    "priority",
    "due_date",
    "repeat",
    "status",
    "snooze_until",
    "add_items",  # checklist items to append
    "remove_items",  # checklist items to take off the list, ticked or not
    "untick_item",  # a ticked item to take back
)
# Other names a model uses for the repeat: the field of older prompts, and the entry's own.
_REPEAT_NAMES = ("repeat", "recurrence", "cadence")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return same_form(value).strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise InvalidActionError(f"expected text, got {type(value).__name__}")


def parse_category(value: Any) -> Category:
    """Unknown or missing categories fall back to `note`, the least-assuming one."""
    raw = value.strip().lower() if isinstance(value, str) else ""
    try:
        return Category(raw)
    except ValueError:
        return Category.NOTE


PRIORITY_NAMES = {1: "urgent", 2: "high", 3: "medium", 4: "low", 5: "lowest"}  # what each level is called
PRIORITY_WORDS = {name: level for level, name in PRIORITY_NAMES.items()} | {"highest": 1, "normal": 3}


def parse_priority(value: Any) -> int | None:
    """1-5, clamped; "P2", "2" and "high" are read as 2; anything unreadable means no priority."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        if (word := value.strip().lower().removesuffix(" priority")) in PRIORITY_WORDS:
            return PRIORITY_WORDS[word]
        digits = value.strip().lower().removeprefix("p")
        try:
            value = float(digits)
        except ValueError:
            return None
    if not isinstance(value, (int, float)) or value != value:  # NaN
        return None
    return max(1, min(5, round(value)))


def parse_repeat(value: Any) -> str | None:
    """The rule `value` names (see app.domain.recurrence.rule_from); None when it names none."""
    return rule_from(value) if isinstance(value, str) else None


def _repeat_of(data: Mapping[str, Any]) -> Any:
    return next((data[name] for name in _REPEAT_NAMES if data.get(name)), None)


def parse_status(value: Any) -> Status:
    """Strict: a wrong status transition is worse than none, so unknown values are refused."""
    raw = value.strip().lower() if isinstance(value, str) else value
    try:
        return Status(raw)
    except ValueError:
        allowed = ", ".join(s.value for s in Status)
        raise InvalidActionError(f"unknown status {value!r}; expected one of {allowed}") from None


def parse_items(value: Any) -> tuple[str, ...]:
    """Checklist texts from a list of them or one spoken list ("jam and butter", "eggs, bread"); none for nothing."""
    if value is None:
        return ()
    if isinstance(value, str):
        return split_items(value)
    if not isinstance(value, (list, tuple)):
        raise InvalidActionError(f"items must be a list of texts, got {type(value).__name__}")
    return tuple(text for item in value if (text := _text(item)))


def _reason(data: Mapping[str, Any]) -> str:
    return _text(data.get("reason")) or NO_REASON


def _entry_id(data: Mapping[str, Any]) -> str:
    entry_id = _text(data.get("id"))
    if not entry_id:
        raise InvalidActionError("missing entry id")
    return entry_id


def by_its_name(create: CreateAction) -> CreateAction:
    """A new list called by its name with its things as items: "Packing list: passport, charger" is the list
    "Packing list" of two items, so its title never goes stale as items change; other entries as they are."""
    named = named_list(create.summary)
    if named is None or not named.name:
        return create
    said = named_list(create.content)
    content = named.name if said is not None and said.name == named.name else create.content
    return replace(create, summary=named.name, content=content, items=(*named.items, *create.items))


def parse_create(data: Mapping[str, Any]) -> CreateAction:
    content = _text(data.get("content"))
    summary = _text(data.get("summary"))
    if not content and not summary:
        raise InvalidActionError("create needs content or a summary")
    content = content or summary
    create = CreateAction(
        content=content,
        summary=summary or card_summary(content),
        category=parse_category(data.get("category")),
        source_text=_text(data.get("source_text")) or content,
        priority=parse_priority(data.get("priority")),
        due_text=_text(data.get("due_date")) or None,
        recurrence=parse_repeat(_repeat_of(data)),
        items=parse_items(data.get("items")),
    )
    return by_its_name(create)


def parse_update_fields(fields: Any) -> dict[str, Any]:
    if not isinstance(fields, Mapping) or not fields:
        raise InvalidActionError("update needs a non-empty 'fields' object")
    unknown = sorted(set(fields) - set(UPDATABLE_FIELDS) - set(_REPEAT_NAMES))
    if unknown:
        raise InvalidActionError(f"unknown field(s) {', '.join(unknown)}; updatable: {', '.join(UPDATABLE_FIELDS)}")
    changes: dict[str, Any] = {}
    for name, value in fields.items():
        if name in ("content", "summary"):
            if not _text(value):
                raise InvalidActionError(f"{name} cannot be empty")
            changes[name] = _text(value)
        elif name == "category":
            changes[name] = parse_category(value)
        elif name == "priority":
            changes[name] = _changed_priority(value)
        elif name in _REPEAT_NAMES:
            changes["recurrence"] = _changed_repeat(value)
        elif name == "status":
            changes[name] = parse_status(value)
        elif name in ("add_items", "remove_items"):
            changes[name] = parse_items(value)
            if not changes[name]:
                raise InvalidActionError(f"{name} needs at least one item")
        elif name == "untick_item":
            changes[name] = _text(value)
            if not changes[name]:
                raise InvalidActionError("untick_item needs the item's text")
        else:  # due_date, snooze_until: phrases resolved when applied; empty clears
            changes[name] = _text(value) or None
    return changes


def _changed_priority(value: Any) -> int | None:
    """None or "none" clears it; a priority that cannot be read is refused rather than clearing it."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    priority = parse_priority(value)
    if priority is None:
        raise InvalidActionError(
            f"can't read a priority from {value!r}; say 1-5, P1-P5, urgent, high, medium, low or none"
        )
    return priority


def _changed_repeat(value: Any) -> str | None:
    """An empty repeat clears it; one that names no repeat is refused rather than clearing it."""
    if not _text(value):
        return None
    rule = parse_repeat(value)
    if rule is None:
        raise InvalidActionError(f"can't read a repeat from {value!r}; say e.g. 'every other monday' or an RRULE")
    return rule


def parse_update(data: Mapping[str, Any]) -> UpdateAction:
    return UpdateAction(entry_id=_entry_id(data), changes=parse_update_fields(data.get("fields")), reason=_reason(data))


def parse_complete(data: Mapping[str, Any]) -> CompleteAction:
    return CompleteAction(entry_id=_entry_id(data), reason=_reason(data), item=_text(data.get("item")) or None)


def parse_archive(data: Mapping[str, Any]) -> ArchiveAction:
    return ArchiveAction(entry_id=_entry_id(data), reason=_reason(data))


def parse_snooze(data: Mapping[str, Any]) -> SnoozeAction:
    until = _text(data.get("until") or data.get("snooze_until"))
    return SnoozeAction(entry_id=_entry_id(data), until_text=until or "tomorrow", reason=_reason(data))


_PARSERS: dict[ActionKind, Callable[[Mapping[str, Any]], Action]] = {
    ActionKind.CREATE: parse_create,
    ActionKind.UPDATE: parse_update,
    ActionKind.COMPLETE: parse_complete,
    ActionKind.ARCHIVE: parse_archive,
    ActionKind.SNOOZE: parse_snooze,
}


def parse_action(kind: str, data: Any) -> Action:
    """One action from a loose dict; InvalidActionError says what is wrong with it."""
    try:
        parser = _PARSERS[ActionKind(kind)]
    except ValueError:
        raise InvalidActionError(f"unknown action '{kind}'") from None
    if not isinstance(data, Mapping):
        raise InvalidActionError(f"{kind} expects an object, got {type(data).__name__}")
    return parser(data)


def asked_item(action: Action) -> tuple[str, dict[str, Any]]:
    """`action` as the tools take it (what `parse_action` reads back): to be kept, and applied later."""
    if isinstance(action, CreateAction):
        item: dict[str, Any] = {
            "content": action.content,
            "summary": action.summary,
            "category": action.category.value,
            "source_text": action.source_text,
            "priority": action.priority,
            "due_date": action.due_text,
            "repeat": action.recurrence,
            "items": list(action.items) or None,
        }
        return action.kind.value, {name: value for name, value in item.items() if value is not None}
    item = {"id": action.entry_id, "reason": action.reason}
    if isinstance(action, UpdateAction):
        item["fields"] = {name: list(v) if isinstance(v, tuple) else v for name, v in action.changes.items()}
    elif isinstance(action, CompleteAction) and action.item:
        item["item"] = action.item
    elif isinstance(action, SnoozeAction):
        item["until"] = action.until_text
    return action.kind.value, item


def parse_actions(items: Iterable[tuple[str, Any]]) -> ParseResult:
    """Parse each (kind, data) pair on its own; failures are collected, never raised."""
    actions: list[Action] = []
    failures: list[ParseFailure] = []
    for kind, data in items:
        try:
            actions.append(parse_action(kind, data))
        except InvalidActionError as error:
            failures.append(ParseFailure(tool=kind, error=str(error), raw=data))
    return ParseResult(actions, failures)


def describe_action(action: Action) -> dict[str, Any]:
    """The action as plain JSON-ready data (for history, undo records and --json output)."""
    data: dict[str, Any] = {"kind": action.kind.value}
    for name, value in vars(action).items():
        if name == "kind" or value is None or value == ():
            continue
        data[name] = dict(value) if isinstance(value, Mapping) else value
    return data
