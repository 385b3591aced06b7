"""The tables, as SQLModel classes.

The schema itself is created by the migrations in `migrations.py` (hand-written DDL, so an old
user's database can be brought forward step by step); a test checks these classes match it.
"""

import uuid
from datetime import UTC, datetime

from sqlmodel import Field, SQLModel

from app.domain.enums import (
    Category,
    MemorySource,
    RecordingRemoval,
    SessionEnd,
    Status,
    UndoKind,
    UndoSubject,
    UtteranceOutcome,
    UtteranceSource,
)
from app.store.column_types import EnumText, UtcDateTime


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_entry_id() -> str:
    """32 lowercase hex digits: short IDs are prefixes of this."""
    return uuid.uuid4().hex


class Entry(SQLModel, table=True):
    __tablename__ = "entries"

    id: str = Field(default_factory=new_entry_id, primary_key=True)
    content: str
    summary: str
    category: Category = Field(sa_type=EnumText(Category))
    priority: int | None = None
    due_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    due_text: str | None = None
    recurrence: str | None = None  # an RRULE body: a habit's repeat (app/domain/recurrence.py)
    status: Status = Field(default=Status.ACTIVE, sa_type=EnumText(Status))
    snooze_until: datetime | None = Field(default=None, sa_type=UtcDateTime)
    source_text: str
    utterance_id: int | None = Field(default=None, foreign_key="utterances.id")
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    completed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    # Bumped on every change: undo compares it to detect edits made after the batch.
    revision: int = 1
    items: str | None = None  # the checklist, as JSON (app/domain/checklist.py); null when there is none


class EntryOriginal(SQLModel, table=True):
    """A secret redaction hid from the model and privacy.keep_unredacted put back into this entry: it stays on
    this machine (app/changes/originals.py)."""

    __tablename__ = "entry_originals"

    entry_id: str = Field(foreign_key="entries.id", primary_key=True)
    original: str = Field(primary_key=True)
    placeholder: str  # what the model saw instead, and what sync and exports write


class Utterance(SQLModel, table=True):
    """Everything the user said or typed, saved before it is interpreted."""

    __tablename__ = "utterances"

    id: int | None = Field(default=None, primary_key=True)
    text: str
    source: UtteranceSource = Field(sa_type=EnumText(UtteranceSource))
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    outcome: UtteranceOutcome = Field(default=UtteranceOutcome.PENDING, sa_type=EnumText(UtteranceOutcome))
    error: str | None = None
    attempts: int = 0
    processed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    conversation_id: int | None = Field(default=None, foreign_key="conversations.id")
    # Set while a run is in progress: who holds it, and until when (app/changes/runs.py).
    lease_host: str | None = None
    lease_pid: int | None = None
    lease_until: datetime | None = Field(default=None, sa_type=UtcDateTime)
    session_id: int | None = Field(default=None, foreign_key="sessions.id")
    reply: str | None = None  # what Murmur answered (the model's words, or an offline answer)
    # Out of the inbox by the user's choice, kept (nothing said is lost); undo brings it back.
    dismissed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    # The words first heard, when the user corrected them or the vocabulary's replacements changed a dictation.
    heard_text: str | None = None
    # Bumped by the user's changes to it (dismiss, correct): undo compares it, as for entries.
    revision: int = 1
    # The changes another program asked for, as JSON [[kind, item], ...], waiting for the user's yes (it asked
    # for more at once than llm.confirm_over); the text says them in words. Null for everything said, but for
    # the readings offered back (app/changes/offers.py) and words heard faintly (app/changes/faint.py).
    held: str | None = None


class Recording(SQLModel, table=True):
    """The sound of a dictated utterance, a FLAC file in the recordings folder (app/recordings/)."""

    __tablename__ = "recordings"

    id: int | None = Field(default=None, primary_key=True)
    utterance_id: int = Field(foreign_key="utterances.id", unique=True)
    file: str  # its name in the recordings folder
    bytes: int
    seconds: float
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    removed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)  # the file is gone (or in the trash)
    removed_why: RecordingRemoval | None = Field(default=None, sa_type=EnumText(RecordingRemoval))
    revision: int = 1  # bumped when its sound is forgotten: undo compares it, as for entries


class UndoBatch(SQLModel, table=True):
    """One applied batch of actions; the unit `murmur undo` reverts."""

    __tablename__ = "undo_batches"

    id: int | None = Field(default=None, primary_key=True)
    utterance_id: int | None = Field(default=None, foreign_key="utterances.id")
    label: str
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    undone_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    origin: str | None = None  # the other program that made it (an MCP client's name); None: Murmur itself


class UndoItem(SQLModel, table=True):
    """One applied action with what is needed to revert it exactly."""

    __tablename__ = "undo_items"

    id: int | None = Field(default=None, primary_key=True)
    batch_id: int = Field(foreign_key="undo_batches.id")
    position: int
    kind: UndoKind = Field(sa_type=EnumText(UndoKind))
    entry_id: str  # the id of the entry, or of the memory or utterance when `subject` says so
    description: str
    subject: UndoSubject = Field(default=UndoSubject.ENTRY, sa_type=EnumText(UndoSubject))
    # The entry's row, column by column as stored, before the action; null for a create.
    before_row: str | None = None
    after_revision: int
    undone_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    undo_conflict: str | None = None


class Conversation(SQLModel, table=True):
    """A talk with the model: its messages as sent (redacted), open for a follow-up while it asks."""

    __tablename__ = "conversations"

    id: int | None = Field(default=None, primary_key=True)
    started_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    messages: str  # JSON: the user, assistant and tool messages (not the system or context ones)
    open_until: datetime | None = Field(default=None, sa_type=UtcDateTime)


class LlmRequest(SQLModel, table=True):
    """One request to the model: what it was sent, what it said, what it cost, how long it took."""

    __tablename__ = "llm_requests"

    id: int | None = Field(default=None, primary_key=True)
    utterance_id: int | None = Field(default=None, foreign_key="utterances.id")
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    base_url: str
    model: str
    turn: int
    request: str  # JSON: the messages, after redaction
    response: str | None = None  # JSON: content, tool_calls, finish_reason
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    first_token_ms: float | None = None
    total_ms: float | None = None
    tools: str | None = None  # JSON: the names of the tools offered
    protocol: str | None = None  # how they were offered: native (function calling) or text (<execute> blocks)
    sent_with: str | None = None  # JSON: what was sent besides the messages (stop sequences, limits)
    tokens_estimated: bool = False  # cut short before the server counted: the tokens are estimated from the text


class ModelProtocol(SQLModel, table=True):
    """How a model on a server calls tools, as learned from its server or its answers."""

    __tablename__ = "model_protocols"

    base_url: str = Field(primary_key=True)
    model: str = Field(primary_key=True)
    protocol: str
    reason: str  # what showed it, for `murmur config test` and the log
    learned_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)


class ModelStanding(SQLModel, table=True):
    """Whether a model on a server is fit to use: its failed utterances in a row, and why it was set aside
    (the built-in rules stand in for it until `murmur config test` finds it working)."""

    __tablename__ = "model_standings"

    base_url: str = Field(primary_key=True)
    model: str = Field(primary_key=True)
    failures: int = 0
    set_aside: str | None = None
    changed_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)


class Memory(SQLModel, table=True):
    """A lasting fact or preference about the user, shown to the model in every request."""

    __tablename__ = "memories"

    id: str = Field(default_factory=new_entry_id, primary_key=True)
    text: str
    source: MemorySource = Field(sa_type=EnumText(MemorySource))
    utterance_id: int | None = Field(default=None, foreign_key="utterances.id")
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    used_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)  # last remembered or confirmed
    forgotten_at: datetime | None = Field(default=None, sa_type=UtcDateTime)  # kept for undo until then
    revision: int = 1


class VocabularyWord(SQLModel, table=True):
    """One of the user's words: a term the speech engines are told to expect, or, with `heard`, a replacement
    of what an engine writes for it ("jay son" -> "JSON")."""

    __tablename__ = "vocabulary"

    id: str = Field(default_factory=new_entry_id, primary_key=True)
    term: str  # written the user's way
    heard: str | None = None  # a replacement's words as heard; null for a plain term
    created_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    removed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)  # kept for undo until then
    revision: int = 1


class TalkSession(SQLModel, table=True):
    """Utterances close together in time; when it ends, the model may sum it up for the next one."""

    __tablename__ = "sessions"

    id: int | None = Field(default=None, primary_key=True)
    started_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    last_at: datetime = Field(default_factory=utc_now, sa_type=UtcDateTime)
    ended_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    end_reason: SessionEnd | None = Field(default=None, sa_type=EnumText(SessionEnd))
    synthesis: str | None = None
    synthesis_error: str | None = None


class SyncOutboxRow(SQLModel, table=True):
    """An entry changed since it was last sent to the sync server; written by triggers (see migrations)."""

    __tablename__ = "sync_outbox"

    entry_id: str = Field(primary_key=True)
    queued_at: str  # SQLite's own clock, in UTC: the triggers write it


class SyncItem(SQLModel, table=True):
    """An entry's object on the sync server, and the version both sides last agreed on."""

    __tablename__ = "sync_items"

    entry_id: str = Field(primary_key=True)
    uid: str = Field(unique=True)  # the object's UID: ours for entries made here, the other client's otherwise
    href: str = Field(unique=True)  # its path on the server
    etag: str | None = None
    synced_ics: str  # the VTODO as last agreed: the base of a three-way merge


class SyncState(SQLModel, table=True):
    """The one task list synced, and how far its changes have been read."""

    __tablename__ = "sync_state"

    id: int = Field(default=1, primary_key=True)
    calendar_url: str
    calendar_name: str = ""  # the name it was asked for by: a list renamed on the server is still found by its URL
    sync_token: str | None = None  # RFC 6578: the server's mark of what this client has seen
    last_sync_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    last_error: str | None = None
    last_error_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    failing_since: datetime | None = Field(default=None, sa_type=UtcDateTime)  # the first failure since a success
    last_error_remedy: str | None = None  # what to do about the last error, as app.sync.remedy_record keeps it
    skipped: str = ""  # the objects the last sync could not read or send, one line each
    unread: str = ""  # the hrefs of those it could not read, one a line: asked for again at every sync
