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


class UtteranceSource(StrEnum):
    VOICE = "voice"
    TYPED = "typed"
    CLI = "cli"


class UtteranceOutcome(StrEnum):
    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


class UndoSubject(StrEnum):
    """What an undo item changed: an entry, one of the user's memories, or an utterance (dismissed from the inbox)."""

    ENTRY = "entry"
    MEMORY = "memory"
    UTTERANCE = "utterance"


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
