"""What an undo did, naming what came back or went: 'Undone: removed “Call the dentist”', 'Undone: “Milk” is open
again', with what was left as it is and why ('1 left as it is (the entry was changed again since; ...)')."""

import json
from collections.abc import Mapping

from app.changes.undo import RevertedItem, UndoRecord, UndoResult
from app.domain.enums import UndoKind, UndoSubject
from app.presentation.names import quoted

_NAMED = 2  # changes named in the line; the rest are counted
# What taking back each kind of change did to the thing it changed, named in the braces.
_TAKEN_BACK = {
    UndoKind.CREATE: "removed {name}",
    UndoKind.UPDATE: "{name} is as it was",
    UndoKind.COMPLETE: "{name} is open again",
    UndoKind.ARCHIVE: "{name} is back on your list",
    UndoKind.SNOOZE: "{name} is no longer snoozed",
    UndoKind.REMEMBER: "forgot {name}",
    UndoKind.FORGET: "{name} is remembered again",
    UndoKind.EDIT: "{name} is as it was",
    UndoKind.DISMISS: "{name} is back in the Inbox",
    UndoKind.FORGET_AUDIO: "the recording of {name} is kept again",
    UndoKind.ADD: "{name} is no longer one of your words",
    UndoKind.REMOVE: "{name} is one of your words again",
}


def changed_entries(result: UndoResult) -> list[str]:
    """The entries an undo put back or removed, first changed first: those its words name."""
    return list(dict.fromkeys(r.entry_id for r in result.reverted if r.subject is UndoSubject.ENTRY))


def undo_text(result: UndoResult, names: Mapping[str, str]) -> str:
    """The toast's and the window's line; `names`: entry ID -> its summary now, for the entries still there."""
    return f"Undone: {undone_words(result, names)}" if result.reverted else f"Nothing undone: {_left(result)}"


def undone_words(result: UndoResult, names: Mapping[str, str]) -> str:
    """'removed “Call the dentist” and “Milk” is open again, 1 left as it is (...)': what came back or went."""
    changes = [taken_back(record, names) for record in result.reverted]
    named, rest = changes[:_NAMED], len(changes) - _NAMED
    if rest > 0:
        words = f"{', '.join(named)} and {rest} more"
    else:
        words = " and ".join(named) or "nothing"
    return f"{words}, {_left(result)}" if result.conflicts else words


def taken_back(record: UndoRecord, names: Mapping[str, str]) -> str:
    """One change taken back: 'removed “Buy milk”', '“Pick up the parcel” is open again'."""
    described = json.loads(record.description)
    name = _name(record, described, names)
    if record.kind is UndoKind.COMPLETE and (item := described.get("item")):  # one item of its checklist
        return f"{quoted(item)} on {quoted(name)} is open again"
    return _TAKEN_BACK[record.kind].format(name=quoted(name))


def left_as_it_is(reverted: RevertedItem, names: Mapping[str, str]) -> str:
    """One change an undo could not take back, and why: 'Not undone for “Buy milk”: the entry no longer exists'."""
    record = reverted.item
    return f"Not undone for {quoted(_name(record, json.loads(record.description), names))}: {reverted.conflict}"


def _name(record: UndoRecord, described: Mapping[str, str], names: Mapping[str, str]) -> str:
    if record.subject is UndoSubject.ENTRY:
        return names.get(record.entry_id) or described.get("summary") or described.get("content") or "an entry"
    return described.get("text") or f"a {record.subject.value}"  # a memory, an utterance or a word: its text


def _left(result: UndoResult) -> str:
    conflicts = result.conflicts
    return f"{len(conflicts)} left as it is ({conflicts[0].conflict})"
