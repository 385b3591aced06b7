"""Past changes in words: each change of a batch naming what it changed ("Completed “Buy milk”", "Updated “Buy
milk”: priority 1"), its state, and the short phrases the model reads of what an utterance did."""

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from app.domain.enums import UndoKind, UndoSubject
from app.domain.verbs import PAST_TENSE, TICKED
from app.presentation.list_items import item_change
from app.presentation.names import quoted
from app.presentation.times import in_sentence
from app.store.models import UndoItem

RENAMED = "renamed"  # an update that sets a new summary
# A changed field before its new value: "due Fri 27 Nov", "snoozed until tomorrow".
_FIELD_BEFORE_VALUE = {"due_date": "due", "snooze_until": "snoozed until", "recurrence": "repeat"}
_MOMENT_FIELDS = {"due_date", "snooze_until", "until_text"}  # what names a moment: a due, a snooze's end


def batch_label(label: str, origin: str | None) -> str:
    """A batch's label with the other program that asked for it: 'completed 1 entry via Claude Desktop'."""
    return f"{label} via {origin}" if origin else label


def batch_title(label: str, said: str | None, origin: str | None) -> str:
    """A batch as the window's History names it: the words it came from, else its label, and who asked."""
    return batch_label(f"“{said}”" if said else label[:1].upper() + label[1:], origin)  # names keep their capitals


def action_text(item: UndoItem, names: dict[str, str], now: datetime, tz: ZoneInfo) -> str:
    """One change in words; `names`: entry ID -> its summary as listed now. A creation names the entry as it was
    made, and a new summary is a rename from the summary it had ("Renamed “Call the dentits” to “Call the
    dentist”"), so a rename never rewrites the lines before it. A moment is said as of `now` in `tz`."""
    described = json.loads(item.description)
    verb = PAST_TENSE[item.kind].capitalize()
    if item.subject is not UndoSubject.ENTRY:  # a memory, an utterance or a word: its text
        return f"{verb} “{described.get('text', '')}”"
    listed, recorded = names.get(item.entry_id), described.get("summary") or described.get("content")
    first, then = (recorded, listed) if item.kind is UndoKind.CREATE else (listed, recorded)
    name = first or then or "an entry"
    text = f"{verb} “{name}”"
    if item.kind is UndoKind.COMPLETE and (ticked := described.get("item")):  # one item of its checklist
        text = f"{TICKED.capitalize()} “{ticked}” on “{name}”"
    changes = dict(described.get("changes") or {})
    if changed := item_change(changes):  # "Removed “bananas” from “Shopping list”"
        return changed.words(name)
    if changes.get("summary") and (was := _summary_before(item)):
        text = f"{RENAMED.capitalize()} “{was}” to “{changes.pop('summary')}”"
    if changes:
        said = (
            f"{_FIELD_BEFORE_VALUE.get(field, field)} {_value(field, value, described, now, tz)}"
            for field, value in changes.items()
        )
        text += ": " + ", ".join(said)
    elif until := described.get("until_text"):
        text += f" until {_value('until_text', until, described, now, tz)}"
    return text


def _value(field: str, value: Any, described: dict[str, Any], now: datetime, tz: ZoneInfo) -> str:
    """A changed field's new value; a moment as the app says one ("Sat 5 Dec 20:00"): the one its words were read
    as, or (a change recorded before those were kept) its words when they are a written date and time."""
    if value is None:
        return "none"
    if field not in _MOMENT_FIELDS:
        return str(value)
    try:
        moment = datetime.fromisoformat((described.get("moments") or {}).get(field) or str(value))
    except ValueError:
        return str(value)  # words no moment was read from, or not a moment at all
    return in_sentence(moment if moment.tzinfo else moment.replace(tzinfo=tz), now, tz)


def _summary_before(item: UndoItem) -> str | None:
    """The entry's summary before the change, from the row its undo puts back."""
    before = json.loads(item.before_row) if item.before_row else {}
    summary = before.get("summary")
    return summary if isinstance(summary, str) and summary else None


def action_state(item: UndoItem) -> str:
    """'undone', 'kept: <why it was left as it is>', or '' for a change in place."""
    if item.undone_at:
        return "undone"
    return f"kept: {item.undo_conflict}" if item.undo_conflict else ""


def done_phrase(kind: UndoKind, name: str | None) -> str:
    """'created "Buy milk"', 'forgot "My brother is Tom"': one change of an utterance, for the model's recall."""
    verb = PAST_TENSE[kind]
    return f'{verb} "{name}"' if name else verb


def dismissed_title(said: str) -> str:
    """The window's title for an utterance taken out of the inbox: 'Dismissed “eggs are done”'."""
    return f"{PAST_TENSE[UndoKind.DISMISS].capitalize()} {quoted(said)}"
