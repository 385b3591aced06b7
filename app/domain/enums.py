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
