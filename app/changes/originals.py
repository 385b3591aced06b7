"""Secrets put back into entries (privacy.keep_unredacted) stay on this machine.

With keep_unredacted, what redaction hid from the model (a card number, a password) is put back into the
entries the model wrote, in the local database only. Sync and the files written for other apps (iCalendar,
CSV, Markdown, todo.txt) must not carry it off, so each original put back is noted with its entry, and what
leaves the machine shows the placeholder the model saw instead. The originals are noted, not just a flag:
later changes by the model (which only ever sees placeholders) keep them covered, and a secret the user
never said to the model is not touched. An edit of the words by hand clears the note: then the user typed
what is there, and it goes where they send it.
"""

from collections.abc import Iterable, Sequence

from sqlmodel import Session, col, delete, select

from app.store.models import Entry, EntryOriginal

# The words of an entry that keep_unredacted fills in (app/agent/loop.py); the rest keep the placeholders.
_WORDS = ("summary", "content", "source_text")


def note_originals(session: Session, entries: Iterable[Entry], originals: Sequence[tuple[str, str]]) -> None:
    """Note each (placeholder, original) whose original is now in the words of one of `entries`."""
    for entry in entries:
        words = [str(getattr(entry, name) or "") for name in _WORDS]
        for placeholder, original in originals:
            if any(original in text for text in words):
                session.merge(EntryOriginal(entry_id=entry.id, original=original, placeholder=placeholder))


def clear_originals(session: Session, entry_ids: Iterable[str]) -> None:
    """The user wrote these entries' words by hand: what is in them is theirs to send."""
    session.execute(delete(EntryOriginal).where(col(EntryOriginal.entry_id).in_(list(entry_ids))))


def shareable(session: Session, entries: Sequence[Entry]) -> list[Entry]:
    """`entries` as they may leave the machine: copies with each original put back replaced by its placeholder
    (the stored entries are left as they are); an entry with none noted is itself."""
    noted: dict[str, list[EntryOriginal]] = {}
    for row in session.exec(select(EntryOriginal)).all():  # a few rows: only the secrets ever put back
        noted.setdefault(row.entry_id, []).append(row)
    return [_masked(entry, noted[entry.id]) if entry.id in noted else entry for entry in entries]


def _masked(entry: Entry, rows: list[EntryOriginal]) -> Entry:
    copy = Entry.model_validate(entry.model_dump())
    # The longest first: an original that holds another is replaced whole.
    rows = sorted(rows, key=lambda row: len(row.original), reverse=True)
    for name in _WORDS:
        text = getattr(copy, name)
        for row in rows:
            text = text.replace(row.original, row.placeholder) if text else text
        setattr(copy, name, text)
    return copy
