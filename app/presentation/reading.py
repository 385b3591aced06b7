"""What Murmur would do with typed words if Enter were pressed now, one short line per change: "New reminder “Call
the dentist” · Thu 3 Dec 09:00", "Move “Haircut” to Fri 27 Nov 16:00", "Not sure — 2 readings". Nothing is done."""

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from app.domain.actions import (
    PRIORITY_NAMES,
    Action,
    ArchiveAction,
    CompleteAction,
    CreateAction,
    SnoozeAction,
    UpdateAction,
)
from app.domain.recurrence import describe
from app.presentation.applied import FIELD_NAMES
from app.presentation.list_items import item_change
from app.presentation.names import quoted
from app.presentation.times import in_sentence, moment_words

LINES_SHOWN = 2  # under the typed box: more would push the list down while the user types
RULES_READ = "Rules read: "  # a model reads the words on Enter, and may read them otherwise
ANSWER = "Answer from your list"
NOT_UNDERSTOOD = "Not understood — it would wait in the Inbox"
# An update's words for the item changes, as the toast's past tense says them in the present.
_ITEM_VERBS = {"added": "Add", "removed": "Remove", "unticked": "Untick"}


@dataclass(frozen=True)
class ReadAction:
    """One change the words ask for, with what a line needs to say it."""

    action: Action
    name: str  # the entry it is about as the list names it (a new entry's own summary)
    moment: datetime | None = None  # where it puts the entry: the due read, or the end of a snooze


@dataclass(frozen=True)
class ReadingPreview:
    """How the built-in rules read typed words, before anything is saved or changed."""

    actions: tuple[ReadAction, ...] = ()
    answer: str | None = None  # a question answered from the list
    choices: tuple[str, ...] = ()  # unsure: the readings it would offer back
    remember: tuple[str, ...] = ()  # facts it would keep
    unread: int = 0  # parts of the words it could not act on
    rules_only: bool = False  # a model is set up: on Enter it reads the words, not these rules


def reading_lines(preview: ReadingPreview, now: datetime, tz: ZoneInfo) -> list[str]:
    """At most LINES_SHOWN lines; none when the words ask for nothing (or are not there)."""
    lines = _all_lines(preview, now, tz)
    if len(lines) > LINES_SHOWN:
        lines = [*lines[: LINES_SHOWN - 1], f"and {len(lines) - LINES_SHOWN + 1} more"]
    if lines and preview.rules_only:
        lines[0] = RULES_READ + lines[0]
    return lines


def _all_lines(preview: ReadingPreview, now: datetime, tz: ZoneInfo) -> list[str]:
    lines = [action_words(read, now, tz) for read in preview.actions]
    lines += [f"Remember {quoted(fact)}" for fact in preview.remember]
    if preview.choices and not lines:  # it asks back when nothing else would be done; what failed is what it asks
        return [f"Not sure — {_count(len(preview.choices), 'reading')}"]
    if preview.answer:
        lines.append(ANSWER)
    if preview.unread:
        lines.append(f"{_count(preview.unread, 'part')} not understood" if lines else NOT_UNDERSTOOD)
    return lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def action_words(read: ReadAction, now: datetime, tz: ZoneInfo) -> str:
    """'New todo “Buy milk”', 'Tick off “Pay the gas bill”', 'Snooze “Haircut” until tomorrow 09:00'."""
    action, name = read.action, quoted(read.name)
    if isinstance(action, CreateAction):
        return _created(action, read.moment, now, tz)
    if isinstance(action, UpdateAction):
        return _updated(action, read.name, read.moment, now, tz)
    if isinstance(action, CompleteAction):
        return f"Tick off {quoted(action.item)} on {name}" if action.item else f"Tick off {name}"
    if isinstance(action, SnoozeAction):
        return f"Snooze {name} until {_when(read.moment, action.until_text, now, tz)}"
    assert isinstance(action, ArchiveAction)
    return f"Archive {name}"


def _created(action: CreateAction, moment: datetime | None, now: datetime, tz: ZoneInfo) -> str:
    text = f"New {action.category.value} {quoted(action.summary)}"
    if action.items:
        text += f" ({_count(len(action.items), 'item')})"
    if moment is not None:
        text += f" · {moment_words(moment, now, tz)}"
    elif action.due_text:
        text += f" · {quoted(action.due_text)} (no date read from it)"
    return f"{text}, {describe(action.recurrence)}" if action.recurrence else text


def _updated(action: UpdateAction, entry: str, moment: datetime | None, now: datetime, tz: ZoneInfo) -> str:
    changes, name = action.changes, quoted(entry)
    if (items := item_change(changes)) is not None:
        return f"{_ITEM_VERBS[items.verb]} {items.named(entry)}"
    if set(changes) == {"due_date"}:
        due = changes["due_date"]
        return f"Move {name} to {_when(moment, due, now, tz)}" if due else f"Clear the due of {name}"
    if set(changes) == {"summary"}:
        return f"Rename {name} to {quoted(changes['summary'])}"
    if set(changes) == {"priority"}:
        priority = changes["priority"]
        return f"Set {name} to {PRIORITY_NAMES[priority]} priority" if priority else f"Clear the priority of {name}"
    fields = ", ".join(FIELD_NAMES.get(key, key.replace("_", " ")) for key in changes)
    return f"Change {name} ({fields})"


def _when(moment: datetime | None, said: str, now: datetime, tz: ZoneInfo) -> str:
    """The moment read, or the words themselves when no moment could be read from them."""
    return in_sentence(moment, now, tz) if moment is not None else quoted(said)
