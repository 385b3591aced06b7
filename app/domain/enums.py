"""Every enumeration of the domain, in one place."""

from enum import StrEnum


class Category(StrEnum):
    TODO = "todo"
    NOTE = "note"
    REMINDER = "reminder"
    IDEA = "idea"
    LIST = "list"
    HABIT = "habit"
    QUESTION = "question"
    THOUGHT = "thought"


class Status(StrEnum):
    ACTIVE = "active"
    SNOOZED = "snoozed"
    COMPLETED = "completed"
    ARCHIVED = "archived"


class Cadence(StrEnum):
    DAILY = "daily"
    WEEKDAYS = "weekdays"
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class ActionKind(StrEnum):
    CREATE = "create"
    UPDATE = "update"
    COMPLETE = "complete"
    ARCHIVE = "archive"
    SNOOZE = "snooze"


class MemoryChangeKind(StrEnum):
    """What a change did to one of the user's memories."""

    REMEMBER = "remember"
    FORGET = "forget"
    EDIT = "edit"


class UndoKind(StrEnum):
    """What an undo item records (stored as undo_items.kind): an action on an entry, a change to a memory, an
    utterance dismissed from the inbox, or a word of the user's vocabulary added or removed. The first two share
    their values with ActionKind and MemoryChangeKind."""

    CREATE = "create"
    UPDATE = "update"
    COMPLETE = "complete"
    ARCHIVE = "archive"
    SNOOZE = "snooze"
    REMEMBER = "remember"
    FORGET = "forget"
    EDIT = "edit"
    DISMISS = "dismiss"
    FORGET_AUDIO = "forget_audio"  # a recording's sound moved to the trash
    ADD = "add"  # a word added to the user's vocabulary
    REMOVE = "remove"  # a word taken out of it


class FailureKind(StrEnum):
    """Why an action was not applied."""

    NOT_FOUND = "not_found"  # no entry has the ID asked for, or no open entry matches the words said
    AMBIGUOUS = "ambiguous"  # the ID or the words fit more than one entry
    INVALID = "invalid"  # the action does not apply to the entry as it is, or its fields do not validate


class DueSpan(StrEnum):
    """How far ahead "what's due" looks: what is late, what is due by tonight, by a week from today."""

    OVERDUE = "overdue"
    TODAY = "today"
    WEEK = "week"


class UtteranceSource(StrEnum):
    VOICE = "voice"
    TYPED = "typed"
    CLI = "cli"


class UtteranceOutcome(StrEnum):
    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


class UndoSubject(StrEnum):
    """What an undo item changed: an entry, one of the user's memories, an utterance (dismissed from the inbox), the
    recording of one (its sound forgotten) or a word of the user's vocabulary."""

    ENTRY = "entry"
    MEMORY = "memory"
    UTTERANCE = "utterance"
    RECORDING = "recording"  # its id is the recordings row's; its sound waits in the trash
    WORD = "word"  # a term or replacement of the user's vocabulary


class RecordingRemoval(StrEnum):
    """Why a recording's sound is no longer kept (recordings.removed_why)."""

    PRUNED = "pruned"  # older or over the size the retention settings allow
    FORGOTTEN = "forgotten"  # `murmur forget-audio`: in the trash until undone or emptied


class MemorySource(StrEnum):
    MODEL = "model"  # the agent's remember tool
    USER = "user"  # `murmur memory add`, the Memory tab, "remember that ..." read by the offline rules


class SessionEnd(StrEnum):
    SILENCE = "silence"  # the next utterance came after the gap
    QUIT = "quit"  # the app quit
    ASKED = "asked"  # `murmur session end`


class Format(StrEnum):
    """A file format entries are exported to and imported from (app.portable)."""

    JSON = "json"
    MARKDOWN = "markdown"
    ICS = "ics"
    TODOTXT = "todotxt"
    CSV = "csv"
