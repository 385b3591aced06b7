"""Column types that keep SQLite's text exact and Python's values typed.

Times are stored as ISO 8601 text in UTC with microseconds, so they sort as text and
compare byte for byte (undo relies on that). Enums are stored as their plain value.
"""

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import String
from sqlalchemy.types import TypeDecorator


def to_db_time(value: datetime) -> str:
    """The exact text a time is stored as."""
    if value.tzinfo is None:
        raise ValueError(f"naive datetime {value!r}: Murmur only stores timezone-aware times")
    return value.astimezone(UTC).isoformat(timespec="microseconds")


class UtcDateTime(TypeDecorator[datetime]):
    impl = String
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> str | None:
        return None if value is None else to_db_time(value)

    def process_result_value(self, value: str | None, dialect: Any) -> datetime | None:
        return None if value is None else datetime.fromisoformat(value)


class EnumText(TypeDecorator[StrEnum]):
    """A StrEnum stored as its value; loads back as the enum member."""

    impl = String
    cache_ok = True

    def __init__(self, enum_type: type[StrEnum]) -> None:
        super().__init__()
        self.enum_type = enum_type

    def process_bind_param(self, value: StrEnum | str | None, dialect: Any) -> str | None:
        return None if value is None else self.enum_type(value).value

    def process_result_value(self, value: str | None, dialect: Any) -> StrEnum | None:
        return None if value is None else self.enum_type(value)
