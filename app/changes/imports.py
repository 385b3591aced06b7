"""Adding what a file brought (entries, and from Murmur's own export its utterances and memories) as one batch.

What is already there is skipped and counted, never doubled: an entry with the same ID (a file's UID is
mapped to a stable ID), or with the same summary and due as one in the database; an utterance with the same
words and time; a memory with the same ID or words. Rows are written in bulk (a 10,000-entry file is one
executemany per table), each with its undo item, so one `murmur undo` takes the whole import back. A large file is
written in chunks, each its own transaction (`import_in_chunks`), so the write lock is never held for long. A file
that would add more entries than its caller lets through unasked writes nothing: it is held for the user's yes.
"""

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import text
from sqlmodel import Session

from app.changes.memories import instruction_in
from app.domain.checklist import ChecklistItem, dump_items
from app.domain.enums import Category, Status, UndoSubject
from app.store import Store
from app.store.column_types import to_db_time
from app.store.models import Entry, Memory, UndoBatch, Utterance, new_entry_id


@dataclass(frozen=True)
class Problem:
    """A line or component of the file that could not be used, or was used with a part left out."""

    line: int
    message: str
    skipped: bool = True  # the line or component brought nothing in; False when only a part was left out

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class IncomingEntry:
    """One entry read from a file, in Murmur's terms (aware times); `line` is where it starts in the file."""

    line: int
    summary: str
    content: str
    category: Category
    source_text: str
    created_at: datetime
    id: str | None = None
    priority: int | None = None
    due_at: datetime | None = None
    due_text: str | None = None
    recurrence: str | None = None
    status: Status = Status.ACTIVE
    snooze_until: datetime | None = None
    completed_at: datetime | None = None
    updated_at: datetime | None = None
    revision: int = 1
    utterance_id: int | None = None  # the file's number for the utterance it came from (Murmur's own export)
    items: tuple[ChecklistItem, ...] = ()  # its checklist


@dataclass
class ReadFile:
    """What a reader made of a file: the entries, and the rows only Murmur's own export carries."""

    entries: list[IncomingEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    utterances: list[dict[str, object]] = field(default_factory=list)  # as stored, ids as in the file
    memories: list[dict[str, object]] = field(default_factory=list)


@dataclass(frozen=True)
class ImportOutcome:
    added: int
    duplicates: int
    problems: list[Problem]
    undo_id: int | None
    utterances: int = 0
    memories: int = 0
    held: bool = False  # more new entries than were let through unasked: nothing was written, it waits for a yes

    @property
    def skipped_lines(self) -> list[int]:
        """The lines that brought nothing in, in file order."""
        return sorted({problem.line for problem in self.problems if problem.skipped})


def _time(value: datetime | None) -> str | None:
    return None if value is None else to_db_time(value)


def _entry_row(entry: IncomingEntry, entry_id: str, utterance_id: int | None, now: datetime) -> dict[str, object]:
    return {
        "id": entry_id,
        "content": entry.content,
        "summary": entry.summary,
        "category": entry.category.value,
        "priority": entry.priority,
        "due_at": _time(entry.due_at),
        "due_text": entry.due_text,
        "recurrence": entry.recurrence,
        "status": entry.status.value,
        "snooze_until": _time(entry.snooze_until),
        "source_text": entry.source_text,
        "utterance_id": utterance_id,
        "created_at": _time(entry.created_at),
        "updated_at": _time(entry.updated_at or now),
        "completed_at": _time(entry.completed_at),
        "revision": entry.revision,
        "items": dump_items(entry.items),
    }


def _same_key(summary: str, due_at: datetime | str | None) -> tuple[str, str | None]:
    due = due_at if due_at is None or isinstance(due_at, str) else to_db_time(due_at)
    return " ".join(summary.casefold().split()), due


class _Plan:
    """What will be written, decided before anything is: a dry run stops here."""

    def __init__(self, session: Session) -> None:
        self.entries: list[dict[str, object]] = []
        self.utterances: list[dict[str, object]] = []
        self.memories: list[dict[str, object]] = []
        self.problems: list[Problem] = []
        self.duplicates = 0
        rows = session.execute(text("SELECT id, summary, due_at FROM entries")).all()
        self._entry_ids = {row.id for row in rows}
        self._entry_keys = {_same_key(row.summary, row.due_at) for row in rows}
        said = session.execute(text("SELECT id, text, created_at FROM utterances")).all()
        self._utterances = {(row.text, row.created_at): row.id for row in said}
        self._utterance_ids = {row.id for row in said}
        self._next_utterance = max(self._utterance_ids, default=0) + 1
        kept = session.execute(text("SELECT id, text FROM memories")).all()
        self._memory_ids = {row.id for row in kept}
        self._memory_texts = {row.text.casefold() for row in kept}
        self._utterance_map: dict[object, int] = {}  # the file's utterance number -> the one in this database

    def add_utterances(self, rows: Iterable[dict[str, object]]) -> None:
        for row in rows:
            existing = self._utterances.get((row["text"], row["created_at"]))
            if existing is not None:
                self._utterance_map[row["id"]] = existing
                continue
            new_id = row["id"] if isinstance(row["id"], int) and row["id"] not in self._utterance_ids else None
            if new_id is None:
                new_id = self._next_utterance
            self._next_utterance = max(self._next_utterance, new_id + 1)
            self._utterance_ids.add(new_id)
            self._utterance_map[row["id"]] = new_id
            # Conversations, sessions and run leases belong to the database that made them.
            self.utterances.append(row | {"id": new_id, "conversation_id": None, "session_id": None} | _NO_LEASE)

    def add_memories(self, rows: Iterable[dict[str, object]]) -> None:
        for row in rows:
            if (instruction := instruction_in(str(row["text"]))) is not None:
                # A crafted file must not plant a standing instruction in every later request's profile.
                self.problems.append(Problem(0, f"a memory reading as an instruction ({instruction!r}) was left out"))
                continue
            words = str(row["text"]).casefold()
            if row["id"] in self._memory_ids or words in self._memory_texts:
                self.duplicates += 1
                continue
            self._memory_ids.add(str(row["id"]))
            self._memory_texts.add(words)
            self.memories.append(row | {"utterance_id": self._utterance_map.get(row.get("utterance_id"))})

    def add_entries(self, entries: Iterable[IncomingEntry], now: datetime) -> None:
        for entry in entries:
            key = _same_key(entry.summary, entry.due_at)
            if entry.id in self._entry_ids or key in self._entry_keys:
                self.duplicates += 1
                continue
            entry_id = entry.id or new_entry_id()
            self._entry_ids.add(entry_id)  # the same ID twice in one file is one entry; the same words may be two
            self.entries.append(_entry_row(entry, entry_id, self._utterance_map.get(entry.utterance_id), now))


_NO_LEASE = {"lease_host": None, "lease_pid": None, "lease_until": None}


def _insert(session: Session, table: str, rows: Sequence[dict[str, object]]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    names = ", ".join(columns)
    values = ", ".join(f":{name}" for name in columns)
    session.execute(text(f"INSERT INTO {table} ({names}) VALUES ({values})"), list(rows))


def _described(subject: UndoSubject, row: dict[str, object]) -> dict[str, object]:
    """As the history shows it: an entry by its summary, a memory or an utterance by its words."""
    name = "summary" if subject is UndoSubject.ENTRY else "text"
    return {"kind": "create", "imported": True, name: row[name]}


def _undo_rows(
    batch_id: int, subject: UndoSubject, rows: Sequence[dict[str, object]], first: int
) -> list[dict[str, object]]:
    """A create's undo item for each row: undoing it deletes the row, unless it was changed since."""
    return [
        {
            "batch_id": batch_id,
            "position": first + position,
            "kind": "create",
            "entry_id": str(row["id"]),
            "description": json.dumps(_described(subject, row), ensure_ascii=False),
            "subject": subject.value,
            "before_row": None,
            "after_revision": row.get("revision", 1),
        }
        for position, row in enumerate(rows)
    ]


def _stored_columns(model: type[Entry] | type[Utterance] | type[Memory]) -> list[str]:
    return list(model.__table__.columns.keys())  # type: ignore[union-attr]


# A large file is written this many rows at a time, each chunk its own short transaction (`import_in_chunks`), so
# an utterance said meanwhile waits a moment, not the whole import.
IMPORT_CHUNK = 5000


@dataclass(frozen=True)
class _Writes:
    """One table's new rows with their undo items, in the order they are written."""

    table: str
    rows: list[dict[str, object]]
    items: list[dict[str, object]]


def _planned(session: Session, read: ReadFile, now: datetime) -> _Plan:
    plan = _Plan(session)
    plan.add_utterances(read.utterances)
    plan.add_memories(read.memories)
    plan.add_entries(read.entries, now)
    return plan


def _writes(plan: _Plan, batch_id: int) -> list[_Writes]:
    """What to write, table by table: utterances first, as entries and memories name them. Positions follow the
    tables' order, so undo (last first) deletes the entries before the utterances they name."""
    utterance_columns, memory_columns = _stored_columns(Utterance), _stored_columns(Memory)
    utterances = [{name: row.get(name) for name in utterance_columns} for row in plan.utterances]
    memories = [{name: row.get(name) for name in memory_columns} for row in plan.memories]
    items = _undo_rows(batch_id, UndoSubject.UTTERANCE, plan.utterances, 0)
    said = sorted(zip(utterances, items, strict=True), key=lambda pair: int(str(pair[0]["id"])), reverse=True)
    # The highest planned utterance ID goes in first: AUTOINCREMENT then numbers an utterance said between two
    # chunks above every planned one, never onto one a later chunk writes.
    writes = [_Writes("utterances", [row for row, _ in said], [item for _, item in said])]
    writes.append(_Writes("memories", memories, _undo_rows(batch_id, UndoSubject.MEMORY, memories, len(items))))
    first = len(items) + len(memories)
    writes.append(_Writes("entries", plan.entries, _undo_rows(batch_id, UndoSubject.ENTRY, plan.entries, first)))
    return writes


def _chunks(writes: list[_Writes], size: int) -> Iterator[list[_Writes]]:
    """The writes cut into pieces of at most `size` rows, in order."""
    flat = [(write.table, row, item) for write in writes for row, item in zip(write.rows, write.items, strict=True)]
    for start in range(0, len(flat), size):
        piece: dict[str, _Writes] = {}  # by table, in the order first met
        for table, row, item in flat[start : start + size]:
            write = piece.setdefault(table, _Writes(table, [], []))
            write.rows.append(row)
            write.items.append(item)
        yield list(piece.values())


def _write(session: Session, piece: list[_Writes]) -> None:
    for write in piece:
        _insert(session, write.table, write.rows)
        _insert(session, "undo_items", write.items)


def _outcome(plan: _Plan, read: ReadFile, undo_id: int | None) -> ImportOutcome:
    return ImportOutcome(
        added=len(plan.entries),
        duplicates=plan.duplicates,
        problems=[*read.problems, *plan.problems],
        undo_id=undo_id,
        utterances=len(plan.utterances),
        memories=len(plan.memories),
    )


def preview_import(session: Session, read: ReadFile, now: datetime) -> ImportOutcome:
    """What importing `read` would add and skip, writing nothing (a dry run)."""
    return _outcome(_planned(session, read, now), read, None)


def import_in_chunks(
    store: Store, read: ReadFile, now: datetime, label: str, most: int | None = None, chunk: int = IMPORT_CHUNK
) -> ImportOutcome:
    """Add what `read` holds as one undo batch (what is already here skipped), `chunk` rows per transaction; with
    `most`, more new entries than that are not added at all (the outcome is `held`, counted as a dry run is).

    Decided (what is new, what is already here, whether it is too many) in the first transaction, which writes the
    first chunk: the count the user is asked about is the one that would be written. Resumable
    rather than all-or-nothing: each chunk commits its rows with their undo items, so when the process dies (or
    the lock cannot be had) between chunks, what was written is in the history as one batch that undo takes back
    whole, and importing the file again adds the rest, what is already here being skipped.
    """
    with store.write() as session:
        plan = _planned(session, read, now)
        if most is not None and len(plan.entries) > most:
            return replace(_outcome(plan, read, None), held=True)
        if not (plan.entries or plan.utterances or plan.memories):
            return _outcome(plan, read, None)
        batch = UndoBatch(label=label, created_at=now)
        session.add(batch)
        session.flush()
        assert batch.id is not None
        pieces = _chunks(_writes(plan, batch.id), chunk)
        _write(session, next(pieces))
    for piece in pieces:
        with store.write() as session:
            _write(session, piece)
    return _outcome(plan, read, batch.id)
