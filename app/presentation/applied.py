"""An applied action in words: the CLI's line (with the entry's short ID), the window's title and detail lines
(no IDs, dues relative to now) and the line the model reads as its tool's result."""

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from app.changes.executor import ActionFailure, AppliedAction
from app.domain.actions import CompleteAction, CreateAction, UpdateAction
from app.domain.checklist import find_item, load_items
from app.domain.enums import ActionKind, UndoKind
from app.domain.recurrence import describe
from app.domain.verbs import PAST_TENSE, TICKED, past_tense
from app.presentation.entries import entry_line
from app.presentation.list_items import ITEM_VERBS, ItemChange, item_change
from app.presentation.names import quoted
from app.presentation.times import when
from app.terminal import terminal_safe

NAMES_IN_TITLE = 2  # "Created “A”, “B” and 3 more": the title stays one or two lines
# An updated entry's fields as the window names them: "Updated “Buy milk” (title, due date)".
FIELD_NAMES = {
    "content": "text",
    "summary": "title",
    "due_date": "due date",
    "recurrence": "repeat",
    "add_items": "items added",
    "remove_items": "items removed",
    "untick_item": "an item unticked",
}
# The window's verbs, in the order a title groups the entries: the kinds of action, then ticks.
_TITLE_ORDER = tuple(
    word.capitalize() for word in (*(PAST_TENSE[UndoKind(kind)] for kind in ActionKind), TICKED, *ITEM_VERBS)
)


def applied_line(item: AppliedAction, now: datetime, tz: ZoneInfo) -> str:
    """The CLI's line: 'created   3fa1b2  P1  todo      Buy milk  (due tomorrow 09:00)  [note]'."""
    ticked = isinstance(item.action, CompleteAction) and item.action.item is not None  # the line shows "[1 of 4]"
    note = f"  [{item.note}]" if item.note and not ticked else ""
    return f"{past_tense(item.action):<9} {entry_line(item.entry, item.short_id, now, tz)}{note}"


def tool_result_line(item: AppliedAction, summary: str) -> str:
    """What the model reads: "created [3fa1b2] todo 'Buy milk', status active (note)"; `summary` as the model may
    see it (its secrets masked)."""
    entry, note = item.entry, f" ({item.note})" if item.note else ""
    done = PAST_TENSE[UndoKind(item.action.kind)]
    return f"{done} [{item.short_id}] {entry.category.value} {summary!r}, status {entry.status.value}{note}"


def _moment(item: AppliedAction, now: datetime, tz: ZoneInfo) -> str:
    """When the change puts the entry: its due (or next due for a habit done), or the end of a snooze."""
    entry, kind = item.entry, item.action.kind
    if kind is ActionKind.SNOOZE and entry.snooze_until:
        return f"until {when(entry.snooze_until, now, tz)}"
    if kind is ActionKind.COMPLETE and entry.recurrence and entry.due_at:
        return f"next {when(entry.due_at, now, tz)}"
    if kind in (ActionKind.CREATE, ActionKind.UPDATE) and entry.due_at:
        return when(entry.due_at, now, tz)
    return ""


def _ticked(item: AppliedAction) -> str | None:
    """The checklist item a tick ticked, in the list's words (the words said may differ); None for another change."""
    action = item.action
    if not isinstance(action, CompleteAction) or action.item is None:
        return None
    items = load_items(item.entry.items)
    found = find_item(items, action.item)
    return action.item if found is None else items[found].text


def _items_changed(item: AppliedAction) -> ItemChange | None:
    return item_change(item.action.changes) if isinstance(item.action, UpdateAction) else None


def _done_word(item: AppliedAction) -> str:
    changed = _items_changed(item)
    return (changed.verb if changed else past_tense(item.action)).capitalize()


def _named(item: AppliedAction) -> str:
    """“Buy milk”, or for a tick “milk” on “Buy eggs and milk”, for items taken off “bananas” from “Shopping list”."""
    if changed := _items_changed(item):
        return changed.named(item.entry.summary)
    ticked = _ticked(item)
    return quoted(item.entry.summary) if ticked is None else f"{quoted(ticked)} on {quoted(item.entry.summary)}"


def _names(items: Sequence[AppliedAction]) -> str:
    names = [_named(item) for item in items]
    if len(names) <= NAMES_IN_TITLE:
        return " and ".join(names)
    return f"{', '.join(names[:NAMES_IN_TITLE])} and {len(names) - NAMES_IN_TITLE} more"


def applied_title(
    applied: Sequence[AppliedAction], failures: Sequence[ActionFailure], now: datetime, tz: ZoneInfo
) -> str:
    """'Created “Call the dentist” · Thu 26 Nov 15:00', 'Created “A”, “B” and 1 more, completed “C”',
    then "(1 couldn't be processed)" when some failed."""
    if len(applied) == 1:
        [item] = applied
        moment = item.note if _ticked(item) is not None else _moment(item, now, tz)  # a tick's note: "1 of 4 done"
        # After the dot the moment stands alone, as the list shows it: "· Tomorrow 17:00".
        title = f"{_done_word(item)} {_named(item)}" + (f" · {moment[:1].upper()}{moment[1:]}" if moment else "")
    else:
        groups = [[item for item in applied if _done_word(item) == word] for word in _TITLE_ORDER]
        parts = [f"{_done_word(group[0]).lower()} {_names(group)}" for group in groups if group]
        title = ", ".join(parts)
        title = title[0].upper() + title[1:]
    return f"{title} ({len(failures)} couldn't be processed)" if failures else title


def applied_words(item: AppliedAction, now: datetime, tz: ZoneInfo) -> str:
    """One line of the window's details: 'Created todo “Buy milk”, due tomorrow 09:00, every Monday'."""
    entry, action = item.entry, item.action
    name = quoted(entry.summary)
    if _ticked(item) is not None:
        return f"{_done_word(item)} {_named(item)}, {item.note}"
    if _items_changed(item) is not None:
        return f"{_done_word(item)} {_named(item)}"
    if isinstance(action, CreateAction):
        text = f"{_done_word(item)} {entry.category.value} {name}"
    elif isinstance(action, UpdateAction):
        fields = [FIELD_NAMES.get(key, key.replace("_", " ")) for key in action.changes]
        text = f"{_done_word(item)} {name}" + (f" ({', '.join(fields)})" if fields else "")
    else:
        text = f"{_done_word(item)} {name}"
    moment = _moment(item, now, tz)
    if moment and action.kind in (ActionKind.CREATE, ActionKind.UPDATE):
        text += f", due {moment}"
    elif moment:
        text += f" {moment}" if action.kind is ActionKind.SNOOZE else f", {moment}"
    elif entry.due_text and action.kind in (ActionKind.CREATE, ActionKind.UPDATE):
        text += f", due “{terminal_safe(entry.due_text, multiline=False)}” (no date read from it)"
    if entry.recurrence and action.kind is ActionKind.CREATE:
        text += f", {describe(entry.recurrence)}"
    # item.note is left out: it says the above again, or names a similar entry by ID (the message says that)
    return text
